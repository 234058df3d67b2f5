"""The server's one ordered log of a runtime's events, each serialised once, that every SSE
client reads with its own cursor.

The log follows a lossless subscription (every delta as emitted) in a service of the runtime,
so publishing never waits on a client: an agent's event costs one JSON serialisation however
many clients there are, and a slow client only reads further behind. A resumed session's log
starts with the saved history (the seqs of its file), so a viewer sees the whole run.

Memory stays small for a server that runs for days: behind the last `keep_recent` entries,
runs of one agent's deltas are stored compactly (delta_runs.py); every event still reads back
exactly as it was logged, so positions, seqs and every SSE id stay valid.

    log = EventLog(history=plan.history)
    log.attach(runtime)              # inside `async with runtime`
    start = log.position_after(since)
    end = await log.wait_beyond(start)   # 0 new entries: the runtime has ended
    for entry in log.entries(start, end): ...
"""

from __future__ import annotations

import bisect
from array import array
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING

import anyio

from ..events import Event, Subscription
from .delta_runs import DeltaRun, runs_in
from .log_entry import LogEntry, Logged

if TYPE_CHECKING:
    from ..runtime import Runtime

KEEP_RECENT = 4096  # entries kept as logged: live clients read these; older ones are compacted


class EventLog:
    def __init__(self, history: Iterable[Event] = (), *, keep_recent: int | None = KEEP_RECENT):
        """`keep_recent`: how many of the newest entries are never compacted (None: none is)."""
        self.keep_recent = keep_recent
        self._slots: list[LogEntry | DeltaRun] = []  # per position: its entry, or its run
        self._seqs = array("q")  # per position: the seq (for bisect)
        self._compacted = 0  # positions before this one have been compacted
        self._spawns: dict[str, int] = {}  # agent -> position of its agent:spawned
        self._subscription: Subscription | None = None
        self._grown: anyio.Event | None = None  # made when someone waits: it needs the loop
        self.closed = False
        self.extend(history)

    def attach(self, runtime: Runtime) -> None:
        """Log `runtime`'s events from now on (call it inside `async with runtime`); the log
        closes when the runtime shuts down."""
        self._subscription = runtime.subscribe(maxsize=None)
        runtime.run_service(self._follow, name="event log")

    async def _follow(self) -> None:
        assert self._subscription is not None
        try:
            while batch := await self._subscription.next_batch():
                self.extend(batch)
        finally:
            # The shutdown cancels this service right after the bus closes: what the bus
            # still holds (the agents' last events) is logged all the same.
            self.extend(self._subscription.drain())
            self.close()

    def catch_up(self) -> None:
        """Take in what the runtime has published but the service has not read yet, so the
        log's end is the runtime's present (before a command whose events must follow)."""
        if self._subscription is not None:
            self.extend(self._subscription.drain())

    def extend(self, events: Iterable[Event]) -> None:
        """Log `events` (in seq order, after everything logged) and wake the readers."""
        grew = False
        for event in events:
            entry = LogEntry.of(event)
            if entry.type == "agent:spawned":
                self._spawns.setdefault(entry.agent_id, len(self._slots))
            self._slots.append(entry)
            self._seqs.append(entry.seq)
            grew = True
        if not grew:
            return
        keep = self.keep_recent
        if keep is not None and len(self._slots) - self._compacted >= 2 * keep + 1:
            self.compact(len(self._slots) - keep)
        self._wake()

    def compact(self, end: int) -> None:
        """Store the runs of deltas before position `end` compactly (reads are unchanged)."""
        start = self._compacted
        if end <= start:
            return
        region = self._slots[start:end]
        for positions in runs_in(region):
            run = DeltaRun([region[position] for position in positions])  # type: ignore[misc]
            for position in positions:
                self._slots[start + position] = run
        self._compacted = end

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
        return len(self._slots)

    @property
    def last_seq(self) -> int:
        return self._seqs[-1] if self._seqs else 0

    def position_after(self, seq: int) -> int:
        """The position of the first entry whose seq is above `seq`."""
        return bisect.bisect_right(self._seqs, seq)

    def spawn_position(self, agent_id: str) -> int | None:
        """Where the agent's `agent:spawned` is in the log (None: not logged)."""
        return self._spawns.get(agent_id)

    def entries(self, start: int, end: int) -> Sequence[Logged]:
        """The entries at positions start to end (exclusive), each as it was logged."""
        slots = self._slots[start:end]
        if start >= self._compacted:
            return slots  # type: ignore[return-value]  # none of them is in a run
        out: list[Logged] = []
        next_piece: dict[DeltaRun, int] = {}  # a run's pieces come in order: no search each
        for position, slot in enumerate(slots, start):
            if isinstance(slot, LogEntry):
                out.append(slot)
                continue
            index = next_piece.get(slot)
            if index is None:
                index = slot.index_of(self._seqs[position])
            out.append(slot.piece(index))
            next_piece[slot] = index + 1
        return out

    def states(self, start: int, end: int) -> list[LogEntry]:
        """The entries from start to end that are not deltas (cheap: no run is read)."""
        return [
            slot
            for slot in self._slots[start:end]
            if isinstance(slot, LogEntry) and slot.delta is None
        ]

    async def wait_beyond(self, position: int) -> int:
        """Wait until the log holds entries past `position` (or has closed); its length."""
        while len(self._slots) <= position and not self.closed:
            if self._grown is None:
                self._grown = anyio.Event()
            await self._grown.wait()
        return len(self._slots)
