"""EventBus and Subscription: seq numbering, one stream per subscriber, the full-stream policy
(coalescing past the bound, state events never dropped), close and batching, and parsing."""

from __future__ import annotations

import json
import random
import typing
from typing import Any

import anyio
import pytest

from agentui.core.bus import EventBus
from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.director_payloads import (
    ActingCharacter,
    Activation,
    CharacterGuidance,
    DirectorDecision,
    PlannedTurn,
)
from agentui.core.protocol.events import (
    AnyEvent,
    DeltaEvent,
    Event,
    IterationStarted,
    StatusChanged,
    TextDelta,
    ThinkingDelta,
    ToolCallInfo,
    parse_event,
)
from agentui.core.protocol.usage import Usage
from agentui.core.support.clock import FrozenClock
from agentui.core.workflow.report import ChildReport, QuestionReport, WorkflowReport


def new_bus() -> tuple[EventBus, FrozenClock]:
    clock = FrozenClock()
    return EventBus(clock), clock


def text(bus: EventBus, agent_id: str, delta: str, iteration: int = 1) -> TextDelta:
    return bus.emit(TextDelta, agent_id, iteration=iteration, delta=delta)


def thinking(bus: EventBus, agent_id: str, delta: str, iteration: int = 1) -> ThinkingDelta:
    return bus.emit(ThinkingDelta, agent_id, iteration=iteration, delta=delta)


def state(bus: EventBus, agent_id: str, new: str = "running") -> StatusChanged:
    return bus.emit(StatusChanged, agent_id, old="pending", new=new, reason="test")


def shape(events: list[Event]) -> list[tuple[Any, ...]]:
    """What a reader sees, without seq and ts."""
    out: list[tuple[Any, ...]] = []
    for event in events:
        if isinstance(event, TextDelta | ThinkingDelta):
            out.append((event.agent_id, event.type, event.iteration, event.delta))
        else:
            out.append((event.agent_id, event.type))
    return out


def merged_runs(events: list[Event], agent_id: str) -> list[tuple[Any, ...]]:
    """One agent's events with consecutive deltas of the same kind and iteration joined."""
    out: list[tuple[Any, ...]] = []
    for item in shape([e for e in events if e.agent_id == agent_id]):
        if len(item) == 4 and out and len(out[-1]) == 4 and out[-1][1:3] == item[1:3]:
            out[-1] = (*out[-1][:3], out[-1][3] + item[3])
        else:
            out.append(item)
    return out


# -- seq and delivery ----------------------------------------------------------------------


def test_seq_grows_by_one_per_event_and_ts_comes_from_the_clock() -> None:
    bus, clock = new_bus()
    sub = bus.subscribe(maxsize=None)
    start = clock.now()
    assert bus.last_seq == 0
    emitted: list[Event] = []
    for i in range(50):
        agent_id = f"a{i % 3}"
        emitted.append(text(bus, agent_id, "x") if i % 2 else state(bus, agent_id))
        clock.advance(1.5)
    assert [e.seq for e in emitted] == list(range(1, 51))
    assert bus.last_seq == 50
    received = sub.drain()
    assert received == emitted
    assert [e.ts for e in received] == [start + 1.5 * i for i in range(50)]


def test_emit_with_no_subscriber_still_numbers_events() -> None:
    bus, _ = new_bus()
    state(bus, "a1")
    state(bus, "a1")
    sub = bus.subscribe()
    event = state(bus, "a1")
    assert event.seq == 3
    assert sub.drain() == [event]


def test_each_subscriber_has_its_own_stream() -> None:
    bus, _ = new_bus()
    early = bus.subscribe(maxsize=None)
    first = [text(bus, "a1", "one"), state(bus, "a1"), text(bus, "a2", "two")]
    late = bus.subscribe(maxsize=None)
    second = [state(bus, "a2"), text(bus, "a1", "three")]

    assert late.drain() == second  # only what came after it subscribed
    assert late.drain() == []
    assert early.drain() == first + second  # unaffected by the other reader
    state(bus, "a3")
    assert len(early) == 1 and len(late) == 1


def test_coalescing_in_one_subscription_does_not_touch_another() -> None:
    bus, _ = new_bus()
    tight = bus.subscribe(maxsize=1)
    lossless = bus.subscribe(maxsize=None)
    pieces = ["al", "pha", " be", "ta"]
    emitted = [text(bus, "a1", piece) for piece in pieces]
    assert [e.delta for e in lossless.drain()] == pieces
    assert lossless.coalesced == 0
    [merged] = tight.drain()
    assert merged.delta == "alpha beta"  # type: ignore[attr-defined]
    assert tight.coalesced == 3
    assert emitted[0].delta == "al"  # the shared event itself is never changed


