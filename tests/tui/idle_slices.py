"""Textual's idle wait in short slices, for waits whose end is decided by something else.

`wait_for_idle` sleeps in 20 ms slices until one passes with next to no CPU used: a settled
app costs a whole slice per wait, and a test that checks a condition after each wait spends
most of its time asleep. Where the caller checks what it waits for itself (keys pressed one
after another, `settle`'s condition), a 2 ms slice is as safe and ten times quicker."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from textual import _wait as textual_wait
from textual.pilot import Pilot

SHORT_SLICE_S = 0.002


@contextmanager
def short_idle_slices() -> Iterator[None]:
    usual = textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE
    textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE = SHORT_SLICE_S, SHORT_SLICE_S / 20
    try:
        yield
    finally:
        textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE = usual


async def idle_slice(pilot: Pilot[Any]) -> None:
    """What Textual's `Pilot.pause()` does (the tests' own waits until the app has settled,
    tests/tui/conftest.py): the screen's queue, an idle wait, the screen's refresh. Inside
    `short_idle_slices` the wait is a 2 ms slice: a test waiting for a thread or a child process
    sleeps meanwhile instead of turning the loop (which took the CPU from what it waited for)."""
    await pilot._wait_for_screen()
    await textual_wait.wait_for_idle(0)
    pilot.app.screen._on_timer_update()
