"""`agentui web`: textual-serve, with the browser's own checks that it leaves out.

textual-serve runs one agentui per browser tab behind a websocket. Browsers let any page open
a websocket to 127.0.0.1, and a page whose domain is made to resolve to 127.0.0.1 (DNS
rebinding) can read what the server sends, so a site in another tab could type into agentui.
So the server answers only requests addressed to its own host and port, and opens the
websocket only for pages it served itself (the `Origin` header).
"""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from aiohttp import web
from textual_serve.server import Server

from agentui.core.remote.auth import is_loopback


class GuardedServer(Server):
    """textual-serve's server, refusing requests from other sites."""

    def _own_host(self, request: web.Request) -> bool:
        return request.host in self._hosts()

    def _hosts(self) -> set[str]:
        names = {self.host, "localhost", "127.0.0.1"} if is_loopback(self.host) else {self.host}
        return {f"{name}:{self.port}" for name in names} | {
            f"[{self.host}]:{self.port}"  # an IPv6 address as a Host header writes it
        }

    def _own_origin(self, request: web.Request) -> bool:
        origin = request.headers.get("Origin")
        if origin is None:
            return True  # not a browser page: a browser always sends it with a websocket
        parts = urlsplit(origin)
        return parts.scheme in {"http", "https"} and parts.netloc in self._hosts()

    async def handle_index(self, request: web.Request) -> Any:
        if not self._own_host(request):
            raise web.HTTPForbidden(text="agentui web: unknown host")
        return await super().handle_index(request)

    async def handle_websocket(self, request: web.Request) -> Any:
        if not (self._own_host(request) and self._own_origin(request)):
            raise web.HTTPForbidden(text="agentui web: a page from another site")
        return await super().handle_websocket(request)
