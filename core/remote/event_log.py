"""The server's one ordered log of a runtime's events, each serialised once, that every SSE
client reads with its own cursor.

The log follows a lossless subscription (every delta as emitted) in a service of the runtime,
so publishing never waits on a client: an agent's event costs one JSON serialisation however
many clients there are, and a slow client only reads further behind. A resumed session's log
starts with the saved history (the seqs of its file), so a viewer sees the whole run.

    log = EventLog(history=plan.history)
    log.attach(runtime)              # inside `async with runtime`
    start = log.position_after(since)
    end = await log.wait_beyond(start)   # 0 new entries: the runtime has ended
    for entry in log.entries(start, end): ...
"""

from __future__ import annotations

import bisect
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

import anyio

from ..events import Event, Subscription, TextDelta, ThinkingDelta
from ..utf8 import model_json

if TYPE_CHECKING:
    from ..runtime import Runtime


@dataclass(frozen=True, slots=True)
class DeltaPiece:
    """What merging needs of a text or thinking delta, without parsing its JSON again."""

    type: str
    iteration: int
    text: str


@dataclass(frozen=True, slots=True)
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
            delta = DeltaPiece(event.type, event.iteration, event.delta)
        return cls(event.seq, event.type, event.agent_id, model_json(event), delta)


class EventLog:
    def __init__(self, history: Iterable[Event] = ()) -> None:
        self._entries: list[LogEntry] = [LogEntry.of(event) for event in history]
        self._seqs: list[int] = [entry.seq for entry in self._entries]  # for bisect
        self._subscription: Subscription | None = None
        self._grown: anyio.Event | None = None  # made when someone waits: it needs the loop
        self.closed = False

    def attach(self, runtime: Runtime) -> None:
        """Log `runtime`'s events from now on (call it inside `async with runtime`); the log
        closes when the runtime shuts down."""
        self._subscription = runtime.subscribe(maxsize=None)
        runtime.run_service(self._follow, name="event log")

    async def _follow(self) -> None:
        assert self._subscription is not None
        try:
            while batch := await self._subscription.next_batch():
                self._append(batch)
        finally:
            # The shutdown cancels this service right after the bus closes: what the bus
            # still holds (the agents' last events) is logged all the same.
            self._append(self._subscription.drain())
            self.close()

    def catch_up(self) -> None:
        """Take in what the runtime has published but the service has not read yet, so the
        log's end is the runtime's present (before a command whose events must follow)."""
        if self._subscription is not None:
            self._append(self._subscription.drain())

    def _append(self, events: Sequence[Event]) -> None:
        if not events:
            return
        for event in events:
            entry = LogEntry.of(event)
            self._entries.append(entry)
            self._seqs.append(entry.seq)
        self._wake()

    def close(self) -> None:
        """No more events will come: readers finish what is logged and end."""
        self.closed = True
        if self._subscription is not None:
            self._subscription.close()
        self._wake()

    def _wake(self) -> None:
        if self._grown is not None:
            self._grown.set()
            self._grown = None

    # -- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def last_seq(self) -> int:
        return self._seqs[-1] if self._seqs else 0

    def position_after(self, seq: int) -> int:
        """The position of the first entry whose seq is above `seq`."""
        return bisect.bisect_right(self._seqs, seq)

    def entries(self, start: int, end: int) -> list[LogEntry]:
        return self._entries[start:end]

    async def wait_beyond(self, position: int) -> int:
        """Wait until the log holds entries past `position` (or has closed); its length."""
        while len(self._entries) <= position and not self.closed:
            if self._grown is None:
                self._grown = anyio.Event()
            await self._grown.wait()
        return len(self._entries)
