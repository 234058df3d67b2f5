"""Letting an app run what is ready to run, without sleeping: the loop is turned until no
callback waits but the caller's. What waits on a timer, a thread or a child process is not
ready and is not waited for; the callers say what they wait for besides."""

from __future__ import annotations

import asyncio

from textual._wait import wait_for_idle

# A bound on the turns, against a handler that re-schedules itself for ever (a spinner). The
# most any test took was about a hundred; past the bound, Textual's idle wait takes over.
MOST_TURNS = 400


async def until_nothing_is_ready() -> None:
    """Turn the loop until no callback waits to run but this one."""
    ready = asyncio.get_running_loop()._ready  # type: ignore[attr-defined]
    for _ in range(MOST_TURNS):
        await asyncio.sleep(0)
        if not ready:
            return
    await wait_for_idle(0)
