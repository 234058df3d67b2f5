"""The event log's compaction: older runs of deltas stored compactly read back exactly as they
were logged, so an SSE id sent before a compaction resumes after it with every character
once; and they take a fraction of the memory."""

from __future__ import annotations

import tracemalloc

import anyio
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.protocol.events import TextDelta, ThinkingDelta
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.log_entry import Logged
from agentui.core.remote.sse_batches import Outgoing, ResumePoint, feed

from .event_steps import build, received_exactly_once, step_strategy

longer_steps = st.lists(step_strategy, min_size=1, max_size=120)


def as_read(entry: Logged) -> tuple[object, ...]:
    return (entry.seq, entry.type, entry.agent_id, entry.delta, entry.json)


@given(steps=longer_steps, keep=st.integers(0, 12), data=st.data())
def test_a_compacted_log_reads_back_exactly_as_logged(
    steps: list[tuple[str, str, int]], keep: int, data: st.DataObject
) -> None:
    events = build(steps)
    plain = EventLog(events, keep_recent=None)
    log = EventLog(keep_recent=keep)
    position = 0
    while position < len(events):  # in batches, as the runtime publishes them
        size = data.draw(st.integers(1, 10))
        log.extend(events[position : position + size])
        position += size
    if data.draw(st.booleans()):
        log.compact(len(log))  # everything, the last entries too
    assert len(log) == len(plain) and log.last_seq == plain.last_seq
    start = data.draw(st.integers(0, len(log)))
    end = data.draw(st.integers(start, len(log)))
    for got, logged in zip(log.entries(start, end), plain.entries(start, end), strict=True):
        assert as_read(got) == as_read(logged)
        if logged.delta is not None:
            assert got.json_with_delta("merged") == logged.json_with_delta("merged")


async def stream(log: EventLog, start: ResumePoint, behind_after: int) -> list[Outgoing]:
    with anyio.fail_after(30):
        batches = feed(log, start, behind_after=behind_after)
        return [message async for batch in batches for message in batch]


@given(steps=longer_steps, behind_after=st.sampled_from([1, 10**6]), data=st.data())
def test_an_id_sent_before_a_compaction_resumes_exactly_after_it(
    steps: list[tuple[str, str, int]], behind_after: int, data: st.DataObject
) -> None:
    events = build(steps)

    async def check() -> None:
        log = EventLog(events, keep_recent=None)  # nothing compacted while the client reads
        log.close()
        first = await stream(log, ResumePoint(0), behind_after)
        cut = data.draw(st.integers(0, len(first)))
        delivered = first[:cut]
        log.compact(len(log))  # the client was away: everything it read is compacted now
        start = ResumePoint.parse(delivered[-1].id) if delivered else ResumePoint(0)
        delivered += await stream(log, start, behind_after)
        received_exactly_once(delivered, events)

    anyio.run(check)


def test_a_delta_run_knows_every_field_of_a_delta() -> None:
    # A run keeps one event as its template and per piece only seq, ts and text: a field
    # that could differ between the pieces of a run must be stored per piece too.
    for kind in (TextDelta, ThinkingDelta):
        assert set(kind.model_fields) == {"type", "seq", "ts", "agent_id", "iteration", "delta"}


def logged_bytes(events: list[TextDelta], keep_recent: int | None) -> int:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        log = EventLog(events, keep_recent=keep_recent)
        size = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    assert len(log) == len(events)
    return size


def test_compacted_deltas_take_a_fraction_of_the_memory() -> None:
    events = [
        TextDelta(seq=n, ts=float(n), agent_id=f"a{n % 10}", iteration=1, delta="abcde")
        for n in range(1, 20_001)
    ]  # ten agents streaming five characters at a time, interleaved
    plain = logged_bytes(events, keep_recent=None) / len(events)
    compacted = logged_bytes(events, keep_recent=0) / len(events)
    assert plain > 200 and compacted < plain / 5, (plain, compacted)
