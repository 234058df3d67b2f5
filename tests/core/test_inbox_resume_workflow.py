"""A question asked by the six-step workflow itself (the clarify question, a round's blocking
question, the summary's final question) survives a resume (issue #31): the root that waited on
it when the session ended (a kill, or a quit) waits on it again, in the same words, as an inbox
row, and the person's answer goes on with the workflow from there, as if the session had not
ended, to its report. The log of the resumed run, folded, is the runtime's state."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from agentui.core.agent.steps import steps_in
from agentui.core.agent.tree import AgentNode
from agentui.core.attention.stall_watch import StallWatch
from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.protocol.workflow_notes import RESULTS
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import ResumePlan
from agentui.core.state.inbox import inbox
from agentui.core.state.transcript import TranscriptBuilder
from agentui.core.support.clock import FrozenClock
from agentui.core.workflow.report import WorkflowReport

from .helpers import Recorder, deploy_tool, is_type
from .session_helpers import recorded_runtime
from .test_inbox_resume import (
    AFTER_S,
    ENDINGS,
    Ending,
    agrees,
    ended,
    never,
    only_row,
    resumed,
    saved,
)

pytestmark = pytest.mark.anyio


def decide(**value: Any) -> Turn:
    return Turn(text=json.dumps(value))


NOTHING = {
    "clarify": [decide(ambiguous=False)],
    "questions": [decide(questions=[])],
    "subquestions": [decide(subquestions=[])],
    "resolution": [decide(uncertain=False)],
}

# Each kind of the workflow's questions: what the first session's decisions were (it ends
# waiting on `asked`), what the resumed one decides after the answer, and the questions its
# report lists once answered.
CASES: dict[str, dict[str, Any]] = {
    "clarification": {
        "before": {**NOTHING, "clarify": [decide(ambiguous=True, question="Which city?")]},
        "after": NOTHING,
        "asked": "Which city?",
        "report": [("clarify", "Which city?")],
        "phases": [2, 3, 4, 6],
    },
    "blocking": {
        "before": {**NOTHING, "questions": [decide(questions=["What budget?", "How many?"])]},
        "after": NOTHING,  # round 2 decides there is nothing more to ask
        "asked": "What budget?",
        "report": [("questions", "What budget?"), ("questions", "How many?")],
        "phases": [3, 4, 6],
    },
    "final": {
        "before": {
            **NOTHING,
            "subquestions": [decide(subquestions=["Find a venue"])],
            "resolution": [decide(uncertain=True, question="Saturday or Sunday?")],
        },
        "after": {},  # no decision is asked again
        "asked": "Saturday or Sunday?",
        "report": [("resolution", "Saturday or Sunday?")],
        "phases": [],
    },
}
ANSWERS = {"Which city?": "Lisbon", "What budget?": "1000 EUR", "How many?": "Twelve"}
ANSWERS["Saturday or Sunday?"] = "Saturday"


async def asking_at_the_end(
    tmp_path: Path, decisions: dict[str, list[Turn]], ending: Ending | None = None
) -> tuple[ResumePlan, str]:
    """A six-step root on "Plan a small team offsite" whose `decisions` make it ask the person,
    its session ended while the question waits (as `ending` ends it; None: the runtime closes
    as a quit does): the saved plan and the root's id."""
    before = Script(agents={"main": [Turn(text="unused")]}, decisions={"main": decisions})
    runtime = recorded_runtime(tmp_path, script=before, workflow="six-step")
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a small team offsite")
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        if ending is not None:
            await ended(runtime, rec, ending, tmp_path)
    return saved(runtime), root


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("kind", list(CASES))
async def test_a_workflow_question_waits_again_and_its_answer_goes_on_to_the_report(
    tmp_path: Path, ending: Ending, kind: str
) -> None:
    case = CASES[kind]
    before = Script(
        agents={"main": [Turn(text="main's own answer")], "*": [Turn(text="a venue")]},
        decisions={"main": case["before"]},
    )
    runtime = recorded_runtime(tmp_path, script=before, workflow="six-step")
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a small team offsite")
        await rec.wait_for(lambda e: e.type == "query:raised" and e.prompt == case["asked"])  # type: ignore[attr-defined]
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "question")
    assert (row.agent_id, row.text) == (root, case["asked"])
    assert plan.state.agents[root].status is S.AWAITING_USER
    assert plan.interrupted == []

    after = Script(
        agents={"main": [Turn(text="The offsite, planned.")]}, decisions={"main": case["after"]}
    )
    again = resumed(plan, after)
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        assert again.node(root).status is S.AWAITING_USER
        agrees(plan, rec, again)
        again.answer(row.query_ids[0], ANSWERS[case["asked"]])
        # A round's later questions are asked next, as before the session ended.
        for question in [q for _, q in case["report"][1:]]:
            (raised,) = await rec.wait_for(
                lambda e, q=question: e.type == "query:raised" and e.prompt == q  # type: ignore[attr-defined]
            )
            again.answer(raised.query_id, ANSWERS[question])  # type: ignore[attr-defined]
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "The offsite, planned.")
        rec.sync()
        # The phase it waited in is not begun again; the next ones are.
        assert [e.step for e in rec.of("workflow:step", agent_id=root)] == case["phases"]  # type: ignore[attr-defined]
        (done,) = rec.of("workflow:result", agent_id=root)
        report: WorkflowReport = done.report  # type: ignore[attr-defined]
        asked = [(q.step, q.question, q.answer) for q in report.questions]
        assert asked == [(step, q, ANSWERS[q]) for step, q in case["report"]]
        if kind == "final":  # its subagent's result, collected before the session ended
            assert [(c.name, c.result) for c in report.children] == [("main.1", "a venue")]
        # The answer reached the model that wrote the final answer.
        assert ANSWERS[case["asked"]] in json.dumps([m.text for m in node.conversation.messages])
        state = agrees(plan, rec, again)
        assert inbox(state) == []


