"""The EventBus: it stamps each event with the next seq and the time, and delivers it to every
subscriber's own stream.

Full-stream policy (a subscriber that reads slower than agents write):
- A subscription has a soft bound (`maxsize`). Below it, every event is queued as is.
- At or above it, a delta (`text:delta` or `thinking:delta`, a DeltaEvent) is merged into
  that agent's newest pending event when that event is a delta of the same kind and iteration. The merged event
  keeps the `seq` of its first piece, so that subscriber sees a gap in `seq`; no text is lost
  and each agent's order is kept.
- Every other event, and a delta that cannot be merged, is queued even past the bound: state
  events are never dropped. Past the bound a subscriber therefore holds at most one delta per
  agent beyond its state events.
- `maxsize=None` subscribes without coalescing (every delta as emitted).
- Publishing never waits: a slow subscriber never blocks an agent.

Joined deltas (a reader that wants no delta one by one): a subscription with `join_deltas` set
merges every delta the same way at any length, while the agent's newest pending event is a delta
of the same kind and iteration that it has not read yet. A stream is one event per chunk: such a
reader (the session writer, which merges them anyway; a screen that draws ~20 times a second)
then handles one event per read instead. When every subscription joins, a piece that joins in
all of them is no new object at all: `emit` returns the pending delta it joined. Seq numbers are
given as ever, one per emit, so a joined piece leaves a gap as a coalesced one does.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator, Callable
from typing import Any

import anyio

from agentui.core.protocol.events import DeltaEvent, E, Event, TextDelta, ThinkingDelta
from agentui.core.support.clock import Clock

_DELTAS = frozenset({TextDelta, ThinkingDelta})


class Subscription:
    """One subscriber's own stream of events. See the module docstring for the full policy."""

    def __init__(self, bus: EventBus, maxsize: int | None) -> None:
        if maxsize is not None and maxsize < 1:
            raise ValueError("maxsize must be at least 1 (or None for no coalescing)")
        self._bus = bus
        self._maxsize = maxsize
        self._queue: deque[Event] = deque()
        self._popped = 0  # absolute position of _queue[0] in everything ever queued here
        self._newest: dict[str, tuple[int, Event]] = {}  # agent -> (absolute pos, event)
        self._extra: dict[int, list[str]] = {}  # absolute pos -> delta pieces merged into it
        self._wake: anyio.Event | None = None
        # While set (wait_for), only an event it picks wakes the reader: a reader that batches
        # until a deadline is not woken, and does not wake, for every delta.
        self._wanted: Callable[[Event], bool] | None = None
        self.closed = False
        self.coalesced = 0  # how many deltas were merged into earlier ones past the bound
        self._join_deltas = False
        # The newest event a joining subscription took in, a joined piece included: once
        # drained, everything up to it has been read (a joined piece's seq is on no event).
        self.newest_seq = 0
        self.newest_ts: float | None = None

    @property
    def join_deltas(self) -> bool:
        """Merge every delta into the agent's unread one (see the module docstring)."""
        return self._join_deltas

    @join_deltas.setter
    def join_deltas(self, join: bool) -> None:
        if join and not self._join_deltas and self._maxsize is None:
            self._newest.clear()  # untracked until now: what it holds may be stale
        self._join_deltas = join
        self._bus._recount()

    def __len__(self) -> int:
        return len(self._queue)

    def _joinable(self, agent_id: str, cls: type[Event], iteration: int) -> bool:
        """The agent's newest event in this (joining) subscription is an unread delta of this
        kind and iteration."""
        newest = self._newest.get(agent_id)
        if newest is None:
            return False
        position, pending = newest
        return (
            position >= self._popped and type(pending) is cls and pending.iteration == iteration  # type: ignore[attr-defined]
        )

    def _join(self, agent_id: str, piece: str, seq: int, ts: float) -> None:
        """Add a piece to the agent's pending delta (checked by `_joinable`)."""
        position = self._newest[agent_id][0]
        extra = self._extra.get(position)
        if extra is None:
            self._extra[position] = [piece]
        else:
            extra.append(piece)
        self.newest_seq, self.newest_ts = seq, ts

    def _push(self, event: Event) -> None:
        queue = self._queue
        join = self._join_deltas
        if join:
            self.newest_seq, self.newest_ts = event.seq, event.ts
        if isinstance(event, DeltaEvent) and (
            join or (self._maxsize is not None and len(queue) >= self._maxsize)
        ):
            newest = self._newest.get(event.agent_id)
            if newest is not None:
                position, pending = newest
                if (
                    position >= self._popped
                    and isinstance(pending, DeltaEvent)
                    and pending.type == event.type
                    and pending.iteration == event.iteration
                ):
                    self._extra.setdefault(position, []).append(event.delta)
                    if not join:
                        self.coalesced += 1
                    return
        queue.append(event)
        if join or self._maxsize is not None:  # only these ever merge
            self._newest[event.agent_id] = (self._popped + len(queue) - 1, event)
        if self._wake is not None and (self._wanted is None or self._wanted(event)):
            self._wake.set()

    def _pop(self) -> Event:
        event = self._queue.popleft()
        position = self._popped
        self._popped += 1
        pieces = self._extra.pop(position, None)
        if pieces and isinstance(event, DeltaEvent):  # only deltas ever get pieces
            event = event.model_copy(update={"delta": event.delta + "".join(pieces)})
        return event

    def drain(self) -> list[Event]:
        """Everything pending, without waiting."""
        return [self._pop() for _ in range(len(self._queue))]

    async def next_batch(self) -> list[Event]:
        """Wait for at least one event, then return everything pending. [] once closed."""
        while not self._queue:
            if self.closed:
                return []
            self._wake = anyio.Event()
            await self._wake.wait()
            self._wake = None
        return self.drain()

    async def wait_for(self, wanted: Callable[[Event], bool]) -> None:
        """Return once an event `wanted` picks is pending, or the subscription is closed. Other
        events are queued meanwhile without waking this reader (read them with `drain`)."""
        if self.closed or any(wanted(event) for event in self._queue):
            return
        self._wanted, self._wake = wanted, anyio.Event()
        try:
            await self._wake.wait()
        finally:
            self._wanted, self._wake = None, None

    async def get(self) -> Event:
        while not self._queue:
            if self.closed:
                raise anyio.EndOfStream
            self._wake = anyio.Event()
            await self._wake.wait()
            self._wake = None
        return self._pop()

    def __aiter__(self) -> AsyncIterator[Event]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[Event]:
        while True:
            try:
                yield await self.get()
            except anyio.EndOfStream:
                return

    def close(self) -> None:
        """Stop receiving; what is already queued can still be read."""
        if not self.closed:
            self.closed = True
            self._bus._unsubscribe(self)
            if self._wake is not None:
                self._wake.set()


