"""Merging a slow client's batch, and resuming at any message of it: every event delivered
exactly once, every agent's text whole and in order, the ids watermarks."""

from __future__ import annotations

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.protocol.events import parse_event
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.log_entry import LogEntry, Logged
from agentui.core.remote.sse_batches import MAX_BATCH, Outgoing, ResumePoint, feed, merged

from .event_steps import Step, build, received_exactly_once, steps_strategy


async def stream(log: EventLog, start: ResumePoint) -> list[Outgoing]:
    with anyio.fail_after(30):
        return [message async for batch in feed(log, start, behind_after=1) for message in batch]


def test_a_run_merges_at_its_last_piece_and_ids_say_where_to_resume() -> None:
    steps: list[Step] = [
        ("a", "text", 1),  # 1
        ("b", "text", 1),  # 2
        ("a", "text", 1),  # 3
        ("b", "state", 1),  # 4: ends b's run
        ("a", "text", 1),  # 5
    ]
    batch = [LogEntry.of(event) for event in build(steps)]
    messages = merged(batch, watermark=0)
    sent = [parse_event(message.data) for message in messages]
    assert [(e.agent_id, e.seq) for e in sent] == [("b", 2), ("b", 4), ("a", 5)]
    assert sent[0].delta == "<2>" and sent[2].delta == "<1><3><5>"  # type: ignore[attr-defined]
    # After b's delta, seq 1 (a's first piece) is still owed: the id points into the batch.
    assert [message.id for message in messages] == ["0:5:1", "0:5:2", "5"]


def test_a_batch_without_interleaving_has_plain_watermarks() -> None:
    steps: list[Step] = [("a", "text", 1), ("a", "text", 1), ("a", "state", 1), ("b", "text", 1)]
    messages = merged([LogEntry.of(event) for event in build(steps)], watermark=7)
    assert [message.id for message in messages] == ["2", "3", "4"]


def test_resume_points_read_back() -> None:
    for point in (ResumePoint(12), ResumePoint(3, 9, 2)):
        assert ResumePoint.parse(point.token()) == point
    for bad in ("", "x", "-1", "1:2", "5:3:1", "1:2:3:4", " 1 : 2 : 3"):
        with pytest.raises(ValueError):
            ResumePoint.parse(bad)


@given(steps=steps_strategy, data=st.data())
def test_resuming_after_any_message_delivers_everything_once(
    steps: list[Step], data: object
) -> None:
    events = build(steps)

    async def check() -> None:
        log = EventLog(history=events)
        log.close()  # the whole run is logged: one batch, merged (behind_after=1)
        first = await stream(log, ResumePoint(0))
        cut = data.draw(st.integers(0, len(first)))  # type: ignore[attr-defined]
        delivered = first[:cut]
        start = ResumePoint.parse(delivered[-1].id) if delivered else ResumePoint(0)
        delivered += await stream(log, start)
        received_exactly_once(delivered, events)

    anyio.run(check)


class OnlyAgents:
    """A selection that keeps some agents' events (as the seed's /agent/stream keeps one
    subtree's) and never ends."""

    def __init__(self, agents: str) -> None:
        self.agents = agents

    def keep(self, entry: Logged) -> bool:
        return entry.agent_id in self.agents

    def ends(self, entry: Logged) -> bool:
        return False


@given(steps=steps_strategy, data=st.data())
def test_a_selected_stream_resumes_inside_a_merged_batch_with_its_selection(
    steps: list[Step], data: st.DataObject
) -> None:
    events = build(steps)
    kept = [event for event in events if event.agent_id in "ab"]

    async def check() -> None:
        log = EventLog(history=events)
        log.close()

        async def read(start: ResumePoint) -> list[Outgoing]:
            with anyio.fail_after(30):
                batches = feed(log, start, behind_after=1, selection=OnlyAgents("ab"))
                return [message async for batch in batches for message in batch]

        first = await read(ResumePoint(0))
        cut = data.draw(st.integers(0, len(first)))
        delivered = first[:cut]
        delivered += await read(
            ResumePoint.parse(delivered[-1].id) if delivered else ResumePoint(0)
        )
        if kept:
            received_exactly_once(delivered, kept)
        else:
            assert delivered == []

    anyio.run(check)


@pytest.mark.anyio
async def test_a_client_far_behind_takes_the_log_in_bounded_batches() -> None:
    events = build([("a", "state", 1)] * (2 * MAX_BATCH + 5))
    log = EventLog(history=events)
    log.close()
    with anyio.fail_after(30):
        sizes = [len(batch) async for batch in feed(log, ResumePoint(0), behind_after=10**9)]
    assert sizes == [MAX_BATCH, MAX_BATCH, 5]
