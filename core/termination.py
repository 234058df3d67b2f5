"""SIGTERM and SIGHUP (a closed terminal) end agentui in order, as Ctrl+C (SIGINT) does.

A second termination signal does not wait for the orderly end (it may be stuck on a terminal
that is gone): every sandbox's tree is killed and the process exits at once.

By default they do exactly what SIGINT does: inside `anyio.run` / `asyncio.run` the main task
is cancelled, so the runtime cancels its agents, each python tool kills its process tree, and
the session records the ends; outside, KeyboardInterrupt. A front end with its own way out
(the app's exit) passes it as `stop`, called on the event loop. Either way, every sandbox's
tree is killed at once first: the orderly way may be slow, or fail on a terminal that is gone.
"""

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Callable
from types import FrameType

from .process_guard import stop_every_sandbox

TERMINATION_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def end_on_termination_signals(
    stop: Callable[[], object] | None = None, *, on_hangup: Callable[[], object] | None = None
) -> None:
    """Install the handlers (from the main thread, before the event loop starts).

    `on_hangup`, if given, replaces `stop` for SIGHUP: with the terminal gone, a front end
    may have a quicker way out than the one that tidies the screen.
    """

    received = 0

    def handle(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received += 1
        stop_every_sandbox()
        if received > 1:
            os._exit(128 + signum)  # asked twice: no more waiting for an orderly end
        chosen = on_hangup if signum == signal.SIGHUP and on_hangup is not None else stop
        if chosen is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not started yet, or already gone
                raise KeyboardInterrupt from None
            loop.call_soon_threadsafe(chosen)
            return
        signal.raise_signal(signal.SIGINT)

    for signum in TERMINATION_SIGNALS:
        signal.signal(signum, handle)
