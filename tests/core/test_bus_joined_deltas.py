"""Joined deltas: a subscription with `join_deltas` takes an agent's consecutive pieces as one
event while it has not read them, and when every subscription joins, a joined piece is no new
event object at all. No text is lost or reordered, seq numbers are given one per emit as ever,
and a reader that wants every delta (the default) still gets every one."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.bus import EventBus
from agentui.core.protocol.events import IterationStarted, StatusChanged, TextDelta, ThinkingDelta
from agentui.core.providers.scripted.script import Turn
from agentui.core.session.reader import read_session
from agentui.core.support.clock import FrozenClock

from .session_helpers import recorded_runtime


def new_bus() -> tuple[EventBus, FrozenClock]:
    clock = FrozenClock()
    return EventBus(clock), clock


def text(bus: EventBus, agent_id: str, delta: str, iteration: int = 1) -> TextDelta:
    return bus.emit(TextDelta, agent_id, iteration=iteration, delta=delta)


def test_unread_pieces_join_into_one_event_keeping_the_first_seq_and_time() -> None:
    bus, clock = new_bus()
    sub = bus.subscribe(maxsize=None)
    sub.join_deltas = True
    first = text(bus, "a1", "Hel")
    clock.advance(1.0)
    joined = [text(bus, "a1", "lo, "), text(bus, "a1", "world")]
    assert all(event is first for event in joined)  # no new object: the delta they joined
    assert first.delta == "Hel"  # the shared event itself is never changed
    assert bus.last_seq == 3  # one seq per emit, as ever
    assert (sub.newest_seq, sub.newest_ts) == (3, first.ts + 1.0)  # the last piece's
    [merged] = sub.drain()
    assert type(merged) is TextDelta
    assert (merged.seq, merged.ts, merged.delta) == (1, first.ts, "Hello, world")
    assert sub.coalesced == 0  # counts merges past a bound only


def test_a_read_ends_the_join_and_the_next_piece_is_a_new_event() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    sub.join_deltas = True
    text(bus, "a1", "one ")
    text(bus, "a1", "two ")
    assert [e.delta for e in sub.drain()] == ["one two "]  # type: ignore[attr-defined]
    late = text(bus, "a1", "three")
    assert late.delta == "three" and late.seq == 3
    assert sub.drain() == [late]


def test_another_event_of_the_agent_or_another_kind_or_iteration_starts_a_new_delta() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    sub.join_deltas = True
    text(bus, "a1", "a")
    text(bus, "a2", "x")  # another agent's: a1's delta still joins past it
    text(bus, "a1", "b")
    bus.emit(StatusChanged, "a1", old="running", new="paused", reason="test")
    text(bus, "a1", "c")  # after a1's state event: a new delta
    bus.emit(ThinkingDelta, "a1", iteration=1, delta="hm")
    text(bus, "a1", "d")  # after a thinking delta: a new text delta
    bus.emit(IterationStarted, "a1", iteration=2)
    text(bus, "a1", "e", iteration=2)
    text(bus, "a1", "f", iteration=1)  # another iteration: a new delta
    got = [(e.agent_id, e.type, getattr(e, "delta", None)) for e in sub.drain()]
    assert got == [
        ("a1", "text:delta", "ab"),
        ("a2", "text:delta", "x"),
        ("a1", "agent:status", None),
        ("a1", "text:delta", "c"),
        ("a1", "thinking:delta", "hm"),
        ("a1", "text:delta", "d"),
        ("a1", "iteration:start", None),
        ("a1", "text:delta", "e"),
        ("a1", "text:delta", "f"),
    ]


def test_a_reader_that_wants_every_delta_still_gets_every_one() -> None:
    bus, _ = new_bus()
    lossless = bus.subscribe(maxsize=None)
    joined = bus.subscribe(maxsize=None)
    joined.join_deltas = True
    pieces = ["al", "pha", " be", "ta"]
    emitted = [text(bus, "a1", piece) for piece in pieces]
    assert [e.delta for e in emitted] == pieces  # each its own event: one reader needs them
    assert lossless.drain() == emitted
    [merged] = joined.drain()
    assert merged.delta == "alpha beta"  # type: ignore[attr-defined]
    assert merged.seq == emitted[0].seq
    assert joined.newest_seq == emitted[-1].seq


def test_a_late_subscriber_gets_no_piece_emitted_before_it_came() -> None:
    bus, _ = new_bus()
    early = bus.subscribe(maxsize=None)
    early.join_deltas = True
    text(bus, "a1", "before ")
    late = bus.subscribe(maxsize=None)
    late.join_deltas = True
    text(bus, "a1", "after")
    assert [e.delta for e in early.drain()] == ["before after"]  # type: ignore[attr-defined]
    assert [e.delta for e in late.drain()] == ["after"]  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_the_session_writer_joins_and_its_file_holds_every_piece(tmp_path: Path) -> None:
    answer = "".join(f"word{i} " for i in range(2000))
    runtime = recorded_runtime(tmp_path, Turn(thinking="Let me think. " * 50, text=answer))
    async with runtime:
        root = runtime.start("Write it")
        await runtime.wait(root)
    session = runtime.session
    assert session.path is not None
    events = read_session(session.path).events
    streamed = "".join(e.delta for e in events if isinstance(e, TextDelta))
    assert streamed == answer
    assert session.written_seq == events[-1].seq
