"""The server's one ordered log of a runtime's events, each serialised once, that every SSE
client reads with its own cursor.

The log follows a lossless subscription (every delta as emitted) in a service of the runtime,
so publishing never waits on a client: an agent's event costs one JSON serialisation however
many clients there are, and a slow client only reads further behind. A resumed session's log
starts with the saved history (the seqs of its file), so a viewer sees the whole run.

Memory stays small for a server that runs for days: behind the last `keep_recent` entries,
runs of one agent's deltas are stored compactly (delta_runs.py), and once those older entries
take more than `memory_bytes`, the oldest go to disk a block at a time (log_spill.py). Every
event still reads back exactly as it was logged, so positions, seqs and every SSE id stay
valid: a client reading from seq 0 a week later gets the whole run. (What stays in memory per
agent whatever the budget: the position of its `agent:spawned`, about 100 bytes.)

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
from itertools import islice
from typing import TYPE_CHECKING, cast

import anyio

from agentui.core.bus import Subscription
from agentui.core.protocol.events import Event
from agentui.core.remote.delta_runs import DeltaRun, runs_in
from agentui.core.remote.log_entry import LogEntry, Logged
from agentui.core.remote.log_spill import LogSpill, Slot, SpilledBlock
from agentui.core.session.reader import collector_paused

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime

KEEP_RECENT = 4096  # entries kept as logged: live clients read these; older ones are compacted
# About how much the compacted entries may take in memory before the oldest go to disk: the
# last few thousand agents' lifecycles, where a reconnecting client resumes.
MEMORY_BYTES = 32 << 20
SPILL_BLOCK = 4096  # entries per block on disk (a catch-up batch reads one or two)
HISTORY_CHUNK = 65536  # a saved history is logged this many events at a time
# What an entry costs beyond its JSON text (the object, its strings' headers, its seq), measured.
ENTRY_OVERHEAD = 250


class EventLog:
    def __init__(
        self,
        history: Iterable[Event] = (),
        *,
        keep_recent: int | None = KEEP_RECENT,
        memory_bytes: int | None = MEMORY_BYTES,
        spill: LogSpill | None = None,
    ):
        """`keep_recent`: how many of the newest entries are never compacted (None: none is).
        `memory_bytes`: about how much the compacted entries may take before the oldest go to
        `spill` (a LogSpill of its own by default; None: they all stay in memory)."""
        self.keep_recent = keep_recent
        self.memory_bytes = memory_bytes
        self._spill = spill if spill is not None else LogSpill()
        self._blocks: list[SpilledBlock] = []  # positions before `_base`, on disk, in order
        self._base = 0  # the position of `_slots[0]`
        self._slots: list[LogEntry | DeltaRun] = []  # per position from _base: entry or run
        self._seqs = array("q")  # per position from _base: the seq (for bisect)
        self._compacted = 0  # positions before this one have been compacted
        self._held = 0  # about how many bytes the compacted positions in memory take
        self._spawns: dict[str, int] = {}  # agent -> position of its agent:spawned
        self._subscription: Subscription | None = None
        self._grown: anyio.Event | None = None  # made when someone waits: it needs the loop
        self.closed = False
        history = iter(history)
        # A resumed session's history may be long: it is compacted and spilled as it comes.
        while chunk := list(islice(history, HISTORY_CHUNK)):
            self.extend(chunk)

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
                self._spawns.setdefault(entry.agent_id, len(self))
            self._slots.append(entry)
            self._seqs.append(entry.seq)
            grew = True
        if not grew:
            return
        keep = self.keep_recent
        if keep is not None and len(self) - self._compacted >= 2 * keep + 1:
            self.compact(len(self) - keep)
        self._wake()

    def compact(self, end: int) -> None:
        """Store the runs of deltas before position `end` compactly, then move the oldest
        entries to disk while the compacted ones take more than `memory_bytes` (reads are
        unchanged)."""
        start = self._compacted
        if end <= start:
            return
        offset = start - self._base
        # Nothing from `_compacted` on is in a run yet: these are the entries as logged.
        region = cast("list[LogEntry]", self._slots[offset : end - self._base])
        for positions in runs_in(region):
            run = DeltaRun([region[position] for position in positions])
            for position in positions:
                self._slots[offset + position] = run
            self._held += run.bytes_estimate()
        compacted = self._slots[offset : end - self._base]
        self._held += sum(_entry_bytes(slot) for slot in compacted if isinstance(slot, LogEntry))
        self._compacted = end
        self._spill_while_over()

    def _spill_while_over(self) -> None:
        budget = self.memory_bytes
        while budget is not None and self._held > budget and not self._spill.failed:
            count = min(SPILL_BLOCK, self._compacted - self._base)
            if count <= 0:
                return
            slots, seqs = self._slots[:count], self._seqs[:count]
            block = self._spill.write(self._base, slots, seqs)
            if block is None:
                return  # the disk refused: they stay (LogSpill said so once)
            self._blocks.append(block)
            for slot, seq in zip(slots, seqs, strict=True):
                if isinstance(slot, LogEntry):
                    self._held -= _entry_bytes(slot)
                elif seq == slot.seqs[-1]:  # a run leaves memory with its last piece
                    self._held -= slot.bytes_estimate()
            del self._slots[:count]
            del self._seqs[:count]
            self._base += count

    def close(self) -> None:
        """No more events will come: readers finish what is logged and end."""
        self.closed = True
        if self._subscription is not None:
            self._subscription.close()
        self._wake()

    def discard(self) -> None:
        """Nobody will read the log again: its file on disk goes (the server has stopped)."""
        self._spill.close()

    def _wake(self) -> None:
        if self._grown is not None:
            self._grown.set()
            self._grown = None

    # -- reading -------------------------------------------------------------------------

    def __len__(self) -> int:
        return self._base + len(self._slots)

    @property
    def last_seq(self) -> int:
        if self._seqs:
            return self._seqs[-1]
        return self._blocks[-1].last_seq if self._blocks else 0

    @property
    def spilled(self) -> int:
        """How many of the oldest entries are on disk."""
        return self._base

    @property
    def spilled_bytes(self) -> int:
        """What the entries on disk take there (compressed)."""
        return self._spill.bytes_written

    def position_after(self, seq: int) -> int:
        """The position of the first entry whose seq is above `seq`."""
        if not self._blocks or seq >= self._blocks[-1].last_seq:
            return self._base + bisect.bisect_right(self._seqs, seq)
        block = self._blocks[bisect.bisect_right(self._blocks, seq, key=_last_seq)]
        _, seqs = self._spill.read(block)
        return block.first_position + bisect.bisect_right(seqs, seq)

    def spawn_position(self, agent_id: str) -> int | None:
        """Where the agent's `agent:spawned` is in the log (None: not logged)."""
        return self._spawns.get(agent_id)

    def entries(self, start: int, end: int) -> Sequence[Logged]:
        """The entries at positions start to end (exclusive), each as it was logged."""
        if start < self._base:
            with collector_paused():
                return self._entries(start, end)
        return self._entries(start, end)

    def _entries(self, start: int, end: int) -> Sequence[Logged]:
        slots, seqs = self._slots_between(start, end)
        if start >= self._compacted:
            return slots  # type: ignore[return-value]  # none of them is in a run
        out: list[Logged] = []
        next_piece: dict[DeltaRun, int] = {}  # a run's pieces come in order: no search each
        for slot, seq in zip(slots, seqs, strict=True):
            if isinstance(slot, LogEntry):
                out.append(slot)
                continue
            index = next_piece.get(slot)
            if index is None:
                index = slot.index_of(seq)
            out.append(slot.piece(index))
            next_piece[slot] = index + 1
        return out

    def states(self, start: int, end: int) -> list[LogEntry]:
        """The entries from start to end that are not deltas (cheap: no run is read)."""
        slots, _ = self._slots_between(start, end)
        return [slot for slot in slots if isinstance(slot, LogEntry) and slot.delta is None]

    def _slots_between(self, start: int, end: int) -> tuple[list[Slot], Sequence[int]]:
        """The slots at positions start to end and their seqs, from disk where they are."""
        base = self._base
        if start >= base:
            return self._slots[start - base : end - base], self._seqs[start - base : end - base]
        slots: list[Slot] = []
        seqs = array("q")
        first = bisect.bisect_right(self._blocks, start, key=_first_position) - 1
        for block in islice(self._blocks, first, None):
            if block.first_position >= end:
                break
            block_slots, block_seqs = self._spill.read(block)
            cut = slice(
                max(start, block.first_position) - block.first_position, end - block.first_position
            )
            slots += block_slots[cut]
            seqs += block_seqs[cut]
        if end > base:
            slots += self._slots[: end - base]
            seqs += self._seqs[: end - base]
        return slots, seqs

    async def wait_beyond(self, position: int) -> int:
        """Wait until the log holds entries past `position` (or has closed); its length."""
        while len(self) <= position and not self.closed:
            if self._grown is None:
                self._grown = anyio.Event()
            await self._grown.wait()
        return len(self)


def _entry_bytes(entry: LogEntry) -> int:
    return len(entry.json) + ENTRY_OVERHEAD + (len(entry.delta.text) if entry.delta else 0)


def _last_seq(block: SpilledBlock) -> int:
    return block.last_seq


def _first_position(block: SpilledBlock) -> int:
    return block.first_position