@pytest.mark.parametrize("ending", ENDINGS)
async def test_its_own_ask_user_in_the_execute_phase_goes_on_to_the_summary(
    tmp_path: Path, ending: Ending
) -> None:
    """Not the workflow's question but its own work's (ask_user): answered after the resume,
    its loop goes on, then the summary and the report, not the plain loop's end."""
    asks = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Where?"})])
    before = Script(agents={"main": [asks]}, decisions={"main": NOTHING})
    runtime = recorded_runtime(tmp_path, script=before, workflow="six-step")
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a small team offsite")
        await rec.wait_for(is_type("query:raised", root))
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "question")
    after = Script(agents={"main": [Turn(text="Porto it is.")]}, decisions={"main": NOTHING})
    again = resumed(plan, after)
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        again.answer(row.query_ids[0], "Porto")
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "Porto it is.")
        rec.sync()
        assert [e.step for e in rec.of("workflow:step", agent_id=root)] == [6]  # type: ignore[attr-defined]
        assert len(rec.of("workflow:result", agent_id=root)) == 1
        assert inbox(agrees(plan, rec, again)) == []


async def test_a_round_question_given_back_twice_is_still_that_round_s(tmp_path: Path) -> None:
    """Quit while a round's first question waits, resumed, quit again unanswered: given back
    again, it is still the round's first question (the rest of the round follows it), and the
    report lists each question once."""
    case = CASES["blocking"]
    first, root = await asking_at_the_end(tmp_path, case["before"])
    again = resumed(first, Script.for_all(Turn(text="unused")))
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
    second = saved(again)
    row = only_row(second, "question")
    assert row.text == "What budget?"
    after = Script(
        agents={"main": [Turn(text="The offsite, planned.")]}, decisions={"main": NOTHING}
    )
    last = resumed(second, after)
    async with last:
        rec = Recorder(last)
        await rec.wait_for(is_type("execution:start", root))
        last.answer(row.query_ids[0], "1000 EUR")
        (raised,) = await rec.wait_for(
            lambda e: e.type == "query:raised" and e.prompt == "How many?"  # type: ignore[attr-defined]
        )
        last.answer(raised.query_id, "Twelve")  # type: ignore[attr-defined]
        node = await last.wait(root)
        assert node.result == "The offsite, planned."
        report = last.workflow_report(root)
        assert report is not None
        asked = [(q.question, q.answer) for q in report.questions]
        assert asked == [("What budget?", "1000 EUR"), ("How many?", "Twelve")]
        agrees(second, rec, last)


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("phase", ["clarify", "resolution"])
async def test_a_root_stalled_in_a_workflow_decision_comes_back_paused_and_goes_on_with_it(
    tmp_path: Path, ending: Ending, phase: str
) -> None:
    """Stalled while its model decided (clarify, or the summary's resolution after its
    subagent's results): given back paused (a stalled row), resumed, that decision is asked
    again and its workflow goes on to the report (the phase not begun again, the results note
    not added again)."""
    clock = FrozenClock()
    watch = StallWatch(AFTER_S, sleep=never)
    hung = [Turn(text='{"ambiguous', hang_after_chunks=1)]
    decisions = {**NOTHING, phase: hung}
    if phase == "resolution":
        decisions["subquestions"] = [decide(subquestions=["Find a venue"])]
    before = Script(
        agents={"main": [Turn(text="main's own answer")], "*": [Turn(text="The old mill")]},
        decisions={"main": decisions},
    )
    runtime = recorded_runtime(
        tmp_path, script=before, workflow="six-step", clock=clock, services=[watch.attach]
    )
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a small team offsite")
        await rec.wait_for(
            lambda e: e.type == "workflow:deciding" and e.decision == phase  # type: ignore[attr-defined]
        )
        clock.advance(AFTER_S)
        assert [e.agent_id for e in watch.look()] == [root]
        await rec.wait_for(is_type("agent:stalled", root))
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    assert only_row(plan, "stalled").agent_id == root
    assert plan.state.agents[root].status is S.PAUSED
    after = Script(
        agents={"main": [Turn(text="The offsite, planned.")]}, decisions={"main": NOTHING}
    )
    again = resumed(plan, after)
    async with again:
        rec = Recorder(again)
        agrees(plan, rec, again)
        again.resume(root)
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "The offsite, planned.")
        rec.sync()
        decided = [e.decision for e in rec.of("workflow:decision", agent_id=root)]  # type: ignore[attr-defined]
        assert decided[0] == phase
        phases = [e.step for e in rec.of("workflow:step", agent_id=root)]  # type: ignore[attr-defined]
        assert phases == ([2, 3, 4, 6] if phase == "clarify" else [])
        (done,) = rec.of("workflow:result", agent_id=root)
        if phase == "resolution":
            report: WorkflowReport = done.report  # type: ignore[attr-defined]
            assert [c.result for c in report.children] == ["The old mill"]
            notes = [m.text for m in node.conversation.messages if "The old mill" in m.text]
            assert len(notes) == 1, "its subagents' results reached it once"
        assert inbox(agrees(plan, rec, again)) == []


