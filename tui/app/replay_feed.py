"""Plays recorded events back at their recorded pace (or faster), for `agentui replay`."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentui.core.protocol.events import Event

# A long silence in the recording (the person away) is shortened to this when replayed.
MAX_GAP_S = 2.0


class ReplayFeed:
    """Drained by the app's flush timer exactly like a live subscription."""

    def __init__(
        self, events: Sequence[Event], speed: float = 1.0, start_seq: int | None = None
    ) -> None:
        if speed <= 0:
            raise ValueError("speed must be more than 0")
        # Events before `start_seq` (a search's match) are shown at once: the play starts there.
        at = 0
        if start_seq is not None:
            at = next((i for i, e in enumerate(events) if e.seq >= start_seq), len(events))
        self._ready: list[Event] = list(events[:at])
        self._events = list(events[at:])
        # The agent whose event the play starts at: the screen selects it.
        self.start_agent = self._events[0].agent_id if start_seq and self._events else None
        self._speed = speed
        self.done = False

    def drain(self) -> list[Event]:
        ready, self._ready = self._ready, []
        return ready

    async def play(self) -> None:
        import anyio  # not at import: the app's first frame loads this module, not anyio

        previous: float | None = None
        for event in self._events:
            if previous is not None:
                gap = min(max(event.ts - previous, 0.0), MAX_GAP_S) / self._speed
                if gap > 0:
                    await anyio.sleep(gap)
            previous = event.ts
            self._ready.append(event)
        self.done = True
