"""Waiting until an app has settled, by looking at what it still has to do rather than by
sleeping until it seems idle.

Textual's `Pilot.pause()` sleeps in 20 ms slices until one passes with next to no CPU used: at
least 20 ms a wait, and nothing guarantees the work it waits for is done. Here the wait ends
when nothing is ready to run, the screen has been refreshed with what waited on the refresh,
no animation runs, and no one-shot timer is due soon (a resize reaches the screen through
such a timer, 1/120 s after the event). What waits on a thread, a child process or a longer
timer has not happened: a test waiting for that says so with `settle(pilot, condition)`."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

from textual._wait import wait_for_idle
from textual.app import App
from textual.pilot import Pilot

from .ready_work import until_nothing_is_ready

# Refreshes in a row (one refresh's callbacks may ask for another).
MOST_REFRESHES = 5
# One-shot timers due within this are waited for; longer ones (a notice's life) are not.
SOON_S = 0.05
# Rounds of timers firing work that sets more timers, before Textual's idle wait takes over.
MOST_ROUNDS = 20


async def handled(app: App[Any]) -> None:
    """What is ready has run, and the screen's refresh with what waited on it (as
    Pilot.pause refreshes)."""
    await until_nothing_is_ready()
    for _ in range(MOST_REFRESHES):
        app.screen._on_timer_update()
        await until_nothing_is_ready()
        if not app.screen._callbacks:
            return


def _timers_due_soon(app: App[Any]) -> Iterator[asyncio.Task[None]]:
    nodes = [app, *(n for screen in app.screen_stack for n in screen.walk_children(with_self=True))]
    for node in nodes:
        for timer in list(node._timers):
            task = timer._task
            if (
                timer._repeat == 0
                and timer._interval <= SOON_S
                and task is not None
                and not task.done()
                and timer._active.is_set()
            ):
                yield task


async def settled(pilot: Pilot[Any]) -> None:
    app = pilot.app
    for _ in range(MOST_ROUNDS):
        await pilot._wait_for_screen()
        await handled(app)
        if not app.animator._complete_event.is_set():
            await app.animator.wait_until_complete()
            continue
        due = list(_timers_due_soon(app))
        if not due:
            return
        # Bounded: a timer paused after it was seen would never end.
        await asyncio.wait(due, timeout=SOON_S * 4)
    await wait_for_idle(0)
