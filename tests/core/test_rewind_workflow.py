"""Rewind of a root running the six-step workflow: it goes on with its workflow from the phase
its step belongs to ("continue as it was"), not with the plain loop; a summary rewound
halfway goes back to its start and says so. The log, folded, is the runtime's agent."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.agent.steps import steps_in
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import AgentRewound, QueryRaised, StatusChanged
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume

from .helpers import Recorder, is_type
from .session_helpers import SAFETY_NET_S, gate_tool, recorded_runtime, resumed_runtime

pytestmark = pytest.mark.anyio

ANSWERS = {"Which city?": "Lisbon", "What budget?": "1000 EUR", "Saturday or Sunday?": "Saturday"}


def decide(**value: Any) -> Turn:
    return Turn(text=json.dumps(value))


# Enough replies for the first run and one more of every phase after a rewind.
SCRIPT = Script(
    agents={
        "main": [Turn(text=f"main's turn {n}") for n in range(1, 7)],
        "*": [Turn(text="a subagent's result")],
    },
    decisions={
        "main": {
            "clarify": [decide(ambiguous=True, question="Which city?"), decide(ambiguous=False)],
            "questions": [decide(questions=["What budget?"]), *[decide(questions=[])] * 3],
            "subquestions": [
                decide(subquestions=["Find a venue", "Find catering"]),
                decide(subquestions=["Find a band"]),
            ],
            "resolution": [
                decide(uncertain=True, question="Saturday or Sunday?"),
                decide(uncertain=False),
            ],
        }
    },
)

# The first run's steps: 0 task; 1 the city (clarify); 2 the budget (questions); 3 the note
# of the subagents started (subquestions); 4 its own answer (execute); 5 the results, 6 the
# day, 7 the synthesis note (summary's notes); 8 the final answer (summary's last turn).
FIRST_RUN = [
    (0, "task"),
    (1, "steer"),
    (2, "steer"),
    (3, "steer"),
    (4, "model"),
    (5, "steer"),
    (6, "steer"),
    (7, "steer"),
    (8, "model"),
]


async def _until_ended(runtime: Runtime, recorder: Recorder, root: str) -> None:
    """Read events, answering the person's questions, until the root's run has ended."""
    with anyio.fail_after(SAFETY_NET_S):  # a safety net only
        while True:
            event = await recorder.sub.get()
            recorder.events.append(event)
            if isinstance(event, QueryRaised):
                runtime.answer(event.query_id, ANSWERS[event.prompt])
            if (
                isinstance(event, StatusChanged)
                and event.agent_id == root
                and AgentStatus(event.new).is_final
            ):
                return


def _since(recorder: Recorder, mark: int, kind: str, root: str) -> list[Any]:
    return [e for e in recorder.events[mark:] if e.type == kind and e.agent_id == root]


@pytest.mark.parametrize(
    ("step", "gone_back_to", "phases", "notice", "kept_children", "kept_questions"),
    [
        (0, 0, [1, 2, 3, 4, 6], "begins again", 0, 0),
        (1, 1, [2, 3, 4, 6], "goes on with its questions step", 0, 1),
        (2, 2, [2, 3, 4, 6], "a new round of questions", 0, 2),
        (3, 3, [4, 6], "goes on with its execute step", 2, 2),
        (4, 4, [6], "goes on with its summary step", 2, 2),
        (6, 4, [6], "went back to step 4, before the summary began", 2, 2),
        (8, 8, [6], "ends with that step's answer", 2, 3),
    ],
    ids=["task", "clarify", "questions", "subquestions", "execute", "summary-notes", "summary"],
)
async def test_a_rewound_six_step_root_goes_on_with_its_workflow(
    tmp_path: Path,
    step: int,
    gone_back_to: int,
    phases: list[int],
    notice: str,
    kept_children: int,
    kept_questions: int,
) -> None:
    runtime = recorded_runtime(tmp_path, script=SCRIPT, workflow="six-step")
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a party")
        await _until_ended(runtime, recorder, root)
        assert [(s.number, s.kind) for s in runtime.steps(root)] == FIRST_RUN
        first = runtime.workflow_report(root)
        assert first is not None and len(first.children) == 2

        mark = len(recorder.events)
        runtime.rewind(root, step)
        (rewound,) = await recorder.wait_for(
            lambda e: isinstance(e, AgentRewound) and e.agent_id == root
        )
        (paused,) = await recorder.wait_for(
            lambda e: isinstance(e, StatusChanged) and e.agent_id == root and e.new == "paused"
        )
        assert isinstance(rewound, AgentRewound) and rewound.step == gone_back_to
        assert isinstance(paused, StatusChanged) and notice in paused.reason
        runtime.resume(root)
        await _until_ended(runtime, recorder, root)

        node = runtime.node(root)
        assert node.status is AgentStatus.COMPLETED
        assert [e.step for e in _since(recorder, mark, "workflow:step", root)] == phases
        (result,) = _since(recorder, mark, "workflow:result", root)
        report = runtime.workflow_report(root)
        assert report is not None and result.report == report and report.answer == node.result
        # What the rewind kept (the subagents and answers before the step) is in the report.
        kept = [c.id for c in report.children[:kept_children]]
        assert kept == [c.id for c in first.children[:kept_children]]
        assert report.questions[:kept_questions] == first.questions[:kept_questions]
        assert all(c.status == "completed" for c in report.children)
        # A kept subagent's result reached the agent once: through its summary's results.
        results_notes = [
            m.text for m in node.conversation.messages if "a subagent's result" in m.text
        ]
        assert len(results_notes) <= 1
        live = runtime.agent(root)
        live_trail = runtime._run(root).steps.workflow  # the runtime's own fold of its phases
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    assert fold_session(log).agents[root].with_history() == live
    assert steps_in(log.events, root, "main").workflow == live_trail


async def test_a_follow_up_after_the_report_is_rewound_as_the_plain_loop(tmp_path: Path) -> None:
    """After its report, a root continued by a message runs the plain loop: a rewind to that
    run's step goes on with it, not with the workflow."""
    runtime = recorded_runtime(tmp_path, script=SCRIPT, workflow="six-step")
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a party")
        await _until_ended(runtime, recorder, root)
        runtime.send(root, "And the music?")
        await _until_ended(runtime, recorder, root)
        follow_up = runtime.steps(root)[-1]
        assert follow_up.kind == "model"
        mark = len(recorder.events)
        runtime.rewind(root, follow_up.number - 1)
        await recorder.wait_for(lambda e: isinstance(e, AgentRewound))
        runtime.resume(root)
        await _until_ended(runtime, recorder, root)
        assert runtime.node(root).status is AgentStatus.COMPLETED
        assert _since(recorder, mark, "workflow:step", root) == []


