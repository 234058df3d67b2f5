"""Runs of events made from steps, for the property tests of merging, resuming and compacting:
each step is (agent, kind, iteration), kind being a text delta, a thinking delta or a state
event; and the check that what a client received is every event exactly once."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from hypothesis import strategies as st

from agentui.core.protocol.events import (
    Event,
    IterationStarted,
    TextDelta,
    ThinkingDelta,
    parse_event,
)
from agentui.core.remote.sse_batches import Outgoing, ResumePoint

Step = tuple[str, str, int]  # agent, kind (text, thinking, state), iteration

step_strategy = st.tuples(
    st.sampled_from(["a", "b", "c"]),
    st.sampled_from(["text", "text", "thinking", "state"]),
    st.integers(1, 2),
)
steps_strategy = st.lists(step_strategy, min_size=1, max_size=40)


def build(steps: list[Step]) -> list[Event]:
    events: list[Event] = []
    for seq, (agent, kind, iteration) in enumerate(steps, 1):
        common = {"seq": seq, "ts": seq / 8, "agent_id": agent, "iteration": iteration}
        if kind == "text":
            events.append(TextDelta(**common, delta=f"<{seq}>"))
        elif kind == "thinking":
            events.append(ThinkingDelta(**common, delta=f"({seq})"))
        else:
            events.append(IterationStarted(**common))
    return events


def text_of(events: Iterable[Event]) -> dict[tuple[str, str], str]:
    """Each agent's streamed text and thinking, concatenated in order."""
    out: dict[tuple[str, str], str] = defaultdict(str)
    for event in events:
        if isinstance(event, TextDelta | ThinkingDelta):
            out[(event.agent_id, event.type)] += event.delta
    return dict(out)


def received_exactly_once(delivered: list[Outgoing], events: list[Event]) -> None:
    """`delivered` (one client's messages, across reconnects) holds every event of `events`
    once: each agent's text whole and in order, each state event once, ids never going back."""
    received = [parse_event(message.data) for message in delivered]
    assert text_of(received) == text_of(events)
    states = [e.seq for e in received if not isinstance(e, TextDelta | ThinkingDelta)]
    expected = [e.seq for e in events if not isinstance(e, TextDelta | ThinkingDelta)]
    assert sorted(states) == expected  # each state event once (order may interleave)
    for agent in {e.agent_id for e in events}:  # each agent's own order is kept
        mine = [e.seq for e in received if e.agent_id == agent]
        assert mine == sorted(mine)
    marks = [ResumePoint.parse(message.id).watermark for message in delivered]
    assert marks == sorted(marks) and marks[-1] == events[-1].seq