class EventBus:
    def __init__(self, clock: Clock, *, last_seq: int = 0) -> None:
        self._clock = clock
        self._seq = last_seq  # a resumed session continues its numbering
        self._subscriptions: list[Subscription] = []
        self._joining = False  # there are subscriptions, and every one joins deltas

    @property
    def last_seq(self) -> int:
        return self._seq

    def emit(self, cls: type[E], agent_id: str, **fields: Any) -> E:
        """Stamp a new event with the next seq and the time, and deliver it."""
        self._seq += 1
        subscriptions = self._subscriptions
        if (
            self._joining
            and cls in _DELTAS
            and len(fields) == 2
            and type(piece := fields.get("delta")) is str
        ):
            iteration = fields.get("iteration")
            for subscription in subscriptions:
                if not subscription._joinable(agent_id, cls, iteration):  # type: ignore[arg-type]
                    break
            else:
                ts = self._clock.now()
                for subscription in subscriptions:
                    subscription._join(agent_id, piece, self._seq, ts)
                return subscriptions[0]._newest[agent_id][1]  # type: ignore[return-value]
        event = cls(seq=self._seq, ts=self._clock.now(), agent_id=agent_id, **fields)
        for subscription in subscriptions:
            subscription._push(event)
        return event

    def relay(self, event: Event) -> None:
        """Deliver an event stamped elsewhere (a remote runtime's), keeping its seq, so a screen
        attached over the network folds exactly what the runtime emitted."""
        self._seq = max(self._seq, event.seq)
        for subscription in self._subscriptions:
            subscription._push(event)

    def subscribe(self, maxsize: int | None = 4096) -> Subscription:
        subscription = Subscription(self, maxsize)
        self._subscriptions.append(subscription)
        self._recount()
        return subscription

    def _unsubscribe(self, subscription: Subscription) -> None:
        if subscription in self._subscriptions:
            self._subscriptions.remove(subscription)
            self._recount()

    def _recount(self) -> None:
        subscriptions = self._subscriptions
        self._joining = bool(subscriptions) and all(s.join_deltas for s in subscriptions)

    def close(self) -> None:
        """End every subscription (the runtime has shut down)."""
        for subscription in list(self._subscriptions):
            subscription.close()
