"""One event of the server's log, serialised once, with what merging its deltas needs.

An entry is read by every SSE client: its JSON is made when it is logged, not per client.
A text or thinking delta also keeps its piece (kind, iteration, text, time) so deltas can be
merged and stored compactly without parsing the JSON again.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from agentui.core.protocol.events import Event, TextDelta, ThinkingDelta, parse_event
from agentui.core.support.utf8 import model_json

# Entries and pieces are made by the hundred thousand: not frozen (a frozen dataclass is
# much slower to make); nothing changes them once made.


@dataclass(slots=True)
class DeltaPiece:
    """A text or thinking delta's own part."""

    type: str
    iteration: int
    text: str
    ts: float


class Logged(Protocol):
    """An event as the log gives it to readers: an entry as logged, or a piece of a run of
    deltas stored compactly (delta_runs.py), which reads the same."""

    @property
    def seq(self) -> int: ...

    @property
    def type(self) -> str: ...

    @property
    def agent_id(self) -> str: ...

    @property
    def delta(self) -> DeltaPiece | None: ...

    @property
    def json(self) -> str: ...

    def json_with_delta(self, text: str) -> str:
        """This delta's JSON with `text` as its delta (what a merged delta is sent as)."""
        ...


@dataclass(slots=True)
class LogEntry:
    seq: int
    type: str
    agent_id: str
    json: str  # the event as `parse_event` reads it back
    delta: DeltaPiece | None = None  # set for text:delta and thinking:delta

    @classmethod
    def of(cls, event: Event) -> LogEntry:
        delta = None
        if isinstance(event, TextDelta | ThinkingDelta):
            delta = DeltaPiece(event.type, event.iteration, event.delta, event.ts)
        return cls(event.seq, event.type, event.agent_id, model_json(event), delta)

    def json_with_delta(self, text: str) -> str:
        return model_json(parse_event(self.json).model_copy(update={"delta": text}))


def delta_groups(entries: Sequence[Logged]) -> list[list[int]]:
    """The positions in `entries`, grouped as their deltas merge: each agent's run of
    consecutive deltas of one kind and iteration (nothing else of that agent between them) is
    one group, any other entry a group of its own; in the order the groups closed."""
    groups: list[list[int]] = []
    open_runs: dict[str, list[int]] = {}  # agent -> its delta run that may still grow
    for position, entry in enumerate(entries):
        run = open_runs.get(entry.agent_id)
        delta = entry.delta
        if delta is not None:
            if run is not None:
                first = entries[run[0]].delta
                assert first is not None
                if first.type == delta.type and first.iteration == delta.iteration:
                    run.append(position)
                    continue
                groups.append(run)
            open_runs[entry.agent_id] = [position]
        else:
            if run is not None:
                groups.append(open_runs.pop(entry.agent_id))
            groups.append([position])
    groups.extend(open_runs.values())
    return groups
