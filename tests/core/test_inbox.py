"""The inbox (core/state/inbox.py): one list of what waits on the person, across the tree."""

from __future__ import annotations

from typing import get_args

from agentui.core.bus import EventBus
from agentui.core.protocol import events as ev
from agentui.core.protocol.usage import Usage
from agentui.core.state import RunState
from agentui.core.state.inbox import inbox, inbox_key
from agentui.core.state.run_state import INBOX_EVENTS
from agentui.core.support.clock import FrozenClock

START = 1_767_225_600.0


class Tree:
    """root (r) with children a, b, c; a has a child a1. Everyone running."""

    def __init__(self) -> None:
        self.clock = FrozenClock(START)
        self.bus = EventBus(self.clock)
        self.sub = self.bus.subscribe(maxsize=None)
        self.state = RunState()
        self.spawn("r", None, "root")
        for child in ("a", "b", "c"):
            self.spawn(child, "r", f"child-{child}")
        self.spawn("a1", "a", "grandchild")

    def spawn(self, agent_id: str, parent: str | None, name: str) -> None:
        self.bus.emit(ev.AgentSpawned, agent_id, parent_id=parent, name=name, task="t")
        self.bus.emit(ev.StatusChanged, agent_id, old="pending", new="running", reason="")

    def emit(self, cls: type[ev.Event], agent_id: str, **fields: object) -> None:
        self.bus.emit(cls, agent_id, **fields)

    def rows(self) -> list[tuple[str, str, int]]:
        self.state.apply_all(self.sub.drain())
        return [(row.id, row.kind, row.waiting) for row in inbox(self.state)]


def test_an_empty_run_has_an_empty_inbox() -> None:
    assert Tree().rows() == []


def test_rows_hold_up_more_agents_first_then_the_oldest() -> None:
    tree = Tree()
    tree.emit(ev.QueryRaised, "b", query_id="q-b", prompt="Which city?", kind="question")
    tree.clock.advance(5)
    tree.emit(ev.QueryRaised, "c", query_id="q-c", prompt="Which year?", kind="question")
    tree.clock.advance(5)
    # Asked last, but a and a1 both wait on it.
    tree.emit(ev.QueryRaised, "a", query_id="q-a", prompt="Which team?", kind="clarification")
    assert tree.rows() == [("q-a", "question", 2), ("q-b", "question", 1), ("q-c", "question", 1)]
    row = inbox(tree.state)[0]
    assert row.path == "root › child-a"
    assert row.since == START + 10
    assert row.waited_s(START + 70) == 60


def test_siblings_asking_the_same_words_share_one_row() -> None:
    tree = Tree()
    tree.emit(ev.QueryRaised, "b", query_id="q-b", prompt="Which city?", kind="question")
    tree.clock.advance(1)
    tree.emit(ev.QueryRaised, "c", query_id="q-c", prompt="Which  city?\n", kind="question")
    tree.emit(ev.QueryRaised, "a1", query_id="q-a1", prompt="Which city?", kind="question")
    tree.rows()
    rows = inbox(tree.state)
    shared = next(row for row in rows if row.id == "q-b")
    assert shared.query_ids == ("q-b", "q-c")
    assert shared.agent_ids == ("b", "c")
    assert shared.waiting == 2
    assert shared.since == START
    # a1 is not their sibling: its own row.
    assert [row.id for row in rows] == ["q-b", "q-a1"]


def test_roots_asking_the_same_words_are_not_grouped() -> None:
    """Roots share no parent: two tasks (or a root and its fork) asking "Which city?" may
    mean two cities; one answer for both would answer one of them wrongly."""
    tree = Tree()
    tree.spawn("r2", None, "main~1")
    tree.emit(ev.QueryRaised, "r", query_id="q-r", prompt="Which city?", kind="question")
    tree.emit(ev.QueryRaised, "r2", query_id="q-r2", prompt="Which city?", kind="question")
    tree.rows()
    rows = [(row.id, row.query_ids) for row in inbox(tree.state)]
    assert rows == [("q-r", ("q-r",)), ("q-r2", ("q-r2",))]


def test_an_approval_names_its_tool_call_and_is_never_grouped() -> None:
    tree = Tree()
    for agent in ("b", "c"):
        tree.emit(
            ev.QueryRaised,
            agent,
            query_id=f"ap-{agent}",
            prompt="Allow python?",
            kind="approval",
            tool="python",
            arguments={"code": "print(1)"},
            choices=["once", "always", "reject"],
        )
    assert [kind for _, kind, _ in tree.rows()] == ["approval", "approval"]
    row = inbox(tree.state)[0]
    assert (row.tool, row.arguments) == ("python", {"code": "print(1)"})


def test_an_answered_question_leaves_the_inbox() -> None:
    tree = Tree()
    tree.emit(ev.QueryRaised, "b", query_id="q-b", prompt="Which city?", kind="question")
    assert tree.rows() == [("q-b", "question", 1)]
    tree.emit(ev.QueryAnswered, "b", query_id="q-b", answer="Oslo")
    assert tree.rows() == []


def test_a_budget_stop_counts_the_agents_it_paused() -> None:
    tree = Tree()
    tree.emit(
        ev.BudgetReached,
        "a",
        measure="tokens",
        limit=5000,
        spent=5210,
        stopped_agent="a1",
        paused=["a", "a1"],
    )
    assert tree.rows() == [("budget:a", "budget", 2)]
    assert inbox(tree.state)[0].text == "tokens: 5,210 of 5,000 (stopped grandchild)"
    tree.emit(ev.BudgetContinued, "a")
    assert tree.rows() == []


