"""Merging a slow client's batch, and resuming at any message of it: every event delivered
exactly once, every agent's text whole and in order, the ids watermarks."""

from __future__ import annotations

from collections import defaultdict

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.events import Event, IterationStarted, TextDelta, ThinkingDelta, parse_event
from agentui.core.remote.event_log import EventLog, LogEntry
from agentui.core.remote.sse_batches import Outgoing, ResumePoint, feed, merged

Step = tuple[str, str, int]  # agent, kind (text, thinking, state), iteration


def build(steps: list[Step]) -> list[Event]:
    events: list[Event] = []
    for seq, (agent, kind, iteration) in enumerate(steps, 1):
        common = {"seq": seq, "ts": 0.0, "agent_id": agent, "iteration": iteration}
        if kind == "text":
            events.append(TextDelta(**common, delta=f"<{seq}>"))
        elif kind == "thinking":
            events.append(ThinkingDelta(**common, delta=f"({seq})"))
        else:
            events.append(IterationStarted(**common))
    return events


def text_of(events: list[Event]) -> dict[tuple[str, str], str]:
    """Each agent's streamed text and thinking, concatenated in order."""
    out: dict[tuple[str, str], str] = defaultdict(str)
    for event in events:
        if isinstance(event, TextDelta | ThinkingDelta):
            out[(event.agent_id, event.type)] += event.delta
    return dict(out)


def watermark(message: Outgoing) -> int:
    return ResumePoint.parse(message.id).watermark


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


steps_strategy = st.lists(
    st.tuples(
        st.sampled_from(["a", "b", "c"]),
        st.sampled_from(["text", "text", "thinking", "state"]),
        st.integers(1, 2),
    ),
    min_size=1,
    max_size=40,
)


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
        received = [parse_event(message.data) for message in delivered]
        assert text_of(received) == text_of(events)
        states = [e.seq for e in received if not isinstance(e, TextDelta | ThinkingDelta)]
        expected = [e.seq for e in events if not isinstance(e, TextDelta | ThinkingDelta)]
        assert sorted(states) == expected  # each state event once (order may interleave)
        for agent in "abc":  # each agent's own order is kept
            mine = [e.seq for e in received if e.agent_id == agent]
            assert mine == sorted(mine)
        marks = [watermark(message) for message in delivered]
        assert marks == sorted(marks) and marks[-1] == events[-1].seq

    anyio.run(check)