async def test_a_resumed_session_s_six_step_root_is_rewound_into_its_workflow(
    tmp_path: Path,
) -> None:
    """The trail is folded from the saved log as the runtime folded it: a root of a resumed
    session goes back to its subquestions' note and goes on with its own work and summary,
    its subagents (adopted, ended) joined again."""
    runtime = recorded_runtime(tmp_path, script=SCRIPT, workflow="six-step")
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a party")
        await _until_ended(runtime, recorder, root)
    assert runtime.session.path is not None
    plan = plan_resume(read_session(runtime.session.path))
    resumed = resumed_runtime(plan, SCRIPT)
    async with resumed:
        resumed.recall_steps(root, steps_in(plan.history, root))
        recorder = Recorder(resumed)
        resumed.rewind(root, 3)
        (paused,) = await recorder.wait_for(
            lambda e: isinstance(e, StatusChanged) and e.agent_id == root and e.new == "paused"
        )
        assert isinstance(paused, StatusChanged)
        assert "goes on with its execute step" in paused.reason
        resumed.resume(root)
        await _until_ended(resumed, recorder, root)
        assert resumed.node(root).status is AgentStatus.COMPLETED
        assert [e.step for e in recorder.of("workflow:step", agent_id=root)] == [4, 6]
        report = resumed.workflow_report(root)
        assert report is not None
        assert [(c.name, c.status) for c in report.children] == [
            ("main.1", "completed"),
            ("main.2", "completed"),
        ]
        assert [q.answer for q in report.questions] == ["Lisbon", "1000 EUR", "Saturday"]


async def test_a_live_root_rewound_into_its_workflow_keeps_its_subagents_working(
    tmp_path: Path,
) -> None:
    """Rewound while its own work runs, to the note of the subagents it started: they are kept
    and go on working (its stopped run does not stop them); its summary collects their results."""
    release_children = anyio.Event()
    holding = Turn(text="Holding.", tool_calls=[ScriptedToolCall(name="hold")])
    script = Script(
        agents={
            "main": [
                Turn(text="Looking.", tool_calls=[ScriptedToolCall(name="gate")]),
                Turn(text="My own part."),
                Turn(text="All together."),
            ],
            "*": [holding, Turn(text="a subagent's result")],
        },
        decisions={
            "main": {
                "subquestions": [decide(subquestions=["Find a venue", "Find catering"])],
                "resolution": [decide(uncertain=False)],
            }
        },
    )
    tools = [gate_tool(anyio.Event()), gate_tool(release_children, "hold")]
    runtime = recorded_runtime(tmp_path, script=script, tools=tools, workflow="six-step")
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a party")
        await recorder.wait_for(is_type("tool:start", root))  # its own work, at its gate
        children = runtime.node(root).children
        assert [(s.number, s.kind) for s in runtime.steps(root)] == [
            (0, "task"),
            (1, "steer"),
            (2, "model"),
        ]
        runtime.rewind(root, 1)
        await recorder.wait_for(
            lambda e: isinstance(e, StatusChanged) and e.agent_id == root and e.new == "paused"
        )
        assert all(runtime.node(child).status.is_live for child in children)
        release_children.set()
        runtime.resume(root)
        await _until_ended(runtime, recorder, root)
        assert runtime.node(root).result == "All together."
        report = runtime.workflow_report(root)
        assert report is not None
        assert [(c.id, c.status, c.result) for c in report.children] == [
            (child, "completed", "a subagent's result") for child in children
        ]
        live = runtime.agent(root)
    assert runtime.session.path is not None
    assert fold_session(read_session(runtime.session.path)).agents[root].with_history() == live
