"""The screen's fold of events: what the widgets are told to redraw."""

from __future__ import annotations

from agentui.core import events as ev
from agentui.core.clock import FrozenClock
from agentui.core.events import EventBus
from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
from agentui.core.usage import Usage
from agentui.tui.view_model import RunViewModel


def test_deltas_grow_one_entry_per_iteration_and_kind() -> None:
    bus = EventBus(FrozenClock())
    sub = bus.subscribe(maxsize=None)
    bus.emit(ev.AgentSpawned, "a1", parent_id=None, name="main", task="t")
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="hm")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="Hel")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="lo")
    bus.emit(ev.TextDelta, "a1", iteration=2, delta="Again")
    model = RunViewModel()
    changes = model.apply(sub.drain())
    kinds = [(e.kind, e.text) for e in model.agents["a1"].entries]
    assert kinds == [("task", "t"), ("thinking", "hm"), ("text", "Hello"), ("text", "Again")]
    assert changes.added == ["a1"]
    assert len(changes.new_entries) == 4


def test_a_tool_result_updates_its_entry_and_reports_it_changed() -> None:
    bus = EventBus(FrozenClock())
    sub = bus.subscribe(maxsize=None)
    bus.emit(ev.AgentSpawned, "a1", parent_id=None, name="main", task="t")
    call = ev.ToolCallInfo(id="c1", name="add", arguments={"a": 1})
    bus.emit(ev.ToolStarted, "a1", iteration=1, call=call)
    model = RunViewModel()
    model.apply(sub.drain())
    bus.emit(ev.ToolCompleted, "a1", iteration=1, call_id="c1", name="add", result="2")
    changes = model.apply(sub.drain())
    tool = model.agents["a1"].entries[-1]
    assert (tool.kind, tool.text, tool.detail) == ("tool", "a=1", "2")
    assert changes.changed_entries == {tool.uid}


def test_questions_open_and_close_with_their_answer() -> None:
    bus = EventBus(FrozenClock())
    sub = bus.subscribe(maxsize=None)
    bus.emit(ev.AgentSpawned, "a1", parent_id=None, name="main", task="t")
    bus.emit(ev.QueryRaised, "a1", query_id="q1", prompt="Which city?", kind="question")
    model = RunViewModel()
    changes = model.apply(sub.drain())
    assert changes.new_queries == ["q1"] and model.open_queries == {"q1": "a1"}
    bus.emit(ev.QueryAnswered, "a1", query_id="q1", answer="Lisbon")
    changes = model.apply(sub.drain())
    question = model.agents["a1"].entries[-1]
    assert (question.open, question.detail) == (False, "Lisbon")
    assert changes.closed_queries == ["q1"] and not model.open_queries


def test_cost_tokens_errors_and_narratives_are_totalled() -> None:
    bus = EventBus(FrozenClock())
    sub = bus.subscribe(maxsize=None)
    bus.emit(ev.AgentSpawned, "a1", parent_id=None, name="main", task="t")
    usage = Usage(input_tokens=10, output_tokens=5)
    bus.emit(ev.UsageUpdated, "a1", delta=usage, total=usage, cost_usd=0.5, total_cost_usd=0.5)
    bus.emit(ev.ExecutionFailed, "a1", execution_id="x1", error="boom", kind="provider")
    entry = NarrativeEntry(
        timestamp=0.0,
        agent_name="main",
        task_id="a1",
        text="I failed.",
        metadata=NarrativeMetadata(
            event_count=1, history_length=0, is_final=True, model="m", latency_ms=1.0
        ),
    )
    bus.emit(ev.MonologueGenerated, "a1", entry=entry, usage=Usage(output_tokens=7))
    model = RunViewModel()
    changes = model.apply(sub.drain())
    agent = model.agents["a1"]
    assert (agent.tokens, agent.cost_usd, agent.error) == (15, 0.5, "boom")
    assert model.last_error == ("main", "boom")
    assert changes.narratives == [("a1", entry)] and model.narrator_tokens == 7
