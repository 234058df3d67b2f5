"""What one SSE client is sent of the event log, batch by batch, and where it resumes.

A client reads the log with its own cursor. Each time it is woken it takes everything logged
since (a batch). A client that keeps up gets each event as its own message. One that fell
behind (a batch of `behind_after` events or more) gets text and thinking deltas merged, the way
the bus merges them for a slow subscriber (see events.py): a run of one agent's deltas of the
same type and iteration, with no other event of that agent between them, becomes one delta,
sent at its *last* piece's position with that piece's seq. No other event is merged or left
out, and each agent's order is kept.

The SSE `id` of every message is where a reconnect resumes (the `Last-Event-ID` header):

- `N`: a watermark. Every event with seq <= N has been delivered and none after it.
- `S:E:K`: only inside a merged batch where a merged delta went out before another agent's
  event that came between its pieces, so what was delivered is not a prefix of the log (until
  the batch's last such message). The batch held the events after seq S up to seq E, and K
  of its messages were delivered; the batch is merged again the same way (merging is a pure
  function of the batch) and its remaining messages are sent. S is a watermark too, so the
  watermarks of successive ids never go back.

So a reconnect never doubles or loses an event or a piece of text, for any SSE client that
sends back the last id it saw (as browsers do).
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Protocol

from agentui.core.remote.event_log import EventLog
from agentui.core.remote.log_entry import Logged, delta_groups

BEHIND_AFTER = 512  # a batch this long means the client fell behind: its deltas are merged
# A client catching up on a long history takes it in parts this long: merging one costs a few
# milliseconds of the event loop, which every other client and the agents share.
MAX_BATCH = 4096


@dataclass(frozen=True, slots=True)
class Outgoing:
    id: str  # where a reconnect resumes (see the module docstring)
    data: str  # the event's JSON


@dataclass(frozen=True, slots=True)
class ResumePoint:
    """Where a client's stream starts: after `watermark`, or inside a merged batch."""

    watermark: int = 0
    batch_end: int | None = None
    sent: int = 0

    @classmethod
    def parse(cls, text: str) -> ResumePoint:
        """An SSE id this server sent (`N` or `S:E:K`); ValueError for anything else."""
        parts = text.strip().split(":")
        if len(parts) not in (1, 3) or not all(part.isdigit() for part in parts):
            raise ValueError(f"not an event id this server sent: {text!r}")
        numbers = [int(part) for part in parts]
        if len(numbers) == 1:
            return cls(numbers[0])
        watermark, batch_end, sent = numbers
        if batch_end < watermark:
            raise ValueError(f"not an event id this server sent: {text!r}")
        return cls(watermark, batch_end, sent)

    def token(self) -> str:
        if self.batch_end is None:
            return str(self.watermark)
        return f"{self.watermark}:{self.batch_end}:{self.sent}"


class Selection(Protocol):
    """Which logged events a stream carries (all of them without one), and its last."""

    def keep(self, entry: Logged) -> bool: ...

    def ends(self, entry: Logged) -> bool: ...


def one_by_one(batch: Sequence[Logged]) -> list[Outgoing]:
    return [Outgoing(str(entry.seq), entry.json) for entry in batch]


def merged(batch: Sequence[Logged], watermark: int) -> list[Outgoing]:
    """`batch` (the events after seq `watermark`) with each agent's delta runs merged."""
    if not batch:
        return []
    groups = delta_groups(batch)  # positions in `batch` that make one message
    groups.sort(key=lambda group: group[-1])  # each at its last piece's position

    # Which messages leave something before them unsent (a merged delta that went out
    # before another agent's event between its pieces).
    covered = [False] * len(batch)
    first_open = 0  # every position before this one has been sent
    furthest = -1  # the furthest position sent
    prefix_ends: list[int | None] = []  # per message: the sent prefix's end, or None (a gap)
    for group in groups:
        for position in group:
            covered[position] = True
        furthest = max(furthest, group[-1])
        while first_open < len(batch) and covered[first_open]:
            first_open += 1
        prefix_ends.append(first_open if furthest < first_open else None)
    # Up to the last message with a gap, ids point into the batch (their watermark is the
    # batch's start, so ids never go back); after it, each is a plain watermark.
    last_gap = max((n for n, end in enumerate(prefix_ends) if end is None), default=-1)
    batch_end = batch[-1].seq
    out: list[Outgoing] = []
    for number, (group, end) in enumerate(zip(groups, prefix_ends, strict=True)):
        if number <= last_gap or end is None:
            token = ResumePoint(watermark, batch_end, number + 1).token()
        else:
            token = str(batch[end - 1].seq)
        out.append(Outgoing(token, _message(batch, group)))
    return out


def _message(batch: Sequence[Logged], group: list[int]) -> str:
    last = batch[group[-1]]
    if len(group) == 1:
        return last.json
    text = "".join(batch[position].delta.text for position in group)  # type: ignore[union-attr]  # a group of 2+ is deltas
    return last.json_with_delta(text)


async def feed(
    log: EventLog,
    start: ResumePoint,
    *,
    behind_after: int = BEHIND_AFTER,
    selection: Selection | None = None,
) -> AsyncIterator[list[Outgoing]]:
    """One client's stream, a batch at a time, from `start` until the log closes (or the
    selection's last event). A `selection` must be as it was after `start.watermark`."""
    watermark = start.watermark
    position = log.position_after(watermark)
    if start.batch_end is not None and start.batch_end <= log.last_seq:
        # Inside a merged batch: the rest of that batch, merged as it was.
        end = log.position_after(start.batch_end)
        batch, finished = _selected(log.entries(position, end), selection)
        rest = merged(batch, watermark)[start.sent :]
        if rest:
            yield rest
        if finished:
            return
        position, watermark = end, start.batch_end
    while True:
        end = await log.wait_beyond(position)
        if end <= position:
            return  # the runtime has shut down
        end = min(end, position + MAX_BATCH)
        batch, finished = _selected(log.entries(position, end), selection)
        position = end
        if batch:
            behind = len(batch) >= behind_after
            yield merged(batch, watermark) if behind else one_by_one(batch)
            watermark = batch[-1].seq
        if finished:
            return


def _selected(
    batch: Sequence[Logged], selection: Selection | None
) -> tuple[Sequence[Logged], bool]:
    """What of `batch` the selection keeps, up to its last event; and whether that came."""
    if selection is None:
        return batch, False
    kept: list[Logged] = []
    for entry in batch:
        if selection.keep(entry):
            kept.append(entry)
            if selection.ends(entry):
                return kept, True
    return kept, False


def encoded(messages: Sequence[Outgoing], limit: int = 1 << 16, *, prefix: str = "") -> list[bytes]:
    """SSE text for `messages`, in chunks of about `limit` bytes: one write per chunk, not one
    per event, is what lets ten clients keep up. `prefix` goes before every id."""
    chunks: list[bytes] = []
    parts: list[str] = []
    size = 0
    for message in messages:
        part = f"id: {prefix}{message.id}\ndata: {message.data}\n\n"  # JSON has no line break
        parts.append(part)
        size += len(part)
        if size >= limit:
            chunks.append("".join(parts).encode())
            parts, size = [], 0
    if parts:
        chunks.append("".join(parts).encode())
    return chunks
