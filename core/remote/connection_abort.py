"""Ending one client's connection at once: its socket reset, what was queued for it dropped.

When a response ends unfinished, uvicorn calls asyncio's `transport.close()`, which waits to
flush what is buffered, and the kernel goes on trying to deliver its own send queue: a client
that stopped reading kept its connection ESTABLISHED with megabytes queued after the server
had given it up. So uvicorn's HTTP/1.1 protocol gets one addition here: each request's scope
carries a way to abort its connection, in `scope["state"]` (the per-request dict uvicorn
copies from the protocol's `app_state`). Aborting resets the connection (SO_LINGER 0: an RST,
the send queue discarded) and waits until uvicorn has seen the connection go, so that uvicorn
takes the unfinished response for a client that left and logs nothing.

    config = uvicorn.Config(app, http=AbortableH11Protocol, ...)
    ...
    aborted = await abort_connection(scope)   # False: not served by that protocol
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import struct
from collections.abc import Awaitable, Callable
from typing import Any

from starlette.types import Scope
from uvicorn.protocols.http.h11_impl import H11Protocol

_ABORT = "agentui.abort_connection"
_NO_LINGER = struct.pack("ii", 1, 0)  # struct linger {l_onoff = 1, l_linger = 0}: close resets


class AbortableH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, whose requests can abort their connection."""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._lost = asyncio.Event()
        self.app_state = {**self.app_state, _ABORT: self._abort}

    def connection_lost(self, exc: Exception | None) -> None:
        super().connection_lost(exc)
        self._lost.set()

    async def _abort(self) -> None:
        sock = self.transport.get_extra_info("socket")
        if sock is not None:
            # Closed meanwhile: the abort below is all there is to do.
            with contextlib.suppress(OSError):
                sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, _NO_LINGER)
        self.transport.abort()
        await self._lost.wait()  # connection_lost runs on the loop's next turn


async def abort_connection(scope: Scope) -> bool:
    """Reset the connection `scope` came on; False when its server cannot (not uvicorn with
    AbortableH11Protocol): then the server closes it as it does."""
    state: dict[str, Any] = scope.get("state") or {}
    abort: Callable[[], Awaitable[None]] | None = state.get(_ABORT)
    if abort is None:
        return False
    await abort()
    return True
