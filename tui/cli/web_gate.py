"""Who may open `agentui web`: the person holding its token, from its own page.

Every request to `agentui web` runs agents as its owner. The address printed at start carries
the token `agentui serve` uses (core/remote/token_file.py): `http://127.0.0.1:8000/?token=…`.
Opening it sends the browser on to the same address with this start's page key in place of the
token (`/?key=…`: random, made at each start, so it dies with the server and never opens
`agentui serve`'s API). The page served there names its websocket with a ticket
(`/ws/<ticket>`): one use, for a minute, made for that page alone. A request without the token
or the key gets a page saying what to open (401); a websocket without a fresh ticket is
refused (401).

No cookie: a browser sends 127.0.0.1's cookies to every port of it (SameSite does not keep
ports apart), so another user's server on this machine would be sent it on any visit, and could
replay it. What opens the app lives in the address bar (the key) and in one page (the ticket),
which a browser never sends elsewhere; responses ask it not to send their address as a referrer.

Before those: on loopback a request must name this server's host and port in Host (a page whose
domain is re-pointed at 127.0.0.1, DNS rebinding, sends its own name), and one naming another
loopback name (localhost for 127.0.0.1) is sent on to the printed address. Beyond loopback the
names it is reached by are not known, so any Host is answered, as `agentui serve` does. Either
way a websocket must come from a page this server served: its `Origin` (which every browser
sends with one; a client that sends none is refused) is the address the request was sent to.

Open without a credential: textual-serve's own static files (its scripts and styles, the same
in every install), and `/download/<key>`, whose key (a random id the app makes for each file it
hands over) was told only to the tab's websocket; the browser opens it without the page's key.
"""

from __future__ import annotations

import hmac
import re
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote

from aiohttp import web

from agentui.core.remote.auth import is_loopback

TOKEN_PARAMETER = "token"  # in the printed address: ?token=…
KEY_PARAMETER = "key"  # in the page's address: ?key=…
SOCKET_PREFIX = "/ws/"  # the page's websocket: /ws/<ticket>
OPEN_PREFIXES = ("/static/", "/download/")
TICKET_LIFETIME_S = 60.0  # a page opens its websocket as it loads
# A Host header as a browser writes one (name or address, and port): beyond loopback any is
# answered, and it goes into the page (the websocket's address), so nothing else is.
HOST_HEADER = re.compile(r"(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::[0-9]{1,5})?")
MOST_TICKETS = 64  # unused ones kept at once: a page reloaded in a loop costs nothing
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]

REFUSAL_PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>agentui web: a token is needed</title></head>
<body style="font-family: sans-serif; max-width: 40em; margin: 3em auto">
<h1>agentui web needs its token</h1>
<p>This address runs agents as the person who started <code>agentui web</code>, so it opens
only with the token it printed when it started:</p>
<pre>agentui web: open ADDRESS/?token=… in a browser</pre>
<p>Open that address (the whole of it). If it was started again since, open the address it
printed then.</p>
</body></html>
"""


class Tickets:
    """One-use tickets for the page's websocket, each valid for TICKET_LIFETIME_S."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._expiry: OrderedDict[str, float] = OrderedDict()

    def issue(self) -> str:
        now = self._clock()
        for ticket, expiry in list(self._expiry.items()):  # oldest first
            if expiry > now and len(self._expiry) < MOST_TICKETS:
                break
            del self._expiry[ticket]
        ticket = secrets.token_urlsafe(24)
        self._expiry[ticket] = now + TICKET_LIFETIME_S
        return ticket

    def redeem(self, ticket: str) -> bool:
        """True once for a ticket issued less than TICKET_LIFETIME_S ago; it is spent."""
        expiry = self._expiry.pop(ticket, None)
        return expiry is not None and self._clock() < expiry


@dataclass(frozen=True, slots=True)
class WebGate:
    """The checks every request to `agentui web` passes, as an aiohttp middleware."""

    token: str
    host: str  # as it was given: 127.0.0.1, localhost, ::1, an address beyond this machine
    port: int  # the bound one
    page_key: str = field(default_factory=lambda: secrets.token_urlsafe(32))
    tickets: Tickets = field(default_factory=Tickets)

    @property
    def url(self) -> str:
        """The address printed: on loopback, where the page and its websocket live."""
        return f"http://{self.netloc}"

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def login_url(self) -> str:
        """The address to print at start: it carries the token."""
        return f"{self.url}/?{TOKEN_PARAMETER}={_quoted(self.token)}"

    def hosts(self) -> frozenset[str] | None:
        """The Host headers answered: on loopback the given address and loopback's names;
        None, any, beyond it."""
        if not is_loopback(self.host):
            return None
        port = self.port
        names = {self.host, "localhost", "127.0.0.1"}
        return frozenset(
            f"[{name}]:{port}" if ":" in name else f"{name}:{port}" for name in names
        ) | {f"[{self.host}]:{port}"}  # an IPv6 address as a Host header writes it

    def socket_url(self, request: web.Request) -> str:
        """The websocket address for a page served in answer to `request`, with a new ticket."""
        return f"ws://{request.host}{SOCKET_PREFIX}{self.tickets.issue()}"

    @web.middleware
    async def middleware(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        hosts = self.hosts()
        if hosts is None and HOST_HEADER.fullmatch(request.host) is None:
            raise web.HTTPForbidden(text="agentui web: unreadable host")
        if hosts is not None and request.host not in hosts:
            raise web.HTTPForbidden(text="agentui web: unknown host")
        opening_socket = request.headers.get("Upgrade", "").lower() == "websocket"
        origin = request.headers.get("Origin")
        own_origin = self.url if hosts is not None else f"http://{request.host}"
        if (origin is not None or opening_socket) and origin != own_origin:
            raise web.HTTPForbidden(text="agentui web: a page from another site")
        if hosts is not None and request.host != self.netloc:
            # another name for this machine: go where the page's Origin will be its own
            raise web.HTTPTemporaryRedirect(self.url + request.path_qs)
        if opening_socket:
            ticket = request.path.removeprefix(SOCKET_PREFIX)
            if request.path.startswith(SOCKET_PREFIX) and self.tickets.redeem(ticket):
                return await handler(request)
            raise web.HTTPUnauthorized(
                text="agentui web: the websocket needs a fresh ticket from its page (reload it)"
            )
        if request.path.startswith(OPEN_PREFIXES):
            return await handler(request)
        given = request.query.get(TOKEN_PARAMETER)
        if given is not None and _same(given, self.token):
            raise self._keyed(request)
        if _same(request.query.get(KEY_PARAMETER, ""), self.page_key):
            response = await handler(request)
            response.headers["Cache-Control"] = "no-store"  # its ticket is for one load
            response.headers["Referrer-Policy"] = "no-referrer"  # its address holds the key
            return response
        page = REFUSAL_PAGE.replace("ADDRESS", escape(self.url))
        raise web.HTTPUnauthorized(text=page, content_type="text/html")

    def _keyed(self, request: web.Request) -> web.HTTPSeeOther:
        """The same address with the page key in place of the token."""
        rest = {k: v for k, v in request.query.items() if k not in (TOKEN_PARAMETER, KEY_PARAMETER)}
        onward = web.HTTPSeeOther(
            str(request.rel_url.with_query({**rest, KEY_PARAMETER: self.page_key}))
        )
        onward.headers["Referrer-Policy"] = "no-referrer"
        return onward


def _same(given: str, expected: str) -> bool:
    """Compared in constant time; `given` may hold anything a URL can."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), expected.encode())


def _quoted(token: str) -> str:
    return quote(token, safe="")  # a token may hold + / = (a --token-file's own)