def test_maxsize_must_be_positive_or_none() -> None:
    bus, _ = new_bus()
    for bad in (0, -1):
        with pytest.raises(ValueError):
            bus.subscribe(maxsize=bad)
    unbounded = bus.subscribe(maxsize=None)
    state(bus, "a1")
    assert len(unbounded) == 1


# -- the full-stream policy ----------------------------------------------------------------


def test_below_the_bound_every_event_is_queued_as_is() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=5)
    emitted = [text(bus, "a1", c) for c in "abcd"]  # 4 < 5: no merging yet
    assert sub.drain() == emitted
    assert sub.coalesced == 0


def test_past_the_bound_deltas_merge_into_the_newest_pending_delta() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=2)
    s1 = state(bus, "a1")
    d1 = text(bus, "a1", "Hel")  # fills the queue to the bound
    text(bus, "a1", "lo, ")  # merged into d1
    text(bus, "a1", "world")  # merged into d1
    s2 = state(bus, "a1")  # a state event: queued past the bound
    d2 = text(bus, "a1", "next")  # cannot merge across s2: queued
    text(bus, "a1", " part")  # merged into d2
    assert len(sub) == 4
    assert sub.coalesced == 3

    out = sub.drain()
    assert shape(out) == [
        ("a1", "agent:status"),
        ("a1", "text:delta", 1, "Hello, world"),
        ("a1", "agent:status"),
        ("a1", "text:delta", 1, "next part"),
    ]
    assert [e.seq for e in out] == [s1.seq, d1.seq, s2.seq, d2.seq]  # first piece's seq kept
    assert out[1].seq + 3 == out[2].seq  # the reader sees the gap left by merged pieces


def test_deltas_of_different_iterations_or_kinds_are_not_merged() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=1)
    text(bus, "a1", "one", iteration=1)
    text(bus, "a1", "two", iteration=2)  # another iteration: queued
    text(bus, "a1", "!", iteration=2)  # merged into "two"
    thinking(bus, "a1", "hmm", iteration=2)  # another kind: queued
    thinking(bus, "a1", "m", iteration=2)  # merged into "hmm"
    text(bus, "a1", "three", iteration=2)  # newest pending is a thinking delta: queued
    assert shape(sub.drain()) == [
        ("a1", "text:delta", 1, "one"),
        ("a1", "text:delta", 2, "two!"),
        ("a1", "thinking:delta", 2, "hmmm"),
        ("a1", "text:delta", 2, "three"),
    ]
    assert sub.coalesced == 2


def test_the_deltas_share_a_typed_base_and_keep_their_json() -> None:
    # Session logs and the HTTP API read these lines: the base class adds no field, and
    # reorders none.
    assert issubclass(TextDelta, DeltaEvent) and issubclass(ThinkingDelta, DeltaEvent)
    bus, _ = new_bus()
    assert text(bus, "a1", "Hi", iteration=2).model_dump_json() == (
        '{"type":"text:delta","seq":1,"ts":1767225600.0,"agent_id":"a1","iteration":2,"delta":"Hi"}'
    )
    assert thinking(bus, "a1", "hm").model_dump_json() == (
        '{"type":"thinking:delta","seq":2,"ts":1767225600.0,"agent_id":"a1","iteration":1,"delta":"hm"}'
    )


def test_a_merged_delta_keeps_its_class() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=1)
    thinking(bus, "a1", "a")
    thinking(bus, "a1", "b")  # merged into "a"
    [merged] = sub.drain()
    assert type(merged) is ThinkingDelta and merged.delta == "ab"


def test_deltas_merge_per_agent_and_keep_each_agents_order() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=2)
    text(bus, "a1", "x1")
    text(bus, "a2", "y1")
    text(bus, "a1", "x2")  # merged into a1's newest pending delta, past a2's
    text(bus, "a3", "z1")  # no pending event of a3: queued
    text(bus, "a2", "y2")
    text(bus, "a3", "z2")
    assert shape(sub.drain()) == [
        ("a1", "text:delta", 1, "x1x2"),
        ("a2", "text:delta", 1, "y1y2"),
        ("a3", "text:delta", 1, "z1z2"),
    ]


