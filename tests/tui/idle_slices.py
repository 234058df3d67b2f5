"""Textual's idle wait in short slices, for waits whose end is decided by something else.

`wait_for_idle` sleeps in 20 ms slices until one passes with next to no CPU used: a settled
app costs a whole slice per wait, and a test that checks a condition after each wait spends
most of its time asleep. Where the caller checks what it waits for itself (keys pressed one
after another, `settle`'s condition), a 2 ms slice is as safe and ten times quicker."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

from textual import _wait as textual_wait

SHORT_SLICE_S = 0.002


@contextmanager
def short_idle_slices() -> Iterator[None]:
    usual = textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE
    textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE = SHORT_SLICE_S, SHORT_SLICE_S / 20
    try:
        yield
    finally:
        textual_wait.SLEEP_GRANULARITY, textual_wait.SLEEP_IDLE = usual
