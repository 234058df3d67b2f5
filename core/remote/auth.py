"""Who may talk to `agentui serve`: the Host a request names, the browser Origin it comes
from, and its bearer token (compared in constant time).

Every request needs `Authorization: Bearer <token>`. Two checks come before the token, as
defence in depth against a web page the person happens to open:

- a request that carries an `Origin` other than the server's own is refused (browsers send
  Origin on cross-site requests; other clients send none);
- a server on loopback answers only requests addressed to a loopback name (`localhost`,
  `127.0.0.1`, `[::1]`, or the address it was given), whatever the port: a page whose own name
  an attacker re-points at 127.0.0.1 (DNS rebinding) still sends its own name as Host. The port
  is not checked, so an SSH tunnel from another local port works. A server that allows remote
  clients answers any Host: the names it is reached by are not known.

WebSocket connections are refused: the API has none, and a browser sends a WebSocket upgrade
to any site without asking. A body declared larger than the server takes is refused here too,
before it is read, with the same JSON error as one found too large as it is read (FastAPI's
`max_body_size`, which answers a declared one in plain text).
"""

from __future__ import annotations

import hmac
import ipaddress
from collections.abc import Iterable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")  # how a page on this machine may name it


def too_large(limit: int) -> str:
    """The refusal of a body over `limit` bytes."""
    size = f"{limit >> 20} MiB" if limit % (1 << 20) == 0 else f"{limit} bytes"
    return f"the request body is too large (at most {size})"


def is_loopback(host: str) -> bool:
    """`host` is this machine alone: `localhost`, a literal IPv4 address in 127.0.0.0/8, or
    `::1` (with or without brackets). A name that merely starts with 127. may resolve anywhere."""
    name = host.strip().lower()
    if name.startswith("[") and name.endswith("]"):
        name = name[1:-1]
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


def own_origins(host: str, port: int) -> frozenset[str]:
    """The Origin values of pages served by this server itself (any loopback name when it
    listens on loopback)."""
    hosts: Iterable[str] = (host, *LOOPBACK_NAMES) if is_loopback(host) else (host,)
    return frozenset(
        f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}" for name in hosts
    )


def own_host_names(host: str) -> frozenset[str] | None:
    """The Host names a server listening on `host` answers to; None: any (not loopback)."""
    if not is_loopback(host):
        return None
    return frozenset(name.lower() for name in (host.strip("[]"), *LOOPBACK_NAMES))


def host_name(header: str) -> str:
    """The name in a Host header, without its port or IPv6 brackets, lower case."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1 : header.find("]")] if "]" in header else header
    return header.partition(":")[0]


class Guard:
    """ASGI middleware: 403 for another Host or a foreign Origin, 401 without the right bearer
    token; WebSocket connections closed before they open."""

    def __init__(
        self,
        app: ASGIApp,
        *,
        token: str,
        origins: frozenset[str],
        hosts: frozenset[str] | None = None,
        max_body_bytes: int | None = None,
    ) -> None:
        self.app = app
        self._token = token.encode()
        self._origins = origins
        self._hosts = hosts
        self._max_body_bytes = max_body_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})  # policy violation
            return
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        refusal = self._refusal(headers)
        if refusal is not None:
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _refusal(self, headers: dict[bytes, bytes]) -> JSONResponse | None:
        if self._hosts is not None:
            name = host_name(headers.get(b"host", b"").decode("latin-1"))
            if name not in self._hosts:
                return JSONResponse(
                    {
                        "error": f"requests for the host {name or '(none)'!r} are refused: "
                        "this server answers to localhost, 127.0.0.1 and [::1]"
                    },
                    status_code=403,
                )
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") not in self._origins:
            return JSONResponse(
                {"error": "requests from another site's page are refused"}, status_code=403
            )
        if not self._authorized(headers.get(b"authorization", b"")):
            return JSONResponse(
                {"error": "a valid token is needed: send the header 'Authorization: Bearer TOKEN'"},
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
        declared = headers.get(b"content-length", b"")
        limit = self._max_body_bytes
        if limit is not None and declared.isdigit() and int(declared) > limit:
            return JSONResponse({"error": too_large(limit)}, status_code=413)
        return None

    def _authorized(self, header: bytes) -> bool:
        scheme, _, given = header.partition(b" ")
        if scheme.lower() != b"bearer":
            return False
        return hmac.compare_digest(given.strip(), self._token)
