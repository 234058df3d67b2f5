"""SIGTERM and SIGHUP (a closed terminal) end agentui in order, as Ctrl+C (SIGINT) does.

By default they do exactly what SIGINT does: inside `anyio.run` / `asyncio.run` the main task
is cancelled, so the runtime cancels its agents, each python tool kills its process tree, and
the session records the ends; outside, KeyboardInterrupt. A front end with its own way out
(the app's exit) passes it as `stop`, called on the event loop. Either way, every sandbox's
tree is killed at once first: the orderly way may be slow, or fail on a terminal that is gone.
"""

from __future__ import annotations

import asyncio
import signal
from collections.abc import Callable
from types import FrameType

from .process_guard import stop_every_sandbox

TERMINATION_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def end_on_termination_signals(stop: Callable[[], object] | None = None) -> None:
    """Install the handlers (from the main thread, before the event loop starts)."""

    def handle(signum: int, frame: FrameType | None) -> None:
        stop_every_sandbox()
        if stop is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not started yet, or already gone
                raise KeyboardInterrupt from None
            loop.call_soon_threadsafe(stop)
            return
        signal.raise_signal(signal.SIGINT)

    for signum in TERMINATION_SIGNALS:
        signal.signal(signum, handle)
