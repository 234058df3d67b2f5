"""`agentui web`: the app served to a browser by textual-serve, with the browser's own checks
that it leaves out.

textual-serve runs one agentui per browser tab behind a websocket. Browsers let any page open
a websocket to 127.0.0.1, and a page whose domain is made to resolve to 127.0.0.1 (DNS
rebinding) can read what the server sends, so a site in another tab could type into agentui.
So the server answers only requests addressed to its own host and port, and opens the
websocket only for pages it served itself (the `Origin` header).

Stopping it (Ctrl+C, SIGTERM) closes every tab's websocket first, so that each app is told to
quit and ends in order; textual-serve left them open, and the server waited a minute for
browsers to hang up. An app that outlives the server anyway ends when its pipes close
(terminal_watch.py).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Sequence
from shlex import join
from typing import Any
from urllib.parse import urlsplit

from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server

from agentui.core.remote.auth import is_loopback
from agentui.tui.cli.options import fail, port_number, warn

# How long the server waits for a browser to answer its closing of a tab's socket.
CLOSE_WAIT_S = 2.0


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui web",
        description="Serve the app to a browser (textual-serve): each browser tab runs its own "
        "agentui with the options after `--`.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="bind an address other than loopback: anyone who reaches it runs agents as you",
    )
    parser.add_argument("app_args", nargs=argparse.REMAINDER, help="options for agentui itself")
    args = parser.parse_args(argv)
    if not is_loopback(args.host) and not args.allow_remote:
        return fail(
            f"{args.host} is reachable from other machines and textual-serve has no login; "
            "add --allow-remote to bind it anyway"
        )
    if args.port == 0:
        return fail("agentui web needs a fixed port (the browser's page names it)")
    app_args = [a for a in args.app_args if a != "--"]
    # Checked once here: a bad option would otherwise give every browser tab a dead terminal.
    from agentui.tui.cli.app_command import app_parser

    app_parser().parse_args(app_args)
    # Each browser tab's app starts as `agentui` does (launch.py: the collector off until then).
    command = join([sys.executable, "-m", "agentui.tui.cli.launch", *app_args])
    if not is_loopback(args.host):
        warn([f"serving on {args.host}: anyone who reaches port {args.port} runs agents as you"])
    try:
        GuardedServer(command, host=args.host, port=args.port, title="agentui").serve()
    except OSError as exc:  # the port is taken, the address is not this machine's, ...
        return fail(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
    return 0


class GuardedServer(Server):
    """textual-serve's server, refusing requests from other sites, closing its tabs first
    when it stops."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._open_sockets: set[web.WebSocketResponse] = set()

    async def _process_messages(
        self, websocket: web.WebSocketResponse, app_service: AppService
    ) -> None:
        self._open_sockets.add(websocket)
        try:
            await super()._process_messages(websocket, app_service)
        finally:
            self._open_sockets.discard(websocket)

    async def on_shutdown(self, app: web.Application) -> None:
        """Each tab's socket closed: its messages end, and textual-serve tells its app to quit
        and waits for it (aiohttp waits for those handlers before it stops)."""
        closing = [
            socket.close(code=WSCloseCode.GOING_AWAY, message=b"agentui web is stopping")
            for socket in list(self._open_sockets)
        ]
        if closing:
            await asyncio.wait(
                [asyncio.ensure_future(close) for close in closing], timeout=CLOSE_WAIT_S
            )

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
