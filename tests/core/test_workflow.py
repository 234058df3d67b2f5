"""The six-step workflow on the scripted provider: every step, its limits, declines, failures
and interventions. Decisions are scripted per agent apart from the agents' turns."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol import workflow_notes as notes
from agentui.core.protocol.conversation import Message
from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import AgentUIError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, tool
from agentui.core.workflow.report import WorkflowReport

from .helpers import Recorder, is_type

pytestmark = pytest.mark.anyio

S = AgentStatus
GATE = "hold"


def decide(**value: Any) -> Turn:
    """A scripted reply to a decision: the JSON object."""
    return Turn(text=json.dumps(value))


def build(
    script: Script, *, tools: list[Tool] | None = None, **options: Any
) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script)
    registry = ToolRegistry([ASK_USER, *(tools or [])])
    runtime = Runtime(provider, tools=registry, clock=FrozenClock(), workflow="six-step", **options)
    return runtime, provider


async def drive(
    runtime: Runtime, task: str, answers: list[str | None]
) -> tuple[str, Recorder, list[QueryRaised]]:
    """Start `task` and answer its queries in order until the root ends."""
    recorder = Recorder(runtime)
    root = runtime.start(task)
    pending = list(answers)
    raised: list[QueryRaised] = []
    with anyio.fail_after(10):  # safety net only
        while True:
            event = await recorder.sub.get()
            recorder.events.append(event)
            if isinstance(event, QueryRaised):
                raised.append(event)
                assert pending, f"an unexpected question: {event.prompt}"
                runtime.answer(event.query_id, pending.pop(0))
            if (
                event.agent_id == root
                and event.type == "agent:status"
                and runtime.node(root).status.is_final
            ):
                break
    assert not pending, f"questions never asked; answers left: {pending}"
    return root, recorder, raised


def decisions_of(provider: ScriptedProvider, agent_id: str = "a1") -> list[ProviderRequest]:
    return [r for r in provider.requests if r.agent_id == agent_id and r.purpose == "decision"]


def turns_of(provider: ScriptedProvider, agent_id: str) -> list[ProviderRequest]:
    return [r for r in provider.requests if r.agent_id == agent_id and r.purpose == "agent"]


def user_texts(messages: list[Message]) -> str:
    return "\n".join(m.text for m in messages if m.role == "user")


def report_of(runtime: Runtime, agent_id: str = "a1") -> WorkflowReport:
    report = runtime.workflow_report(agent_id)
    assert report is not None
    return report


# -- all six steps ---------------------------------------------------------------------------

FULL = Script(
    agents={
        "main": [Turn(text="My own plan: a dinner."), Turn(text="Final: dinner on Saturday.")],
        "main.1": [Turn(text="Venue: the hall on the river.")],
        "main.2": [Turn(text="Catering: tapas for twenty.")],
    },
    decisions={
        "main": {
            "clarify": [decide(ambiguous=True, question="Which city?")],
            "questions": [decide(questions=["What budget?"]), decide(questions=[])],
            "subquestions": [decide(subquestions=["Find a venue", "Find catering"])],
            "resolution": [decide(uncertain=True, question="Saturday or Sunday?")],
        }
    },
)


async def test_the_workflow_runs_all_six_steps() -> None:
    runtime, provider = build(FULL)
    async with runtime:
        root, recorder, raised = await drive(
            runtime, "Plan a party", ["Lisbon", "1000 EUR", "Saturday"]
        )
    node = runtime.node(root)
    assert node.status is S.COMPLETED
    assert node.result == "Final: dinner on Saturday."
    # The person was asked three times, each kind at its step.
    assert [(q.kind, q.prompt) for q in raised] == [
        ("clarification", "Which city?"),
        ("blocking", "What budget?"),
        ("final", "Saturday or Sunday?"),
    ]
    steps = [(e.step, e.name) for e in recorder.of("workflow:step")]  # type: ignore[attr-defined]
    assert steps == [
        (1, "clarify"),
        (2, "questions"),
        (3, "subquestions"),
        (4, "execute"),
        (6, "summary"),
    ]
    # Each decision went to the model as a decision request: JSON only, no tools.
    asked = decisions_of(provider)
    assert [r.decision for r in asked] == [
        "clarify",
        "questions",
        "questions",
        "subquestions",
        "resolution",
    ]
    for request in asked:
        assert request.tools == [] and request.response_schema is not None
        assert "single JSON object" in request.instructions
    # Step 4 saw the answers and knew about its subagents.
    own_turn = turns_of(provider, root)[0]
    seen = user_texts(own_turn.messages)
    assert f"{notes.ANSWERED}Lisbon" in seen and f"{notes.ANSWERED}1000 EUR" in seen
    assert "main.1: Find a venue" in seen and "main.2: Find catering" in seen
    # Step 6 collected both results and the final answer before writing the final answer.
    final_turn = turns_of(provider, root)[1]
    seen = user_texts(final_turn.messages)
    assert "Venue: the hall on the river." in seen and "Catering: tapas for twenty." in seen
    assert f"{notes.ANSWERED}Saturday" in seen
    # The subagents ran the plain loop on their subquestions, within the larger task.
    children = [runtime.node(c) for c in node.children]
    assert [(c.name, c.status) for c in children] == [
        ("main.1", S.COMPLETED),
        ("main.2", S.COMPLETED),
    ]
    assert children[0].task.startswith("Find a venue") and "Plan a party" in children[0].task
    assert decisions_of(provider, "a2") == [] and decisions_of(provider, "a3") == []
    # The report and its event.
    report = report_of(runtime)
    (event,) = recorder.of("workflow:result")
    assert event.report == report  # type: ignore[attr-defined]
    assert report.answer == node.result
    assert [(c.name, c.status, c.result) for c in report.children] == [
        ("main.1", "completed", "Venue: the hall on the river."),
        ("main.2", "completed", "Catering: tapas for twenty."),
    ]
    assert [(q.step, q.answer) for q in report.questions] == [
        ("clarify", "Lisbon"),
        ("questions", "1000 EUR"),
        ("resolution", "Saturday"),
    ]
    assert report.usage == node.usage and report.usage.total_tokens > 0
    children_tokens = sum(c.usage.total_tokens for c in children)
    assert report.total_usage.total_tokens == node.usage.total_tokens + children_tokens
    assert report.interventions == [] and report.skipped_subquestions == []
    # The result event came before the completion.
    types = [e.type for e in recorder.events if e.agent_id == root]
    assert types.index("workflow:result") < types.index("execution:complete")


async def test_unscripted_decisions_are_neutral_and_the_agent_just_works() -> None:
    """A script without decisions plays under six-step exactly as under the plain loop."""
    runtime, provider = build(Script.for_all(Turn(text="Done at once.")))
    async with runtime:
        root, recorder, raised = await drive(runtime, "Say hi", [])
    assert raised == []
    assert runtime.node(root).result == "Done at once."
    assert runtime.node(root).children == []
    assert [r.decision for r in decisions_of(provider)] == [
        "clarify",
        "questions",
        "subquestions",
        "resolution",
    ]
    assert len(turns_of(provider, root)) == 1  # nothing new came in: no second turn
    assert [e.ok for e in recorder.of("workflow:decision")] == [True] * 4  # type: ignore[attr-defined]


# -- step 2's limit and the declines ---------------------------------------------------------


async def test_blocking_questions_stop_after_three_rounds() -> None:
    script = Script(
        agents={"main": [Turn(text="Done.")]},
        decisions={"main": {"questions": [decide(questions=[f"Q{n}?"]) for n in range(1, 5)]}},
    )
    runtime, provider = build(script)
    async with runtime:
        root, _, raised = await drive(runtime, "Task", ["a1", "a2", "a3"])
    assert [q.prompt for q in raised] == ["Q1?", "Q2?", "Q3?"]
    assert [q.kind for q in raised] == ["blocking"] * 3
    questions = [r for r in decisions_of(provider) if r.decision == "questions"]
    assert len(questions) == 3, "no fourth round was asked for"
    assert "Round 3 of at most 3" in questions[2].messages[-1].text
    assert runtime.node(root).status is S.COMPLETED


async def test_declining_the_clarification_goes_on_with_an_assumption() -> None:
    script = Script(
        agents={"main": [Turn(text="Assumed Lisbon.")]},
        decisions={"main": {"clarify": [decide(ambiguous=True, question="Which city?")]}},
    )
    runtime, provider = build(script)
    async with runtime:
        root, recorder, raised = await drive(runtime, "Plan a trip", [None])
    assert [q.kind for q in raised] == ["clarification"]
    assert len(recorder.of("query:declined")) == 1
    node = runtime.node(root)
    assert node.status is S.COMPLETED and node.result == "Assumed Lisbon."
    assert notes.DECLINED in user_texts(turns_of(provider, root)[0].messages)
    assert [(q.question, q.answer) for q in report_of(runtime).questions] == [("Which city?", None)]


async def test_declining_a_blocking_question_ends_the_questions() -> None:
    script = Script(
        agents={"main": [Turn(text="With what I have: a small party.")]},
        decisions={
            "main": {
                "questions": [
                    decide(questions=["Budget?", "Guests?"]),
                    decide(questions=["Never asked?"]),
                ]
            }
        },
    )
    runtime, provider = build(script)
    async with runtime:
        root, _, raised = await drive(runtime, "Plan a party", [None])
    assert [q.prompt for q in raised] == ["Budget?"]  # not "Guests?", and no second round
    assert [r.decision for r in decisions_of(provider)].count("questions") == 1
    assert runtime.node(root).status is S.COMPLETED
    assert runtime.node(root).result == "With what I have: a small party."


async def test_declining_the_final_question_keeps_the_answer() -> None:
    script = Script(
        agents={"main": [Turn(text="Saturday, probably.")]},
        decisions={"main": {"resolution": [decide(uncertain=True, question="Which day?")]}},
    )
    runtime, provider = build(script)
    async with runtime:
        root, _, raised = await drive(runtime, "Pick a day", [None])
    assert [q.kind for q in raised] == ["final"]
    assert runtime.node(root).result == "Saturday, probably."
    assert len(turns_of(provider, root)) == 1, "no synthesis turn after a decline"
    assert report_of(runtime).questions[-1].answer is None


# -- subquestions ----------------------------------------------------------------------------


async def test_four_subquestions_become_four_subagents() -> None:
    parts = ["North", "South", "East", "West"]
    script = Script(
        agents={
            "main": [Turn(text="Own part."), Turn(text="All four combined.")],
            "*": [Turn(text="A part done.")],
        },
        decisions={"main": {"subquestions": [decide(subquestions=parts)]}},
    )
    runtime, provider = build(script)
    async with runtime:
        root, recorder, _ = await drive(runtime, "Survey the map", [])
    node = runtime.node(root)
    names = [runtime.node(c).name for c in node.children]
    assert names == ["main.1", "main.2", "main.3", "main.4"]
    assert [e.parent_id for e in recorder.of("agent:spawned")] == [None, root, root, root, root]  # type: ignore[attr-defined]
    assert [c.status for c in report_of(runtime).children] == ["completed"] * 4
    assert node.result == "All four combined."
    results = user_texts(turns_of(provider, root)[1].messages)
    for name in names:
        assert f"### {name} (completed)" in results


async def test_more_than_four_subquestions_is_invalid_and_retried() -> None:
    script = Script(
        agents={"main": [Turn(text="Alone.")]},
        decisions={
            "main": {
                "subquestions": [decide(subquestions=["a", "b", "c", "d", "e"]), decide()],
            }
        },
    )
    runtime, _ = build(script)
    async with runtime:
        root, recorder, _ = await drive(runtime, "Task", [])
    attempts = [(e.decision, e.attempt, e.ok) for e in recorder.of("workflow:decision")]  # type: ignore[attr-defined]
    assert ("subquestions", 1, False) in attempts and ("subquestions", 2, True) in attempts
    assert runtime.node(root).children == []


async def test_subquestions_past_the_live_children_limit_are_skipped() -> None:
    script = Script(
        agents={"main": [Turn(text="Own."), Turn(text="Combined.")], "*": [Turn(text="Part.")]},
        decisions={"main": {"subquestions": [decide(subquestions=["one", "two", "three"])]}},
    )
    runtime, _ = build(script, limits=Limits(max_live_children=2))
    async with runtime:
        root, _, _ = await drive(runtime, "Task", [])
    assert len(runtime.node(root).children) == 2
    assert report_of(runtime).skipped_subquestions == ["three"]


# -- structured output: retried, then failed -------------------------------------------------


async def test_invalid_decisions_are_retried_with_the_error_fed_back() -> None:
    script = Script(
        agents={"main": [Turn(text="Clear enough.")]},
        decisions={
            "main": {
                "clarify": [
                    Turn(text="I think it is fine."),
                    decide(ambiguous=True),
                    Turn(text='```json\n{"ambiguous": false}\n```'),
                ]
            }
        },
    )
    runtime, provider = build(script)
    async with runtime:
        root, recorder, _ = await drive(runtime, "Task", [])
    made = [e for e in recorder.of("workflow:decision") if e.decision == "clarify"]  # type: ignore[attr-defined]
    assert [(e.attempt, e.ok) for e in made] == [(1, False), (2, False), (3, True)]  # type: ignore[attr-defined]
    assert made[0].error == "the reply holds no JSON object"  # type: ignore[attr-defined]
    assert "`question` is required" in (made[1].error or "")  # type: ignore[attr-defined]
    # The second attempt saw the first reply and why it was wrong.
    second = decisions_of(provider)[1]
    assert second.messages[-2].role == "assistant"
    assert second.messages[-2].text == "I think it is fine."
    assert "the reply holds no JSON object" in second.messages[-1].text
    assert runtime.node(root).status is S.COMPLETED


GARBAGE = [Turn(text="{not json"), Turn(text="I would rather not say.")]
NEUTRAL_MEANING = {
    "clarify": "the task is clear enough",
    "questions": "nothing is missing",
    "subquestions": "no subagents",
    "resolution": "nothing is left to ask",
}


@pytest.mark.parametrize("decision", list(NEUTRAL_MEANING))
async def test_a_decision_that_stays_invalid_goes_on_with_its_neutral_answer(
    decision: str,
) -> None:
    script = Script(
        agents={"main": [Turn(text="Done anyway.")]},
        decisions={"main": {decision: GARBAGE}},
    )
    runtime, provider = build(script, limits=Limits(decision_retries=1))
    async with runtime:
        root, recorder, raised = await drive(runtime, "Task", [])
    node = runtime.node(root)
    assert node.status is S.COMPLETED and node.result == "Done anyway."
    assert raised == [] and node.children == []  # neutral: nothing asked, nothing split
    made = [(e.decision, e.attempt, e.ok) for e in recorder.of("workflow:decision")]  # type: ignore[attr-defined]
    assert (decision, 1, False) in made and (decision, 2, False) in made
    # The notice: one llm:error that says what failed and what the agent goes on with.
    (notice,) = recorder.of("llm:error")
    assert notice.streamed is False and notice.retryable is False  # type: ignore[attr-defined]
    assert notice.error == (  # type: ignore[attr-defined]
        f"the model gave no valid answer to the {decision!r} decision in 2 attempts: "
        f"the reply holds no JSON object. "
        f"Going on with the neutral answer: {NEUTRAL_MEANING[decision]}."
    )
    assert report_of(runtime).fallback_decisions == [decision]
    # Every other decision was still asked, and the agent did its work.
    assert [r.decision for r in decisions_of(provider)].count(decision) == 2
    assert {r.decision for r in decisions_of(provider)} == set(NEUTRAL_MEANING)
    assert len(turns_of(provider, root)) == 1


# -- step 5: interventions -------------------------------------------------------------------


async def test_deleting_a_subagent_is_reported_to_the_parent_and_in_the_report() -> None:
    script = Script(
        agents={
            "main": [Turn(text="Own part."), Turn(text="Without the venue.")],
            "main.1": [Turn(text="Looking for venues", hang_after_chunks=1)],
            "main.2": [Turn(text="Catering found.")],
        },
        decisions={"main": {"subquestions": [decide(subquestions=["Venue", "Catering"])]}},
    )
    runtime, provider = build(script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a party")
        await recorder.wait_for(is_type("text:delta", "a2"))
        runtime.delete("a2")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runtime.node("a2").status is S.DELETED
    assert runtime.node(root).status is S.COMPLETED
    report = report_of(runtime)
    assert [(c.name, c.status) for c in report.children] == [
        ("main.1", "deleted"),
        ("main.2", "completed"),
    ]
    assert report.children[0].error == "subagent main.1 (a2) was deleted by the person"
    final = user_texts(turns_of(provider, root)[-1].messages)
    assert "The person deleted your subagent main.1;" in final
    assert "### main.1 (deleted)" in final


async def test_modify_while_waiting_changes_the_next_calls() -> None:
    script = Script(
        agents={
            "main": [Turn(text="Porto it is."), Turn(text="Porto, in spring.")],
            "*": [Turn(text="Part.")],
        },
        decisions={
            "main": {
                "clarify": [decide(ambiguous=True, question="Which season?")],
                "subquestions": [decide(subquestions=["Hotels"])],
            }
        },
    )
    runtime, provider = build(script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a weekend in Lisbon")
        await recorder.wait_for(is_type("query:raised"))
        runtime.modify(root, instructions="Be brief.", content="Plan a weekend in Porto")
        # The question about Lisbon is withdrawn with it (test_modify_withdraws_question.py).
        assert runtime.open_queries() == []
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    after = decisions_of(provider)[1]  # the first call after the modify
    assert after.instructions.startswith("Be brief.")
    assert "Plan a weekend in Porto" in user_texts(after.messages)
    assert "Lisbon" not in user_texts(after.messages)
    assert "The person modified your instructions or task" in user_texts(after.messages)
    assert "Plan a weekend in Porto" in runtime.node("a2").task  # the subquestion's context
    assert turns_of(provider, root)[0].instructions == "Be brief."
    assert runtime.node(root).status is S.COMPLETED
    assert report_of(runtime).interventions == ["modify"]


async def test_a_steer_reaches_the_next_model_call_as_a_note() -> None:
    release = anyio.Event()

    @tool(name=GATE, no_timeout=True)
    async def hold() -> str:
        """Wait until the test lets go."""
        await release.wait()
        return "let go"

    script = Script(
        agents={"main": [Turn(tool_calls=[ScriptedToolCall(name=GATE)]), Turn(text="Noted.")]},
    )
    runtime, provider = build(script, tools=[hold])
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Task")
        await recorder.wait_for(is_type("tool:start"))
        runtime.steer(root, "Prefer trains.")
        release.set()
        with anyio.fail_after(10):
            await runtime.wait(root)
    second = turns_of(provider, root)[1]
    assert "A message from the person: Prefer trains." in user_texts(second.messages)
    assert report_of(runtime).interventions == ["steer"]


async def test_deleting_the_agent_stops_it_and_its_subagents() -> None:
    script = Script(
        agents={"main": [Turn(text="Working", hang_after_chunks=1)], "*": [Turn(text="Part.")]},
        decisions={"main": {"subquestions": [decide(subquestions=["Part one"])]}},
    )
    runtime, _ = build(script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Task")
        await recorder.wait_for(is_type("text:delta", root))
        runtime.delete(root)
        with anyio.fail_after(10):
            await runtime.wait(root)
            await runtime.wait("a2")
    assert runtime.node(root).status is S.DELETED
    assert runtime.node("a2").status is S.DELETED
    assert runtime.workflow_report(root) is None


async def test_a_failing_agent_stops_its_running_subagents() -> None:
    script = Script(
        agents={
            "main": [Turn(error=ScriptedError(message="the model fell over"))],
            "main.1": [Turn(text="Slow part", hang_after_chunks=1)],
        },
        decisions={"main": {"subquestions": [decide(subquestions=["Slow part"])]}},
    )
    runtime, _ = build(script)
    async with runtime:
        root, _, _ = await drive(runtime, "Task", [])
        with anyio.fail_after(10):
            await runtime.wait("a2")
    assert runtime.node(root).status is S.ERROR
    assert runtime.node("a2").status is S.CANCELLED


async def test_a_failed_decision_call_is_retried_and_marked_as_not_streamed() -> None:
    script = Script(
        agents={"main": [Turn(text="The answer.")]},
        decisions={
            "main": {
                "resolution": [
                    Turn(error=ScriptedError(message="busy", retryable=True)),
                    decide(uncertain=False),
                ]
            }
        },
    )
    runtime, _ = build(script, limits=Limits(retry_backoff_s=0))
    async with runtime:
        root, recorder, _ = await drive(runtime, "Task", [])
    assert runtime.node(root).status is S.COMPLETED
    (failed,) = recorder.of("llm:error")
    assert failed.streamed is False, "no shown text belongs to a hidden call"  # type: ignore[attr-defined]


# -- choosing the workflow -------------------------------------------------------------------


async def test_the_plain_loop_is_the_runtime_default_and_start_can_choose() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text="ok")))
    async with Runtime(provider, clock=FrozenClock()) as runtime:
        plain = runtime.start("one")
        chosen = runtime.start("two", workflow="six-step")
        with anyio.fail_after(10):
            await runtime.wait(plain)
            await runtime.wait(chosen)
    assert decisions_of(provider, plain) == []
    assert len(decisions_of(provider, chosen)) == 4
    assert runtime.workflow_report(plain) is None
    assert runtime.workflow_report(chosen) is not None


async def test_a_follow_up_run_continues_with_the_plain_loop() -> None:
    runtime, provider = build(Script.for_all(Turn(text="first"), Turn(text="second")))
    async with runtime:
        root, _, _ = await drive(runtime, "Task", [])
        runtime.send(root, "More, please.")
        with anyio.fail_after(10):
            await runtime.wait(root)
    assert runtime.node(root).result == "second"
    assert len(decisions_of(provider)) == 4, "only the first run decided anything"


async def test_an_unknown_workflow_is_refused() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text="ok")))
    with pytest.raises(AgentUIError, match="unknown workflow"):
        Runtime(provider, workflow="seven-step")  # type: ignore[arg-type]
    async with Runtime(provider) as runtime:
        with pytest.raises(AgentUIError, match="unknown workflow"):
            runtime.start("x", workflow="nope")  # type: ignore[arg-type]
