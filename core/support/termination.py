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
import sys
from collections.abc import Callable
from types import FrameType

TERMINATION_SIGNALS = (signal.SIGTERM, signal.SIGHUP)
_received: list[int] = []  # the signals handled, first first


def termination_received() -> int | None:
    """The first termination signal handled, if any: a run it raced (its agents ended on
    their own in the moment the signal was handled) still ends as interrupted."""
    return _received[0] if _received else None


def end_on_termination_signals(
    stop: Callable[[], object] | None = None,
    *,
    exit_on_hangup: bool = False,
    signals: tuple[signal.Signals, ...] = TERMINATION_SIGNALS,
) -> None:
    """Install the handlers (from the main thread, before the event loop starts).

    With `exit_on_hangup`, SIGHUP (the terminal is gone) exits at once once the sandboxes
    are killed: a full-screen front end restoring a terminal that no longer exists can block
    for ever (Textual's writer queue can). The session loses at most what its writer had not
    flushed yet, as with kill -9, and is resumed as any interrupted session is.
    """

    received = 0

    def handle(signum: int, frame: FrameType | None) -> None:
        nonlocal received
        received += 1
        _received.append(signum)
        stop_running_sandboxes()
        if received > 1 or (exit_on_hangup and signum == signal.SIGHUP):
            os._exit(128 + signum)  # asked twice, or nowhere left to show anything
        if stop is not None:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:  # not started yet, or already gone
                raise KeyboardInterrupt from None
            loop.call_soon_threadsafe(stop)
            return
        signal.raise_signal(signal.SIGINT)

    for signum in signals:
        signal.signal(signum, handle)


def stop_running_sandboxes() -> None:
    """Kill every sandbox that runs. The guard is looked up, not imported: a sandbox registers
    there, so with its module not loaded none runs, and a command's start does not pay for it
    (ctypes) before its first frame."""
    guard = sys.modules.get("agentui.core.support.process_guard")
    if guard is not None:
        guard.stop_every_sandbox()
