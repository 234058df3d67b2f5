"""Short garbage-collector pauses however many agents the run holds.

CPython's full collection walks every tracked object: with 5,000 live agents (~700k objects)
one pause took 0.6-1.5 s on a 2-core machine, and they came every few seconds. Almost all of
those objects are the run's state, alive until the run ends, so walking them again finds
nothing. `gc.freeze()` moves every object alive now out of the collector's way (freed by
reference counting as ever; only a cycle among them would wait for the unfreeze at exit).

Frozen: after a burst (many agents added, or a resumed session's history folded at once), and
after any full collection slow enough to show that the unfrozen heap has grown large. Small
runs stay below that and never freeze anything.

Streaming allocates and frees a great deal (events, pieces of text, frames); glibc keeps what
was freed for later instead of giving it back, so the process stays at its high-water mark:
4 M characters over 100 agents left ~14 MiB free in the heap. Once a second, after enough
events, `malloc_trim` hands free pages back to the system (a few milliseconds at most).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import gc
import time
from collections.abc import Callable

# A full collection slower than this means the heap is mostly long-lived state: freeze it.
SLOW_FULL_COLLECTION_S = 0.005
BURST = 100  # agents added at once, or thousands of events folded at once
# A full collection after 3 young-generation ones, not 10: it meets fewer new objects each
# time (~20k instead of ~70k), which bounds the pause before a freeze.
THRESHOLDS = (700, 10, 3)
TRIM_AFTER_EVENTS = 20_000  # folded since the last trim


def _find_malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library has none (macOS, musl)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        return getattr(ctypes.CDLL(name), "malloc_trim", None)
    except OSError:
        return None


class CollectorPolicy:
    """Installed while the app runs; `close()` gives every frozen object back."""

    def __init__(self, malloc_trim: Callable[[int], int] | None = None) -> None:
        self._started = 0.0
        self.freezes = 0
        self._installed = False
        self._thresholds = gc.get_threshold()
        self._malloc_trim = malloc_trim if malloc_trim is not None else _find_malloc_trim()
        self._events_since_trim = 0
        self.trims = 0

    def install(self) -> None:
        if not self._installed:
            self._thresholds = gc.get_threshold()
            gc.set_threshold(*THRESHOLDS)
            gc.callbacks.append(self._observe)
            self._installed = True

    def close(self) -> None:
        if self._installed:
            gc.callbacks.remove(self._observe)
            gc.set_threshold(*self._thresholds)
            self._installed = False
            gc.unfreeze()  # back in the oldest generation: collected if they are garbage now

    def after_batch(self, agents_added: int, events: int) -> None:
        """A flush applied this batch: a burst's objects are frozen at once, before the
        collector meets them in a long pause."""
        if agents_added >= BURST or events >= BURST * 100:
            self.freeze()
        self._events_since_trim += events

    def every_second(self) -> None:
        """Give the memory freed since the last time back to the system, after enough events
        to have freed some."""
        if self._malloc_trim is not None and self._events_since_trim >= TRIM_AFTER_EVENTS:
            self._events_since_trim = 0
            self._malloc_trim(0)
            self.trims += 1

    def freeze(self) -> None:
        gc.freeze()
        self.freezes += 1

    def _observe(self, phase: str, info: dict[str, int]) -> None:
        if info["generation"] != 2:
            return
        if phase == "start":
            self._started = time.perf_counter()
        elif time.perf_counter() - self._started > SLOW_FULL_COLLECTION_S:
            # Everything that survived this collection is the run's state.
            gc.freeze()
            self.freezes += 1
