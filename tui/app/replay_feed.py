"""Plays recorded events back at their recorded pace (or faster), for `agentui replay`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

import anyio

if TYPE_CHECKING:
    from agentui.core.protocol.events import Event

# A long silence in the recording (the person away) is shortened to this when replayed.
MAX_GAP_S = 2.0


class ReplayFeed:
    """Drained by the app's flush timer exactly like a live subscription."""

    def __init__(self, events: Sequence[Event], speed: float = 1.0) -> None:
        if speed <= 0:
            raise ValueError("speed must be more than 0")
        self._events = list(events)
        self._speed = speed
        self._ready: list[Event] = []
        self.done = False

    def drain(self) -> list[Event]:
        ready, self._ready = self._ready, []
        return ready

    async def play(self) -> None:
        previous: float | None = None
        for event in self._events:
            if previous is not None:
                gap = min(max(event.ts - previous, 0.0), MAX_GAP_S) / self._speed
                if gap > 0:
                    await anyio.sleep(gap)
            previous = event.ts
            self._ready.append(event)
        self.done = True
