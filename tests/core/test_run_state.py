"""The one fold (core/state): the run's state from events, and what each batch changed."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentui.core.bus import EventBus, Subscription
from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
from agentui.core.protocol import events as ev
from agentui.core.protocol.usage import Usage
from agentui.core.state import RunState
from agentui.core.state.transcript import TranscriptItem
from agentui.core.support.clock import FrozenClock
from agentui.core.support.growing_text import JOIN_EVERY, GrowingText


def one_agent() -> tuple[EventBus, Subscription]:
    """A bus on which agent a1 ("main", task "t") was spawned, and a subscription from before."""
    bus = EventBus(FrozenClock())
    sub = bus.subscribe(maxsize=None)
    bus.emit(ev.AgentSpawned, "a1", parent_id=None, name="main", task="t")
    return bus, sub


def folded(sub: Subscription) -> RunState:
    model = RunState()
    model.apply_all(sub.drain())
    return model


def test_deltas_grow_one_entry_per_iteration_and_kind() -> None:
    bus, sub = one_agent()
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="hm")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="Hel")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="lo")
    bus.emit(ev.TextDelta, "a1", iteration=2, delta="Again")
    model = RunState()
    changes = model.apply_all(sub.drain())
    kinds = [(e.kind, e.text) for e in model.agents["a1"].entries]
    assert kinds == [("task", "t"), ("thinking", "hm"), ("text", "Hello"), ("text", "Again")]
    assert changes.added == ["a1"]
    assert len(changes.new_entries) == 4


def test_a_tool_result_updates_its_entry_and_reports_it_changed() -> None:
    bus, sub = one_agent()
    call = ev.ToolCallInfo(id="c1", name="add", arguments={"a": 1})
    bus.emit(ev.ToolStarted, "a1", iteration=1, call=call)
    model = folded(sub)
    bus.emit(ev.ToolCompleted, "a1", iteration=1, call_id="c1", name="add", result="2")
    changes = model.apply_all(sub.drain())
    tool = model.agents["a1"].entries[-1]
    assert (tool.kind, tool.text, tool.detail) == ("tool", "a=1", "2")
    assert changes.changed_entries == {tool.uid}


def test_questions_open_and_close_with_their_answer() -> None:
    bus, sub = one_agent()
    bus.emit(ev.QueryRaised, "a1", query_id="q1", prompt="Which city?", kind="question")
    model = RunState()
    changes = model.apply_all(sub.drain())
    assert changes.new_queries == ["q1"] and model.open_queries["q1"].agent_id == "a1"
    bus.emit(ev.QueryAnswered, "a1", query_id="q1", answer="Lisbon")
    changes = model.apply_all(sub.drain())
    question = model.agents["a1"].entries[-1]
    assert (question.open, question.detail) == (False, "Lisbon")
    assert changes.closed_queries == ["q1"] and not model.open_queries


def test_cost_tokens_errors_and_narratives_are_totalled() -> None:
    bus, sub = one_agent()
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
    model = RunState()
    changes = model.apply_all(sub.drain())
    agent = model.agents["a1"]
    assert (agent.tokens, agent.cost_usd, agent.error) == (15, 0.5, "boom")
    assert model.last_error == ("main", "boom")
    assert changes.narratives == [("a1", entry)] and model.narrator_tokens == 7


def test_an_abandoned_attempt_stays_cut_and_the_new_one_streams_apart() -> None:
    bus, sub = one_agent()
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="first tho")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="Half an ans")
    bus.emit(ev.LLMAbandoned, "a1", iteration=1, reason="paused", partial_text="Half an ans")
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="again")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="A whole answer")
    model = folded(sub)
    shown = [(e.kind, e.text, e.interrupted) for e in model.agents["a1"].entries[1:]]
    assert shown == [
        ("thinking", "first tho", False),  # it had ended: the text was being streamed
        ("text", "Half an ans", True),
        ("notice", "paused; asking the model again", False),
        ("thinking", "again", False),
        ("text", "A whole answer", False),
    ]


def test_an_attempt_abandoned_while_thinking_has_its_thinking_cut() -> None:
    bus, sub = one_agent()
    bus.emit(ev.LLMRequested, "a1", iteration=1, model="m", message_count=1, tool_names=[])
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="first tho")
    bus.emit(ev.LLMAbandoned, "a1", iteration=1, reason="paused")
    bus.emit(ev.LLMRequested, "a1", iteration=1, model="m", message_count=1, tool_names=[])
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="again")
    model = folded(sub)
    shown = [(e.kind, e.text, e.interrupted) for e in model.agents["a1"].entries[1:]]
    assert shown == [
        ("thinking", "first tho", True),
        ("notice", "paused; asking the model again", False),
        ("thinking", "again", False),
    ]


def test_redacted_thinking_is_an_entry_of_its_own() -> None:
    bus, sub = one_agent()
    bus.emit(ev.ThinkingRedacted, "a1", iteration=1)
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="visible")
    model = folded(sub)
    redacted, visible = model.agents["a1"].entries[1:]
    assert (redacted.kind, redacted.title) == ("thinking", "redacted")
    assert (visible.kind, visible.text, visible.title) == ("thinking", "visible", "")


def test_an_approval_closes_with_its_decision() -> None:
    bus, sub = one_agent()
    for query_id in ("q1", "q2"):
        bus.emit(
            ev.QueryRaised,
            "a1",
            query_id=query_id,
            prompt="Allow python to run?",
            kind="approval",
            tool="python",
        )
    bus.emit(ev.QueryAnswered, "a1", query_id="q1", answer="allowed once")
    bus.emit(ev.QueryDeclined, "a1", query_id="q2", reason="rejected: too risky")
    model = folded(sub)
    allowed, rejected = model.agents["a1"].entries[1:]
    assert (allowed.tool, allowed.detail, allowed.failed) == ("python", "allowed once", False)
    assert (rejected.detail, rejected.failed) == ("rejected: too risky", True)


def test_a_failure_of_a_later_call_leaves_the_finished_response_alone() -> None:
    bus, sub = one_agent()
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="A finished answer")
    bus.emit(ev.LLMAbandoned, "a1", iteration=2, reason="paused")
    bus.emit(ev.LLMFailed, "a1", iteration=2, error="overloaded", retryable=True)
    model = folded(sub)
    answer = model.agents["a1"].entries[1]
    assert (answer.text, answer.interrupted) == ("A finished answer", False)


def test_a_failed_hidden_decision_call_cuts_no_text() -> None:
    bus, sub = one_agent()
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="The answer")
    bus.emit(ev.LLMFailed, "a1", iteration=1, error="overloaded", retryable=True, streamed=False)
    model = folded(sub)
    answer, error = model.agents["a1"].entries[1:]
    assert (answer.text, answer.interrupted) == ("The answer", False)
    assert error.text == "overloaded (retrying)"


def test_an_agent_failing_with_the_error_its_model_call_gave_up_on_says_it_once() -> None:
    bus, sub = one_agent()
    unreachable = "cannot reach the API at https://api.anthropic.com"
    bus.emit(ev.LLMFailed, "a1", iteration=1, error=unreachable, retryable=False)
    bus.emit(ev.ExecutionFailed, "a1", execution_id="x1", error=unreachable, kind="provider")
    model = folded(sub)
    shown = [(e.kind, e.title, e.text) for e in model.agents["a1"].entries[1:]]
    assert shown == [("error", "model error", f"{unreachable} (giving up; the agent failed)")]


def test_an_agent_failing_otherwise_after_a_given_up_model_call_says_both() -> None:
    bus, sub = one_agent()
    bus.emit(ev.LLMFailed, "a1", iteration=1, error="no JSON (decision)", retryable=False)
    bus.emit(ev.ExecutionFailed, "a1", execution_id="x1", error="limit: 3 calls", kind="calls")
    model = folded(sub)
    shown = [(e.title, e.text) for e in model.agents["a1"].entries[1:]]
    assert shown == [("model error", "no JSON (decision) (giving up)"), ("error", "limit: 3 calls")]


def test_a_notice_mid_stream_does_not_split_the_answer() -> None:
    bus, sub = one_agent()
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="lorem ipsum dol")
    bus.emit(ev.InterventionApplied, "a1", kind="modify", detail="task", content="new content")
    bus.emit(ev.StatusChanged, "a1", old="running", new="modified", reason="modified: new task")
    bus.emit(ev.StatusChanged, "a1", old="modified", new="paused", reason="paused by the person")
    bus.emit(ev.StatusChanged, "a1", old="paused", new="modified", reason="resumed by the person")
    bus.emit(ev.StatusChanged, "a1", old="modified", new="modified", reason="answered")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="or sit amet")
    model = folded(sub)
    shown = [(e.kind, e.text) for e in model.agents["a1"].entries[1:]]
    # One notice, naming what changed (never "modified: answered" or a resume).
    assert shown == [
        ("text", "lorem ipsum dolor sit amet"),
        ("notice", "new task, from its next model call: new content"),
    ]
    assert model.agents["a1"].task == "new content", "the tree shows the new task at once"


def test_a_steer_mid_stream_does_not_split_a_word_of_the_thinking_or_the_answer() -> None:
    bus, sub = one_agent()
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="cheap in spr")
    bus.emit(ev.NoteQueued, "a1", text="under 500", note_id="n1", from_person=True)
    bus.emit(ev.ThinkingDelta, "a1", iteration=1, delta="ing, then")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="take the tr")
    bus.emit(ev.NoteQueued, "a1", text="by bus", note_id="n2", from_person=True)
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="ain")
    model = folded(sub)
    shown = [(e.kind, e.text) for e in model.agents["a1"].entries[1:]]
    assert shown == [
        ("thinking", "cheap in spring, then"),
        ("steer", "under 500"),
        ("text", "take the train"),
        ("steer", "by bus"),
    ]


@given(st.lists(st.tuples(st.text(max_size=6), st.booleans()), max_size=2000))
def test_streamed_text_is_whole_however_often_it_is_read(pieces: list[tuple[str, bool]]) -> None:
    item = TranscriptItem("a1", "text", "")
    expected = ""
    for piece, read in pieces:
        item.append_text(piece)
        expected += piece
        if read:
            assert item.text == expected
    assert item.text == expected


def test_an_unread_answer_is_held_in_few_strings() -> None:
    """An agent off screen is never read: its pieces are joined as they come, not kept."""
    text = GrowingText()
    for _ in range(100_000):
        text.append("abcd")
    assert text.pieces <= 1 + 100_000 // JOIN_EVERY + JOIN_EVERY  # joined + loose
    assert text.value == "abcd" * 100_000


@given(
    st.lists(st.text(max_size=9), max_size=700),
    st.lists(st.tuples(st.integers(0, 2000), st.integers(0, 2000) | st.none()), max_size=20),
    st.integers(0, 700),
)
def test_a_part_or_the_length_of_a_growing_text_is_what_the_whole_would_give(
    pieces: list[str], spans: list[tuple[int, int | None]], read_at: int
) -> None:
    """Read while it grows (the whole joined or not, before or after JOIN_EVERY pieces)."""
    text, whole = GrowingText("start "), "start "
    for number, piece in enumerate(pieces):
        text.append(piece)
        whole += piece
        if number == read_at:
            assert text.value == whole
        assert len(text) == len(whole)
    for start, end in spans:
        assert text.slice(start, end) == whole[start:end]


def test_a_fold_without_streamed_text_keeps_the_answer_once() -> None:
    """The live screen's fold keeps no second copy of a streaming answer (only resuming a cut
    session reads `streaming`); its transcript has the text all the same."""
    bus, sub = one_agent()
    bus.emit(ev.LLMRequested, "a1", iteration=1, model="m", message_count=1, tool_names=[])
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="lorem ")
    bus.emit(ev.TextDelta, "a1", iteration=1, delta="ipsum")
    events = sub.drain()
    kept, screen = RunState(), RunState(streamed_text=False)
    kept.apply_all(events)
    screen.apply_all(events)
    assert kept.streaming == {"a1": "lorem ipsum"}
    assert screen.streaming == {} and not screen.unfolded
    assert [e.text for e in screen.agents["a1"].entries[1:]] == ["lorem ipsum"]
