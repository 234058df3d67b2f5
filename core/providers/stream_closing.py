"""Closing a network provider's HTTP stream when its reader stops, even while cancelled."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager

import anyio


@asynccontextmanager
async def closed_at_exit(close: Callable[[], Awaitable[object]]) -> AsyncIterator[None]:
    """Run the block, then `close()` the stream however the block ended (done, failed, or
    the loop closing the provider's stream early on cancel, delete or pause).

    The close is shielded: closing while being cancelled must not itself be cancelled
    half-way, or the server would not see the disconnect until the socket is collected.
    """
    try:
        yield
    finally:
        with anyio.CancelScope(shield=True):
            await close()