@pytest.mark.anyio
async def test_a_popped_delta_is_not_the_merge_target() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=1)
    first = text(bus, "a1", "first")
    state(bus, "a2")  # queued past the bound: 2 pending
    assert await sub.get() == first  # a1's delta is handed out; 1 pending, still at the bound
    late = text(bus, "a1", "late")  # must not be merged into the delta already read
    assert sub.coalesced == 0
    assert shape(sub.drain()) == [("a2", "agent:status"), ("a1", "text:delta", 1, "late")]
    assert late.delta == "late"


def test_state_events_are_never_dropped_past_the_bound() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=3)
    emitted = []
    for i in range(40):
        emitted.append(state(bus, f"a{i % 4}", new=f"s{i}"))
        emitted.append(bus.emit(IterationStarted, f"a{i % 4}", iteration=i))
    assert len(sub) == 80
    assert sub.drain() == emitted
    assert sub.coalesced == 0


def test_past_the_bound_at_most_one_delta_per_agent_beyond_the_state_events() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=3)
    for piece in ("a", "b", "c"):
        text(bus, "a1", piece)  # reach the bound with the first three pieces
    expected = {"a1": "abc", "a2": "", "a3": ""}
    for i in range(1000):
        agent_id = f"a{i % 3 + 1}"
        text(bus, agent_id, str(i % 10))
        expected[agent_id] += str(i % 10)
    assert len(sub) == 3 + 2  # a2 and a3 got one pending delta each
    assert sub.coalesced == 1000 - 2
    out = sub.drain()
    for agent_id, full in expected.items():
        assert "".join(e.delta for e in out if e.agent_id == agent_id) == full  # type: ignore[attr-defined]


def test_mixed_stream_loses_no_text_and_keeps_per_agent_order() -> None:
    rng = random.Random(7)
    bus, _ = new_bus()
    tight = bus.subscribe(maxsize=4)
    lossless = bus.subscribe(maxsize=None)
    agents = ["a1", "a2", "a3"]
    iteration = dict.fromkeys(agents, 1)
    for i in range(3000):
        agent_id = rng.choice(agents)
        roll = rng.random()
        if roll < 0.75:
            text(bus, agent_id, f"<{i}>", iteration[agent_id])
        elif roll < 0.85:
            thinking(bus, agent_id, f"({i})", iteration[agent_id])
        elif roll < 0.95:
            state(bus, agent_id)
        else:
            iteration[agent_id] += 1
            bus.emit(IterationStarted, agent_id, iteration=iteration[agent_id])
    sent = lossless.drain()
    got = tight.drain()
    assert tight.coalesced > 0
    assert lossless.coalesced == 0
    assert len(got) == len(sent) - tight.coalesced
    seqs = [e.seq for e in got]
    assert seqs == sorted(set(seqs))  # still strictly increasing, gaps allowed
    non_deltas = [e for e in sent if not isinstance(e, TextDelta | ThinkingDelta)]
    assert [e for e in got if not isinstance(e, TextDelta | ThinkingDelta)] == non_deltas
    for agent_id in agents:
        assert merged_runs(got, agent_id) == merged_runs(sent, agent_id)


def test_maxsize_none_never_coalesces() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    emitted = [text(bus, "a1", str(i % 10)) for i in range(5000)]
    assert len(sub) == 5000
    assert sub.coalesced == 0
    assert sub.drain() == emitted


def test_publishing_never_blocks_without_a_reader() -> None:
    bus, _ = new_bus()
    bounded = bus.subscribe()  # the default bound
    lossless = bus.subscribe(maxsize=None)
    total = 100_000
    states = 0
    for i in range(total):  # synchronous: emit cannot wait for a reader
        if i % 1000 == 0:
            state(bus, "a1")
            states += 1
        else:
            text(bus, "a1", "x")
    assert bus.last_seq == total
    assert len(lossless) == total
    assert len(bounded) <= 4096 + 2 * states  # bounded: one delta after each state event
    assert len(bounded) + bounded.coalesced == total
    out = bounded.drain()
    assert sum(len(e.delta) for e in out if isinstance(e, TextDelta)) == total - states
    assert sum(isinstance(e, StatusChanged) for e in out) == states


# -- reading: get, next_batch, close -----------------------------------------------------