async def quit_at_its_own_work_s_approval(
    tmp_path: Path, ending: Ending, runs: list[str]
) -> tuple[ResumePlan, str]:
    """A six-step root whose two subagents have finished, ended while its own work's `deploy`
    call waits on the person's approval; the saved session's plan and the root's id."""
    deploys = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
    decisions = {**NOTHING, "subquestions": [decide(subquestions=["Find a venue", "Book"])]}
    before = Script(
        agents={"main": [deploys], "*": [Turn(text="The old mill")]},
        decisions={"main": decisions},
    )
    runtime = recorded_runtime(
        tmp_path, script=before, workflow="six-step", tools=[deploy_tool(runs)]
    )
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a small team offsite")
        for child in ("main.1", "main.2"):
            await rec.wait_for(
                lambda e, c=child: (
                    getattr(e, "new", "") == "completed" and runtime.node(e.agent_id).name == c
                )
            )
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)
    return saved(runtime), root


async def allowed_after_the_resume(
    plan: ResumePlan, root: str, runs: list[str]
) -> tuple[Recorder, RecordingRuntime, AgentNode]:
    """The resumed root's approval allowed once, run to its end."""
    (row,) = [row for row in inbox(plan.state) if row.kind == "approval"]
    after = Script(
        agents={"main": [Turn(text="My own part is done."), Turn(text="With what they found.")]},
        decisions={"main": NOTHING},
    )
    again = resumed(plan, after, [deploy_tool(runs)])
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        again.approve(row.query_ids[0], "once")
        node = await again.wait(root)
        rec.sync()
        agrees(plan, rec, again)
    return rec, again, node


