"""Who may talk to `agentui serve`: the bearer token (its 0600 file, compared in constant time)
and the browser Origin check.

Every request needs `Authorization: Bearer <token>`. A request that carries an `Origin` other
than the server's own is refused whatever its token: a web page the person happens to open
must not drive their agents (browsers send Origin on cross-site requests; other clients send
none).
"""

from __future__ import annotations

import hmac
import ipaddress
import os
import secrets
from collections.abc import Iterable
from pathlib import Path

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from ..errors import AgentUIError
from ..paths import state_dir

LOOPBACK_NAMES = ("127.0.0.1", "localhost", "::1")  # how a page on this machine may name it


def is_loopback(host: str) -> bool:
    """`host` is this machine alone (localhost, 127.x.x.x, ::1)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a name: it may resolve anywhere


def default_token_path() -> Path:
    """Where `agentui serve` writes its token unless `--token-file` says otherwise."""
    return state_dir() / "serve" / "token"


def read_token_file(path: Path) -> str:
    """The token in `path`; AgentUIError naming the file when it is missing or empty."""
    try:
        token = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        raise AgentUIError(
            f"no token file {path}: is `agentui serve` running? (or give the token in "
            "AGENTUI_TOKEN)"
        ) from None
    except OSError as exc:
        raise AgentUIError(f"cannot read the token file {path}: {exc.strerror or exc}") from None
    if not token:
        raise AgentUIError(f"the token file {path} is empty")
    return token


def write_token_file(path: Path, token: str) -> None:
    """Write `token` readable by its owner alone (0600), also over an existing file."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(descriptor, "w", encoding="utf-8") as file:
            os.fchmod(file.fileno(), 0o600)  # a file that existed keeps its old mode otherwise
            file.write(token + "\n")
    except OSError as exc:
        raise AgentUIError(f"cannot write the token file {path}: {exc.strerror or exc}") from None


def server_token(token_file: Path | None) -> tuple[str, Path]:
    """The token this server accepts and the file that holds it: read from `token_file` when
    that exists, else new and written there (default: `default_token_path()`)."""
    if token_file is not None and token_file.exists():
        return read_token_file(token_file), token_file
    path = token_file if token_file is not None else default_token_path()
    token = secrets.token_urlsafe(32)
    write_token_file(path, token)
    return token, path


def own_origins(host: str, port: int) -> frozenset[str]:
    """The Origin values of pages served by this server itself (any loopback name when it
    listens on loopback)."""
    hosts: Iterable[str] = (host, *LOOPBACK_NAMES) if is_loopback(host) else (host,)
    return frozenset(
        f"http://[{name}]:{port}" if ":" in name else f"http://{name}:{port}" for name in hosts
    )


class Guard:
    """ASGI middleware: 403 for a foreign Origin, 401 without the right bearer token."""

    def __init__(self, app: ASGIApp, *, token: str, origins: frozenset[str]) -> None:
        self.app = app
        self._token = token.encode()
        self._origins = origins

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = dict(scope["headers"])
        origin = headers.get(b"origin")
        if origin is not None and origin.decode("latin-1") not in self._origins:
            refusal = JSONResponse(
                {"error": "requests from another site's page are refused"}, status_code=403
            )
            await refusal(scope, receive, send)
            return
        if not self._authorized(headers.get(b"authorization", b"")):
            refusal = JSONResponse(
                {"error": "a valid token is needed: send the header 'Authorization: Bearer TOKEN'"},
                status_code=401,
                headers={"WWW-Authenticate": "Bearer"},
            )
            await refusal(scope, receive, send)
            return
        await self.app(scope, receive, send)

    def _authorized(self, header: bytes) -> bool:
        scheme, _, given = header.partition(b" ")
        if scheme.lower() != b"bearer":
            return False
        return hmac.compare_digest(given.strip(), self._token)
