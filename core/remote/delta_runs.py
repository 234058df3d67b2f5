"""The log's older deltas, stored compactly and given back exactly.

A long-lived server logs every delta of every agent: as a LogEntry, a five-character delta
costs about 280 bytes. Older than the last few thousand entries, a run of one agent's deltas
(same kind and iteration, nothing else of that agent between them, as the bus and the session
writer merge them) is kept as one DeltaRun: the run's text once, and per piece its seq, time
and where its text ends, about 20 bytes. Each piece still reads back as the event it was
(`RunPiece`), so every SSE id ever sent still resumes exactly: a client that saw half of a run
gets the other half, every character once.

    for positions in runs_in(entries):   # the runs worth storing so
        run = DeltaRun([entries[position] for position in positions])
"""

from __future__ import annotations

from array import array
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass

from agentui.core.protocol.events import parse_event
from agentui.core.remote.log_entry import DeltaPiece, LogEntry, delta_groups
from agentui.core.support.utf8 import model_json

SHORTEST_RUN = 4  # a shorter run would cost more as a DeltaRun than as its entries


class DeltaRun:
    """One agent's consecutive deltas of one kind and iteration, without an object each."""

    __slots__ = ("_ends", "_stamps", "_template", "_text", "agent_id", "iteration", "seqs", "type")

    def __init__(self, pieces: Sequence[LogEntry]) -> None:
        first = pieces[0]
        assert first.delta is not None
        self.agent_id = first.agent_id
        self.type = first.type
        self.iteration = first.delta.iteration
        self._template = first.json  # every field but seq, ts and delta is the same in each
        self.seqs = array("q", [piece.seq for piece in pieces])
        self._stamps = array("d", [piece.delta.ts for piece in pieces])  # type: ignore[union-attr]  # a run is deltas
        texts = [piece.delta.text for piece in pieces]  # type: ignore[union-attr]  # a run is deltas
        self._text = "".join(texts)
        ends = array("I" if len(self._text) < 1 << 32 else "Q")  # 4 bytes each, nearly always
        end = 0
        for text in texts:
            end += len(text)
            ends.append(end)
        self._ends = ends

    def __len__(self) -> int:
        return len(self.seqs)

    def bytes_estimate(self) -> int:
        """About what the run takes in memory (its text, template and per-piece arrays)."""
        return 200 + len(self._text) + len(self._template) + 20 * len(self.seqs)

    def index_of(self, seq: int) -> int:
        return bisect_left(self.seqs, seq)

    def piece(self, index: int) -> RunPiece:
        start = self._ends[index - 1] if index else 0
        text = self._text[start : self._ends[index]]
        delta = DeltaPiece(self.type, self.iteration, text, self._stamps[index])
        return RunPiece(self.seqs[index], self, index, delta)

    def render(self, index: int, text: str) -> str:
        """The JSON of piece `index`'s event, with `text` as its delta."""
        update = {"seq": self.seqs[index], "ts": self._stamps[index], "delta": text}
        return model_json(parse_event(self._template).model_copy(update=update))


@dataclass(slots=True)  # not frozen, as LogEntry
class RunPiece:
    """A delta of a DeltaRun, read back as the entry it was logged as."""

    seq: int
    run: DeltaRun
    index: int
    delta: DeltaPiece

    @property
    def type(self) -> str:
        return self.run.type

    @property
    def agent_id(self) -> str:
        return self.run.agent_id

    @property
    def json(self) -> str:
        return self.run.render(self.index, self.delta.text)

    def json_with_delta(self, text: str) -> str:
        return self.run.render(self.index, text)


def runs_in(entries: Sequence[LogEntry]) -> list[list[int]]:
    """The positions in `entries` of each run of one agent's deltas worth a DeltaRun."""
    # Any other entry is a group of one, shorter than SHORTEST_RUN.
    return [group for group in delta_groups(entries) if len(group) >= SHORTEST_RUN]
