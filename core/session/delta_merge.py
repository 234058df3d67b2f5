"""Consecutive text or thinking deltas of one agent's block, merged into one event.

The session writer merges what it writes, the way a coalescing subscription merges what it
queues (see events.py): a delta joins the agent's newest pending event when that is a delta of
the same kind and iteration, and the merged event keeps the `seq` and `ts` of its first piece.
Nothing else of that agent comes between the pieces, so each agent's order is kept; other
agents' events may, as they do on screen.

    merge = DeltaMerge()
    for event in batch:
        merge.add(event)
    lines = [model_json(event) for event in merge.take()]
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from agentui.core.protocol.events import Event, TextDelta, ThinkingDelta

_DELTAS = (TextDelta, ThinkingDelta)  # a tuple: checked for every event written
T = TypeVar("T")


class DeltaMerge(Generic[T]):
    """Events in order, with each agent's consecutive deltas merged; other items pass through.

    `add_other` takes anything else that belongs in the same order (the writer's record lines):
    it ends no agent's block, since it is not an event of any agent.
    """

    def __init__(self) -> None:
        self._items: list[Event | T] = []
        self._open: dict[str, int] = {}  # agent -> index of its delta that may still grow
        self._pieces: dict[int, list[str]] = {}  # index of a delta -> the pieces merged into it

    def __len__(self) -> int:
        return len(self._items)

    def add(self, event: Event) -> None:
        items = self._items
        if isinstance(event, _DELTAS):
            index = self._open.get(event.agent_id)
            if index is not None:
                first = items[index]
                assert isinstance(first, _DELTAS)
                if first.type == event.type and first.iteration == event.iteration:
                    self._pieces[index].append(event.delta)
                    return
            self._open[event.agent_id] = len(items)
            self._pieces[len(items)] = [event.delta]
        else:
            self._open.pop(event.agent_id, None)
        items.append(event)

    def add_other(self, item: T) -> None:
        self._items.append(item)

    def take(self) -> list[Event | T]:
        """Everything added since the last take, merged; the next piece starts a new event."""
        items = self._items
        for index, pieces in self._pieces.items():
            if len(pieces) > 1:
                first = items[index]
                assert isinstance(first, _DELTAS)
                items[index] = first.model_copy(update={"delta": "".join(pieces)})
        self._items, self._open, self._pieces = [], {}, {}
        return items


def merge_deltas(events: Iterable[Event]) -> list[Event]:
    """`events` as the session writer writes them when they all land in one flush."""
    merge: DeltaMerge[Event] = DeltaMerge()
    for event in events:
        merge.add(event)
    return merge.take()
