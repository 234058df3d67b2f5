"""Short garbage-collector pauses however many agents the run holds.

CPython's full collection walks every tracked object: thousands of live agents make so many
that each pause is long enough to be felt, and the pauses come often. Almost all of
those objects are the run's state, alive until the run ends, so walking them again finds
nothing. `gc.freeze()` moves every object alive now out of the collector's way (freed by
reference counting as ever; only a cycle among them would wait for the unfreeze at exit).

Frozen: what start-up made (the `agentui` executable starts with the collector off, see
launch.py), after a burst (many agents added, or a resumed session's history folded at once),
and after any full collection slow enough to show that the unfrozen heap has grown large.
"""

from __future__ import annotations

import gc
import time

# A full collection slower than this means the heap is mostly long-lived state: freeze it.
SLOW_FULL_COLLECTION_S = 0.005
BURST = 100  # agents added at once, or thousands of events folded at once
# A full collection after 3 young-generation ones, not 10: it meets fewer new objects each
# time, which bounds the pause before a freeze.
THRESHOLDS = (700, 10, 3)
# Off in a process that runs many apps one after another (the test suite freezes its own heap):
# a policy's close unfreezes the whole process's heap, not only what its app froze (there is no
# partial unfreeze), and every full collection of the next app would walk all of it again.
POLICY_ON = True


def start_collecting() -> None:
    """Start-up is over: its objects (modules, classes, widgets) live as long as the process,
    so they are frozen rather than walked by every full collection from now on. Frozen without
    a collection first: that would hold the loop just as the person starts typing, to free
    the few objects in cycles start-up left (kept until `close()`). Nothing
    happens if the collector was already on (the app run by tests, or a second call)."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()


class CollectorPolicy:
    """Installed while the app runs; `close()` gives every frozen object back."""

    def __init__(self) -> None:
        self._started = 0.0
        self.freezes = 0
        self._installed = False
        self._thresholds = gc.get_threshold()

    def install(self) -> None:
        if POLICY_ON and not self._installed:
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

    def freeze(self) -> None:
        if POLICY_ON:
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