@pytest.mark.anyio
async def test_next_batch_returns_everything_pending() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    emitted = [text(bus, "a1", "a"), state(bus, "a1"), text(bus, "a2", "b")]
    assert await sub.next_batch() == emitted
    assert len(sub) == 0

    batches: list[list[Event]] = []

    async def reader() -> None:
        batches.append(await sub.next_batch())

    async with anyio.create_task_group() as tg:
        tg.start_soon(reader)
        await anyio.wait_all_tasks_blocked()  # the reader waits on an empty queue
        assert batches == []
        later = [state(bus, "a1"), text(bus, "a1", "c")]
    assert batches == [later]  # woken once, it takes both


@pytest.mark.anyio
async def test_wait_for_wakes_only_for_the_event_it_picks_and_on_close() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    woken: list[int] = []

    def is_status(event: Event) -> bool:
        return event.type == "agent:status"

    async def waiter() -> None:
        await sub.wait_for(is_status)
        woken.append(len(sub))

    async with anyio.create_task_group() as tg:
        tg.start_soon(waiter)
        await anyio.wait_all_tasks_blocked()
        text(bus, "a1", "a")
        text(bus, "a1", "b")
        await anyio.wait_all_tasks_blocked()
        assert woken == []  # deltas queue without waking it
        state(bus, "a1")
    assert woken == [3]
    assert shape(sub.drain()) == [
        ("a1", "text:delta", 1, "a"),
        ("a1", "text:delta", 1, "b"),
        ("a1", "agent:status"),
    ]
    # Picked already pending: no wait. Afterwards any event wakes next_batch again.
    state(bus, "a1")
    with anyio.fail_after(5):  # safety net only
        await sub.wait_for(is_status)
        async with anyio.create_task_group() as tg:
            batches: list[list[Event]] = []

            async def reader() -> None:
                batches.append(await sub.next_batch())

            sub.drain()
            tg.start_soon(reader)
            await anyio.wait_all_tasks_blocked()
            text(bus, "a1", "c")
        assert shape(batches[0]) == [("a1", "text:delta", 1, "c")]
        async with anyio.create_task_group() as tg:
            tg.start_soon(waiter)
            await anyio.wait_all_tasks_blocked()
            sub.close()  # a closed subscription ends the wait
    assert woken == [3, 0]


@pytest.mark.anyio
async def test_close_ends_async_for_after_what_was_queued() -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    seen: list[Event] = []
    ended = anyio.Event()

    async def reader() -> None:
        async for event in sub:
            seen.append(event)
        ended.set()

    with anyio.fail_after(5):  # safety net only
        async with anyio.create_task_group() as tg:
            tg.start_soon(reader)
            first = state(bus, "a1")
            await anyio.wait_all_tasks_blocked()
            assert seen == [first]
            queued = [text(bus, "a1", "tail"), state(bus, "a1")]
            sub.close()  # still pending events are delivered, then iteration ends
            await ended.wait()
    assert seen == [first, *queued]
    assert sub.closed
    state(bus, "a1")  # after close nothing more arrives
    assert len(sub) == 0
    assert await sub.next_batch() == []
    with pytest.raises(anyio.EndOfStream):
        await sub.get()


@pytest.mark.anyio
async def test_bus_close_ends_every_subscription() -> None:
    bus, _ = new_bus()
    subs = [bus.subscribe(), bus.subscribe(maxsize=None), bus.subscribe(maxsize=1)]
    state(bus, "a1")
    bus.close()
    for sub in subs:
        assert sub.closed
        assert [e.type async for e in sub] == ["agent:status"]
        assert await sub.next_batch() == []
    state(bus, "a1")
    assert all(len(sub) == 0 for sub in subs)


# -- parsing -------------------------------------------------------------------------------


def _event_classes() -> list[type[Event]]:
    union = typing.get_args(AnyEvent)[0]
    return list(typing.get_args(union))


