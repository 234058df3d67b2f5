"""Rewind: an agent goes back to one of its steps (after a model call, a tool result, while a
question waits, mid-stream), live, paused or ended; what came later stays in the log, the
subagents it started later are set aside, and it waits for the person, paused."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.agent.steps import StepLog, StepRef, steps_in
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command
from agentui.core.protocol.events import AgentRewound, ConversationChanged, Event
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.support.errors import CommandRefusedError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, tool

from .helpers import Recorder, is_type, scripted_runtime
from .session_helpers import SAFETY_NET_S, gate_tool, recorded_runtime, resumed_runtime

pytestmark = pytest.mark.anyio

TALLY = Turn(text="Counting.", tool_calls=[ScriptedToolCall(name="tally", arguments={"n": 1})])


def tally_tool(runs: list[int]) -> Tool:
    """A tool that counts its runs (as a sandbox's runs would be counted)."""

    @tool
    async def tally(n: int) -> str:
        """Count."""
        runs.append(n)
        return f"tallied {len(runs)}"

    return tally


async def _rewound(recorder: Recorder, agent_id: str) -> AgentRewound:
    (event,) = await recorder.wait_for(is_type("agent:rewound", agent_id))
    await recorder.wait_for(
        lambda e: e.type == "agent:status" and e.agent_id == agent_id and e.new == "paused"  # type: ignore[attr-defined]
    )
    assert isinstance(event, AgentRewound)
    return event


def _kinds(runtime: Runtime, agent_id: str) -> list[tuple[int, str]]:
    return [(step.number, step.kind) for step in runtime.steps(agent_id)]


async def test_an_ended_agent_goes_back_to_a_tool_result_and_goes_on_when_resumed() -> None:
    runs: list[int] = []
    tools = ToolRegistry([ASK_USER, tally_tool(runs)])
    script = Script.for_all(TALLY, Turn(text="First answer."), Turn(text="Second answer."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        assert _kinds(runtime, root) == [(0, "task"), (1, "model"), (2, "tool"), (3, "model")]
        before = list(runtime.node(root).conversation.messages)

        runtime.rewind(root, 2)
        rewound = await _rewound(recorder, root)

        node = runtime.node(root)
        assert node.status is AgentStatus.PAUSED
        assert node.conversation.messages == before[:3], "the task, the call and its result"
        assert rewound.step == 2 and rewound.set_aside == []
        assert [s.set_aside for s in runtime.steps(root)] == [False, False, False, True]
        assert Command.RESUME in runtime.allowed(root) and Command.STEER in runtime.allowed(root)

        runtime.steer(root, "say it again")
        runtime.resume(root)
        await runtime.wait(root)
        assert node.status is AgentStatus.COMPLETED
        assert node.result == "Second answer."
        assert runs == [1], "the tool result before the step was not run again"
        assert _kinds(runtime, root)[-2:] == [(4, "steer"), (5, "model")]
        # The log is append-only: the answer set aside is still among the events.
        recorder.sync()
        answers = [e.text for e in recorder.of("llm:response", agent_id=root)]  # type: ignore[attr-defined]
        assert answers == ["Counting.", "First answer.", "Second answer."]


async def test_back_to_a_model_call_its_tool_calls_run_anew() -> None:
    runs: list[int] = []
    tools = ToolRegistry([ASK_USER, tally_tool(runs)])
    script = Script.for_all(TALLY, Turn(text="Once."), Turn(text="Twice."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        runtime.rewind(root, 1)
        await _rewound(recorder, root)
        assert runtime.node(root).conversation.messages[-1].tool_uses, "it ends at the call"
        runtime.resume(root)
        await runtime.wait(root)
        assert runs == [1, 1], "the call after the step ran again"
        assert runtime.node(root).result == "Twice."


async def test_a_live_agent_is_stopped_mid_stream_and_rewound() -> None:
    script = Script.for_all(Turn(text="This will take a while", hang_after_chunks=1))
    async with scripted_runtime(script=script) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("stream")
        await recorder.wait_for(is_type("text:delta", root))
        runtime.rewind(root, 0)
        with pytest.raises(CommandRefusedError, match="already going back"):
            runtime.rewind(root, 0)
        await _rewound(recorder, root)
        node = runtime.node(root)
        assert node.status is AgentStatus.PAUSED
        assert [m.text for m in node.conversation.messages] == ["stream"]
        cut = [e for e in recorder.of("agent:status", agent_id=root) if e.new == "cancelled"]  # type: ignore[attr-defined]
        assert cut and "rewound to step 0" in cut[0].reason  # type: ignore[attr-defined]


async def test_an_agent_waiting_on_a_question_is_rewound_and_the_question_closed() -> None:
    ask = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    async with scripted_runtime(ask, ask, Turn(text="done")) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("ask")
        await recorder.wait_for(is_type("query:raised", root))
        runtime.rewind(root, 1)  # the model call that asked
        await _rewound(recorder, root)
        assert runtime.open_queries() == []
        assert recorder.of("query:declined", agent_id=root)
        runtime.resume(root)  # the question is asked anew
        query = (await recorder.wait_for(is_type("query:raised", root), count=2))[-1]
        runtime.answer(query.query_id, "the blue one")  # type: ignore[attr-defined]
        await recorder.wait_for(is_type("query:raised", root), count=3)
        runtime.answer(runtime.open_queries()[0].id, "still blue")
        await runtime.wait(root)
        kept = [step.kind for step in runtime.steps(root) if not step.set_aside]
        assert kept == ["task", "model", "answer", "model", "answer", "model"]
        (aside,) = [step for step in runtime.steps(root) if step.set_aside]
        assert (aside.number, aside.summary) == (2, "ask_user → not run: the agent was stopped")
        assert runtime.node(root).result == "done"


async def test_a_paused_agent_is_rewound() -> None:
    release = anyio.Event()
    script = Script.for_all(
        Turn(text="Holding.", tool_calls=[ScriptedToolCall(name="gate")]), Turn(text="done")
    )
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("hold")
        await recorder.wait_for(is_type("tool:start", root))
        runtime.pause(root)
        runtime.rewind(root, 0)
        await _rewound(recorder, root)
        assert runtime.node(root).status is AgentStatus.PAUSED
        assert len(runtime.node(root).conversation.messages) == 1


async def test_subagents_started_after_the_step_are_cancelled_and_set_aside() -> None:
    release = anyio.Event()
    script = Script(
        agents={
            "main": [Turn(text="Waiting.", tool_calls=[ScriptedToolCall(name="gate")])],
            "main.1": [Turn(text="early done")],
            "main.2": [Turn(text="late and slow", hang_after_chunks=1)],
        }
    )
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("plan")
        early = runtime.start("early", parent_id=root)  # before step 1 (the model call)
        await runtime.wait(early)
        await recorder.wait_for(is_type("tool:start", root))  # step 1 is made
        late = runtime.start("late", parent_id=root)
        await recorder.wait_for(is_type("text:delta", late))

        runtime.rewind(root, 1)
        rewound = await _rewound(recorder, root)

        assert rewound.set_aside == [late]
        assert runtime.node(late).status is AgentStatus.CANCELLED
        assert runtime.node(late).set_aside and not runtime.node(early).set_aside
        reasons = [e.reason for e in recorder.of("agent:status", agent_id=late)]  # type: ignore[attr-defined]
        assert reasons[-1].startswith("rewound: main went back to step 1")
        assert runtime.node(early).status is AgentStatus.COMPLETED


async def test_a_step_it_does_not_have_and_a_deleted_agent_are_refused() -> None:
    async with scripted_runtime(Turn(text="done")) as runtime:
        root = runtime.start("x")
        await runtime.wait(root)
        with pytest.raises(CommandRefusedError, match="main has no step 9; its steps are 0 to 1"):
            runtime.rewind(root, 9)
        runtime.delete(root)
        with pytest.raises(CommandRefusedError, match="cannot rewind main: it is deleted"):
            runtime.rewind(root, 0)


def test_agent_at_step_is_read_as_typed() -> None:
    assert StepRef.parse("main.1@3") == StepRef("main.1", 3)
    assert StepRef.parse("a@b@2") == StepRef("a@b", 2)
    for wrong in ("main", "main@", "@3", "main@x", "main@-1"):
        with pytest.raises(ValueError, match="AGENT@STEP"):
            StepRef.parse(wrong)


# -- the log ----------------------------------------------------------------------------------


def _conversation_events(events: list[Event], agent_id: str) -> list[ConversationChanged]:
    return [e for e in events if isinstance(e, ConversationChanged) and e.agent_id == agent_id]


async def test_a_rewound_session_folds_and_resumes_as_the_runtime_left_it(tmp_path: Path) -> None:
    runs: list[int] = []
    script = Script.for_all(TALLY, Turn(text="First."), Turn(text="Second."), Turn(text="Third."))
    runtime = recorded_runtime(tmp_path, script=script, tools=[tally_tool(runs)])
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        runtime.rewind(root, 2)
        await _rewound(recorder, root)
        runtime.resume(root)
        await runtime.wait(root)
        live_steps = runtime.steps(root)
        live = runtime.agent(root)
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    plan = plan_resume(log)
    folded = plan.state.agents[root]
    assert folded.conversation.model_dump(mode="json") == live["conversation"]
    assert steps_in(log.events, root, "main").steps == live_steps
    # Resumed, it continues from the rewound conversation, and can be rewound again.
    resumed = resumed_runtime(plan, Script.for_all(Turn(text="Fourth.")))
    async with resumed:
        resumed.recall_steps(root, steps_in(plan.history, root))
        recorder = Recorder(resumed)
        resumed.rewind(root, 0)
        await _rewound(recorder, root)
        resumed.resume(root)
        await resumed.wait(root)
        assert resumed.node(root).result == "Fourth."
        assert [m.text for m in resumed.node(root).conversation.messages] == ["count", "Fourth."]
    assert runs == [1]


def test_a_step_log_knows_a_note_joining_the_last_message_as_a_steer() -> None:
    from agentui.core.protocol.conversation import TextBlock, user_text

    task = user_text("task")
    longer = task.model_copy(update={"content": [*task.content, TextBlock(text="be brief")]})
    log = StepLog("main")
    for seq, (keep, append) in enumerate([(0, [task]), (0, [longer])], start=1):
        log.apply(ConversationChanged(seq=seq, ts=0.0, agent_id="a1", keep=keep, append=append))
    assert [(s.kind, s.summary) for s in log.steps] == [("task", "task"), ("steer", "be brief")]
    assert log.conversation_at(0)[1] == [task]


def test_a_first_message_of_several_blocks_is_summed_up_by_its_task() -> None:
    """A fork's first message holds its task and then what its origin had been told."""
    from agentui.core.protocol.conversation import TextBlock, user_text

    task = user_text("Write a haiku about rain")
    first = task.model_copy(
        update={"content": [*task.content, TextBlock(text="You asked the person: which rain?")]}
    )
    log = StepLog("main~1")
    log.apply(ConversationChanged(seq=1, ts=0.0, agent_id="a2", keep=0, append=[first]))
    assert [(s.kind, s.summary) for s in log.steps] == [("task", "Write a haiku about rain")]


async def test_the_wait_is_bounded() -> None:
    # Guards the helpers above: a wait that never ends fails instead of hanging.
    assert SAFETY_NET_S > 0


async def test_a_parent_waiting_on_a_rewound_subagent_gets_its_next_run_s_outcome() -> None:
    script = Script(
        agents={
            "main": [Turn(text="Waiting on it.")],
            "main.1": [Turn(text="slow first try", hang_after_chunks=1), Turn(text="second try")],
        }
    )
    async with scripted_runtime(script=script) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("plan")
        child = runtime.start("sub", parent_id=root)
        outcomes = []

        async def join() -> None:
            outcomes.append(await runtime.join(root, child))

        async with anyio.create_task_group() as group:
            group.start_soon(join)
            await recorder.wait_for(is_type("text:delta", child))
            runtime.rewind(child, 0)
            await _rewound(recorder, child)
            assert outcomes == [], "the parent still waits: its subagent goes on"
            runtime.resume(child)
        (outcome,) = outcomes
        assert (outcome.status, outcome.result) == ("completed", "second try")


@pytest.mark.parametrize("state", ["live", "paused", "ended"])
@pytest.mark.parametrize("kind", ["model", "tool"])
async def test_every_kind_of_step_on_a_live_paused_or_ended_agent(
    tmp_path: Path, state: str, kind: str
) -> None:
    runs: list[int] = []
    release = anyio.Event()
    hold = Turn(text="Holding.", tool_calls=[ScriptedToolCall(name="gate")])
    script = Script.for_all(TALLY, hold, Turn(text="done"), Turn(text="after the rewind"))
    tools = [tally_tool(runs), gate_tool(release)]
    runtime = recorded_runtime(tmp_path, script=script, tools=tools)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await recorder.wait_for(is_type("tool:start", root), count=2)  # the gate holds it
        if state == "paused":
            runtime.pause(root)
        elif state == "ended":
            release.set()
            await runtime.wait(root)
        step = 1 if kind == "model" else 2
        at_step = runtime.steps(root)[step]
        assert at_step.kind == kind

        runtime.rewind(root, step)
        await _rewound(recorder, root)

        node = runtime.node(root)
        assert len(node.conversation.messages) == at_step.messages
        assert node.status is AgentStatus.PAUSED
        release.set()
        runtime.resume(root)
        await runtime.wait(root)
        assert node.status is AgentStatus.COMPLETED
        # Back to the model call, its tally runs again; back to its result, it does not.
        assert runs == ([1, 1] if kind == "model" else [1])
        live = runtime.agent(root)
    # The log, folded, is the runtime's agent: the run the rewind stopped and all.
    assert runtime.session.path is not None
    folded = fold_session(read_session(runtime.session.path)).agents[root]
    assert folded.with_history() == live


async def test_a_step_an_earlier_rewind_set_aside_is_refused_and_forked_from_instead() -> None:
    """Going back into a branch a rewind left would bring back steps whose subagents were
    stopped and set aside: refused, and a fork from the step gives its conversation."""
    runs: list[int] = []
    script = Script.for_all(*[TALLY, Turn(text="An answer.")] * 3)
    async with scripted_runtime(script=script, tools=ToolRegistry([tally_tool(runs)])) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("count")
        await runtime.wait(root)
        assert _kinds(runtime, root) == [(0, "task"), (1, "model"), (2, "tool"), (3, "model")]
        first_branch = list(runtime.node(root).conversation.messages)
        runtime.rewind(root, 1)
        await _rewound(recorder, root)
        runtime.resume(root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(root)

        with pytest.raises(CommandRefusedError, match="set aside by an earlier rewind: fork"):
            runtime.rewind(root, 3)
        aside = [s.number for s in runtime.steps(root) if s.set_aside]
        assert aside == [2, 3], "only the first branch's steps after step 1 are set aside"
        fork = runtime.fork_from(root, 3)
        assert runtime.node(fork).conversation.messages == first_branch
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(fork)