def test_a_stalled_agent_waits_until_its_next_event() -> None:
    tree = Tree()
    tree.clock.advance(300)
    tree.emit(ev.AgentStalled, "c", since=START, after_s=300)
    assert tree.rows() == [("stalled:c", "stalled", 1)]
    assert inbox(tree.state)[0].since == START
    tree.emit(ev.TextDelta, "c", iteration=1, delta="back")
    assert tree.rows() == []


def test_a_steer_to_an_agent_that_is_not_running_waits_on_the_person() -> None:
    tree = Tree()
    tree.emit(ev.NoteQueued, "b", text="use metric", note_id="n1", from_person=True)
    assert tree.rows() == []  # running: its next model call reads it
    tree.emit(ev.StatusChanged, "b", old="running", new="paused", reason="")
    assert tree.rows() == [("steer:b", "steer", 1)]
    assert inbox(tree.state)[0].text == "use metric"
    tree.emit(ev.NotesDelivered, "b", note_ids=["n1"])
    assert tree.rows() == []


def test_the_inbox_is_the_same_after_folding_the_log_again() -> None:
    tree = Tree()
    tree.emit(ev.QueryRaised, "b", query_id="q-b", prompt="Which city?", kind="question")
    tree.emit(ev.AgentStalled, "c", since=START, after_s=60)
    events = tree.sub.drain()
    live = RunState()
    live.apply_all(events)
    resumed = RunState(transcripts=False)
    resumed.apply_all(ev.parse_event(e.model_dump_json()) for e in events)
    assert inbox(resumed) == inbox(live)


def test_a_line_of_the_narrator_about_a_stalled_agent_is_not_its_word() -> None:
    tree = Tree()
    tree.emit(ev.AgentStalled, "c", since=START, after_s=300)
    assert tree.state.apply_all(tree.sub.drain()).stalled == ["c"]
    tree.clock.advance(10)
    tree.emit(ev.MonologueFailed, "c", error="narrator down")
    assert tree.rows() == [("stalled:c", "stalled", 1)]
    assert tree.state.agents["c"].last_event_ts == START


def test_the_inbox_key_changes_whenever_the_rows_do_and_not_for_streamed_work() -> None:
    """A front end lists the inbox again only when inbox_key changed (ACP after each batch):
    folded one event at a time, equal keys give equal rows, and the events of an agent at
    work (text, usage, tools) leave the key as it was."""
    tree = Tree()
    work: list[tuple[type[ev.Event], dict[str, object]]] = [
        (ev.TextDelta, {"iteration": 1, "delta": "some words"}),
        (ev.UsageUpdated, {"delta": Usage(output_tokens=5), "total": Usage(output_tokens=5)}),
        (ev.ThinkingDelta, {"iteration": 1, "delta": "hmm"}),
    ]
    steps: list[tuple[type[ev.Event], str, dict[str, object]]] = [
        (ev.QueryRaised, "b", {"query_id": "q-b", "prompt": "Which city?", "kind": "question"}),
        (ev.QueryRaised, "c", {"query_id": "q-c", "prompt": "Which city?", "kind": "question"}),
        (ev.StatusChanged, "a1", {"old": "running", "new": "completed", "reason": ""}),
        (ev.QueryAnswered, "b", {"query_id": "q-b", "answer": "Oslo"}),
        (ev.AgentStalled, "a", {"since": START, "after_s": 60}),
        (ev.MonologueFailed, "a", {"error": "narrator down"}),  # not its word: still stalled
        (ev.TextDelta, "a", {"iteration": 1, "delta": "back"}),  # its word: the stall ends
        (ev.NoteQueued, "b", {"text": "use metric", "note_id": "n1", "from_person": True}),
        (ev.StatusChanged, "b", {"old": "running", "new": "paused", "reason": ""}),
        (ev.BudgetReached, "r", {"measure": "tokens", "limit": 10, "spent": 12,
                                 "stopped_agent": "c", "paused": ["c"]}),
        (ev.BudgetContinued, "r", {}),
        (ev.NotesDelivered, "b", {"note_ids": ["n1"]}),
    ]  # fmt: skip
    state = tree.state
    state.apply_all(tree.sub.drain())
    listed = ([row.as_json() for row in inbox(state)], inbox_key(state))
    changes = 0
    for cls, agent_id, fields in steps:
        for agent in ("r", "c"):  # never the stalled one: its word would end the stall
            for kind, body in work:
                tree.emit(kind, agent, **body)
                state.apply_all(tree.sub.drain())
                assert inbox_key(state) == listed[1], (kind, agent)
        tree.emit(cls, agent_id, **fields)
        state.apply_all(tree.sub.drain())
        rows = [row.as_json() for row in inbox(state)]
        if inbox_key(state) == listed[1]:
            assert rows == listed[0], (cls, agent_id)
        else:
            changes += 1
        listed = (rows, inbox_key(state))
    assert changes == len(steps) - 1, "each step but the narrator's line may change the rows"


def test_the_inbox_s_events_are_events() -> None:
    (union, *_) = get_args(ev.AnyEvent)
    types = {cls.model_fields["type"].default for cls in get_args(union)}
    assert types >= INBOX_EVENTS