CALL = ToolCallInfo(id="toolu_0001", name="lookup", arguments={"query": "ports", "n": [1, 2]})
USAGE = Usage(input_tokens=10, output_tokens=5, cache_read_input_tokens=2)
SAMPLE_FIELDS: dict[str, dict[str, Any]] = {
    "execution:start": {"execution_id": "x1", "task": "do it", "run": 2},
    "execution:complete": {
        "execution_id": "x1",
        "result": "done",
        "iterations": 3,
        "duration_s": 1.25,
        "stop_reason": "end_turn",
    },
    "execution:error": {"execution_id": "x1", "error": "boom", "kind": "provider"},
    "execution:paused": {"reason": "paused by the person"},
    "execution:resumed": {},
    "execution:cancelled": {"reason": "enough", "partial_text": "half an ans"},
    "iteration:start": {"iteration": 2},
    "iteration:complete": {"iteration": 2, "tool_calls": 1},
    "llm:request": {
        "iteration": 1,
        "model": "scripted-1",
        "message_count": 3,
        "tool_names": ["ask_user", "lookup"],
    },
    "llm:response": {
        "iteration": 1,
        "text": "hello",
        "stop_reason": "tool_use",
        "tool_calls": [CALL],
        "usage": USAGE,
        "duration_s": 0.5,
        "skipped": True,
    },
    "llm:error": {"iteration": 1, "error": "overloaded", "retryable": True},
    "llm:abandoned": {"iteration": 1, "reason": "paused mid-response", "partial_text": "Hal"},
    "text:delta": {"iteration": 1, "delta": "Hel"},
    "thinking:delta": {"iteration": 1, "delta": "Hmm"},
    "thinking:redacted": {"iteration": 1},
    "tool:detected": {"iteration": 1, "calls": [CALL]},
    "tool:start": {"iteration": 1, "call": CALL},
    "tool:complete": {
        "iteration": 1,
        "call_id": "toolu_0001",
        "name": "lookup",
        "result": "8080",
        "mocked": True,
        "duration_s": 0.1,
    },
    "tool:error": {"iteration": 1, "call_id": "toolu_0001", "name": "lookup", "error": "bad"},
    "tool:timeout": {"iteration": 1, "call_id": "toolu_0001", "name": "lookup", "timeout_s": 30.0},
    "tool:progress": {
        "iteration": 1,
        "call_id": "toolu_0001",
        "name": "lookup",
        "progress": 2.0,
        "total": 3.0,
        "message": "step two",
    },
    "hook:error": {"hook": "before:llm", "error": "RuntimeError: x"},
    "agent:spawned": {"parent_id": "a1", "name": "main.1", "task": "sub task", "profile": "critic"},
    "agent:status": {"old": "running", "new": "paused", "reason": "paused by the person"},
    "query:raised": {
        "query_id": "q1",
        "prompt": "Allow python to run?",
        "kind": "approval",
        "tool": "python",
        "arguments": {"code": "print(1)"},
        "choices": ["once", "always", "reject"],
    },
    "query:answered": {"query_id": "q1", "answer": "8080"},
    "query:declined": {"query_id": "q1", "reason": "declined by the person"},
    "approval:decided": {
        "tool": "python",
        "call_id": "toolu_0001",
        "decision": "reject",
        "reason": "not today",
        "query_id": "q1",
        "source": "person",
    },
    "intervention:applied": {"kind": "modify", "detail": "task", "content": "new task"},
    "note:queued": {"text": "hi", "note_id": "n-1", "from_person": True},
    "note:delivered": {"note_ids": ["n-1"], "modified": ["task"]},
    "intervention:unused": {"note_ids": ["n-2"], "modified": ["instructions"]},
    "usage:updated": {"delta": USAGE, "total": USAGE + USAGE},
    "budget:set": {"budget": {"tokens": 5000.0, "usd": 2.0}, "source": "person"},
    "budget:stop": {
        "measure": "tokens",
        "limit": 5000.0,
        "spent": 5120.0,
        "over": 120.0,
        "stopped_agent": "a7",
        "paused": ["a7"],
    },
    "budget:continue": {},
    "agent:stalled": {"since": 1.5, "after_s": 300.0},
    "agent:rewound": {"step": 3, "step_seq": 42, "set_aside": ["a9"]},
    "agent:forked": {"origin_id": "a1", "origin_name": "main", "step": 3, "session": "s-1"},
    "conversation:changed": {
        "keep": 1,
        "append": [user_text("and then [bold]this[/bold]")],
        "instructions": "Be brief.",
    },
    "monologue": {
        "entry": NarrativeEntry(
            timestamp=1.5,
            agent_name="main",
            task_id="a1",
            text="I found the config and I'm fixing the port now.",
            metadata=NarrativeMetadata(
                event_count=4, history_length=2, is_final=False, model="haiku", latency_ms=12.5
            ),
        ),
        "usage": USAGE,
    },
    "monologue:error": {"error": "narrator timed out"},
    "mcp:server": {
        "server": "docs",
        "state": "failed",
        "tools": [],
        "error": "the server closed the connection",
        "retry_in_s": 2.0,
    },
    "run:resumed": {"session_id": "20261124T040000Z-ab12"},
    "session:error": {
        "path": "/data/sessions/20261124T040000Z-ab12.jsonl",
        "error": "cannot write /data/sessions/20261124T040000Z-ab12.jsonl: No space left on device",
        "reason": "No space left on device",
        "saved_until": 1.5,
    },
    "workflow:step": {"step": 3, "name": "subquestions"},
    "answer:validated": {
        "profile": "critic",
        "attempt": 1,
        "attempts": 3,
        "ok": False,
        "errors": ["$.score: 'high' is not of type 'integer'"],
        "payload": {"score": [1, "two", None]},
    },
    "workflow:deciding": {"decision": "clarify", "attempt": 2},
    "workflow:decision": {
        "decision": "clarify",
        "attempt": 1,
        "ok": True,
        "value": {"ambiguous": True, "question": "Which city?"},
    },
    "workflow:result": {
        "report": WorkflowReport(
            answer="Lisbon it is.",
            children=[
                ChildReport(id="a2", name="main.1", task="venues", status="completed", result="x")
            ],
            questions=[QuestionReport(step="clarify", question="Which city?", answer="Lisbon")],
            usage=USAGE,
            total_usage=USAGE + USAGE,
            duration_s=1.5,
            interventions=["steer"],
        )
    },
    "scene:start": {
        "scene": {
            "title": "Harbour",
            "characters": [{"name": "Mara"}, {"name": "Ines", "active": False}],
        },
        "source": "harbour.toml",
        "continues": "a1",
    },
    "round:start": {"round": 2, "request": "user_input", "text": "Open it.", "resumed": True},
    "director:start": {"round": 2, "director_pass": 1, "director_id": "a8"},
    "director:complete": {
        "round": 2,
        "director_pass": 1,
        "director_id": "a8",
        "decision": DirectorDecision(
            acting_characters=[ActingCharacter(name="Mara", guidance="Say no.", priority=1)],
            activations=[Activation(name="Ines", entry_guidance="Knock.")],
            open_guidance="Keep it short.",
        ),
        "turns": [PlannedTurn(name="Mara", guidance=CharacterGuidance(directive="Say no."))],
        "leaving": {"Mara": "Go up to the lamp."},
        "ignored": ["acting_characters[1]: no character named 'Bob' in this scene"],
    },
    "character:start": {
        "round": 2,
        "director_pass": 1,
        "name": "Mara",
        "character_id": "a9",
        "guidance": CharacterGuidance(directive="Say no.", exit="Go up to the lamp."),
    },
    "character:complete": {
        "round": 2,
        "director_pass": 1,
        "name": "Mara",
        "character_id": "a9",
        "ended": "completed",
        "text": "*Mara smiles.* No.",
    },
    "state:updated": {
        "round": 2,
        "character": "Mara",
        "changes": {"mood": "amused"},
        "source": "inferred",
    },
    "character:activated": {
        "round": 2,
        "director_pass": 1,
        "name": "Ines",
        "entry_guidance": "Knock.",
    },
    "character:deactivated": {
        "round": 2,
        "director_pass": 1,
        "name": "Mara",
        "exit_guidance": "Go up to the lamp.",
    },
    "round:complete": {
        "round": 2,
        "ended": "closed",
        "director_passes": 2,
        "acted": ["Mara"],
        "entered": ["Ines"],
        "exited": ["Mara"],
        "running_summary": "Round 1: the person knocked.",
    },
}


def test_samples_cover_every_event_type() -> None:
    types = {cls.model_fields["type"].default for cls in _event_classes()}
    assert types == set(SAMPLE_FIELDS)
    assert len(types) == len(_event_classes())  # no two classes share a type


@pytest.mark.parametrize("cls", _event_classes(), ids=lambda cls: cls.__name__)
def test_parse_event_round_trips_every_type(cls: type[Event]) -> None:
    bus, _ = new_bus()
    sub = bus.subscribe(maxsize=None)
    type_name = cls.model_fields["type"].default
    event = bus.emit(cls, "a7", **SAMPLE_FIELDS[type_name])
    assert sub.drain() == [event]

    line = event.model_dump_json()
    assert json.loads(line)["type"] == type_name
    from_json = parse_event(line)
    assert type(from_json) is cls
    assert from_json == event
    assert parse_event(line.encode()) == event
    from_dict = parse_event(json.loads(line))
    assert type(from_dict) is cls
    assert from_dict == event
    assert from_dict.model_dump() == event.model_dump()


def test_parse_event_rejects_an_unknown_type() -> None:
    with pytest.raises(ValueError):
        parse_event({"type": "no:such", "seq": 1, "ts": 0.0, "agent_id": "a1"})