@pytest.mark.parametrize("ending", ENDINGS)
async def test_an_approval_in_its_own_work_goes_on_to_its_subagents_results(
    tmp_path: Path, ending: Ending
) -> None:
    """Ended at its own work's approval once its subagents had finished: allowed after the
    resume, the call runs once, its subagents' results reach it in one note, and its last
    turn writes the final answer from them, as a run without the session's end does."""
    runs: list[str] = []
    plan, root = await quit_at_its_own_work_s_approval(tmp_path, ending, runs)
    rec, again, node = await allowed_after_the_resume(plan, root, runs)
    assert (node.status, node.result) == (S.COMPLETED, "With what they found.")
    assert runs == ["prod"]
    notes = [m.text for m in node.conversation.messages if "The old mill" in m.text]
    assert len(notes) == 1, "its subagents' results reached it once"
    assert notes[0].startswith(RESULTS)
    assert [e.step for e in rec.of("workflow:step", agent_id=root)] == [6]  # type: ignore[attr-defined]
    (done,) = rec.of("workflow:result", agent_id=root)
    assert [c.result for c in done.report.children] == ["The old mill"] * 2  # type: ignore[attr-defined]
    assert inbox(agrees(plan, rec, again)) == []


async def test_an_approval_allowed_after_a_quit_is_one_tool_step(tmp_path: Path) -> None:
    """The call the quit closed as not run, given back and allowed, ran once: its steps show
    that one result, not "not run" as well."""
    runs: list[str] = []
    plan, root = await quit_at_its_own_work_s_approval(tmp_path, "quit", runs)
    rec, _, _ = await allowed_after_the_resume(plan, root, runs)
    log = steps_in([*plan.history, *rec.events], root)
    tools = [s.summary for s in log.steps if s.kind == "tool" and not s.set_aside]
    assert tools == ["deploy → deployed to prod"]


@pytest.mark.parametrize("ending", ENDINGS)
async def test_a_resumed_root_s_run_is_no_message_of_the_person_and_keeps_its_task(
    tmp_path: Path, ending: Ending
) -> None:
    """Given back waiting on its clarify question: the resumed run says nothing the person
    wrote (no follow-up in its transcript), and the subagents it starts after the answer work
    on parts of the root task."""
    case = CASES["clarification"]
    plan, root = await asking_at_the_end(tmp_path, case["before"], ending)
    row = only_row(plan, "question")
    after = Script(
        agents={"main": [Turn(text="The offsite, planned.")], "*": [Turn(text="a venue")]},
        decisions={"main": {**NOTHING, "subquestions": [decide(subquestions=["Find a venue"])]}},
    )
    again = resumed(plan, after)
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        again.answer(row.query_ids[0], "Lisbon")
        await again.wait(root)
        rec.sync()
        (child,) = [a for a in again.nodes() if a.parent_id == root]
        assert "Plan a small team offsite" in child.task
        assert "resumed" not in child.task
        state = agrees(plan, rec, again)
        transcript = TranscriptBuilder(root)
        for event in [*plan.history, *rec.events]:
            if event.agent_id == root:
                transcript.apply(event)
        titles = [item.title for item in transcript.items if item.kind == "task"]
        assert titles == ["task"], titles
        assert state.agents[root].task == "Plan a small team offsite"
