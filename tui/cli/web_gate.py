"""Who may open `agentui web`: the person holding its token, from its own page.

Every request to `agentui web` runs agents as its owner, so each one needs the token
`agentui serve` uses (core/remote/token_file.py). The address printed at start carries it
(`http://127.0.0.1:8000/?token=…`); opening that sets a cookie and sends the browser on to the
same address without the token (so it leaves the address bar), and the page's websocket then
brings the cookie along. A request without the token, or with another one, gets a page saying
what to open instead (401).

The cookie holds a digest of the token, never the token: cookies are not kept apart by port,
so a browser also sends it to other servers on 127.0.0.1, and such a server must not learn the
token that `agentui serve`'s API takes. It is a session cookie, HttpOnly (no script reads it)
and SameSite=Lax (no other site's page sends it; Lax, not Strict, so that the first redirect,
from a link clicked outside the browser, still carries it).

Before the token: a request must name this server's host and port in Host (a page whose
domain is re-pointed at 127.0.0.1, DNS rebinding, sends its own name); a request naming
another loopback name (localhost for 127.0.0.1) is sent on to the printed address, where the
cookie lives; and a websocket must come from a page this server served (`Origin`, which every
browser sends with one: a client that sends none is refused too, as the issue's local attacker
was not).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from html import escape
from urllib.parse import quote

from aiohttp import web

from agentui.core.remote.auth import is_loopback

TOKEN_PARAMETER = "token"  # in the printed address: ?token=…
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

REFUSAL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>agentui web: a token is needed</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>agentui web needs its token</h1>
<p>This address runs agents as the person who started <code>agentui web</code>, so it opens
only with the token it printed when it started:</p>
<pre>agentui web: open ADDRESS/?token=… in a browser</pre>
<p>Open that address (the whole of it). If it was started again with <code>--new-token</code>,
open the address it printed then.</p>
</body></html>
"""


@dataclass(frozen=True, slots=True)
class WebGate:
    """The checks every request to `agentui web` passes, as an aiohttp middleware."""

    token: str
    host: str  # as it was given: 127.0.0.1, localhost, ::1, an address beyond this machine
    port: int  # the bound one

    @property
    def url(self) -> str:
        """The address the browser is sent to: where the page, its websocket and the
        cookie live."""
        return f"http://{self.netloc}"

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def login_url(self) -> str:
        """The address to print at start: it carries the token."""
        return f"{self.url}/?{TOKEN_PARAMETER}={_quoted(self.token)}"

    @property
    def cookie_name(self) -> str:
        # One per port: the cookies of two servers on one host are the browser's one jar.
        return f"agentui-web-{self.port}"

    @property
    def cookie_value(self) -> str:
        return hmac.new(self.token.encode(), b"agentui web cookie", hashlib.sha256).hexdigest()

    def hosts(self) -> frozenset[str]:
        """The Host headers answered: the given address, and loopback's names when it is one."""
        names = {self.host, "localhost", "127.0.0.1"} if is_loopback(self.host) else {self.host}
        port = self.port
        return frozenset(
            f"[{name}]:{port}" if ":" in name else f"{name}:{port}" for name in names
        ) | {f"[{self.host}]:{port}"}  # an IPv6 address as a Host header writes it

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        if request.host not in self.hosts():
            raise web.HTTPForbidden(text="agentui web: unknown host")
        opening_socket = request.headers.get("Upgrade", "").lower() == "websocket"
        origin = request.headers.get("Origin")
        if (origin is not None or opening_socket) and origin != self.url:
            raise web.HTTPForbidden(text="agentui web: a page from another site")
        if request.host != self.netloc:  # another name for this machine: go where the cookie is
            raise web.HTTPTemporaryRedirect(self.url + request.path_qs)
        given = request.query.get(TOKEN_PARAMETER)
        if given is not None and _same(given, self.token):
            if not opening_socket and request.path == "/":
                raise self._logged_in(request)
            return await handler(request)
        if _same(request.cookies.get(self.cookie_name, ""), self.cookie_value):
            return await handler(request)
        if opening_socket:
            raise web.HTTPUnauthorized(text="agentui web: a valid token is needed")
        page = REFUSAL_PAGE.replace("ADDRESS", escape(self.url))
        raise web.HTTPUnauthorized(text=page, content_type="text/html")

    def _logged_in(self, request: web.Request) -> web.HTTPSeeOther:
        """The cookie, and the same address without the token."""
        rest = {k: v for k, v in request.query.items() if k != TOKEN_PARAMETER}
        onward = web.HTTPSeeOther(str(request.rel_url.with_query(rest)))
        onward.set_cookie(self.cookie_name, self.cookie_value, httponly=True, samesite="Lax")
        return onward


def _same(given: str, expected: str) -> bool:
    """Compared in constant time; `given` may hold anything a URL or a cookie can."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode())


def _quoted(token: str) -> str:
    return quote(token, safe="")  # a token may hold + / = (a --token-file's own)
