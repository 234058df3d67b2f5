"""Every inbox row survives a resume (issue #31): a question, an approval, a budget's stop and a
stalled agent that waited on the person when the session ended (a kill, or a quit: the
runtime's shutdown cancelled them in the log) are waiting again in the resumed run, and acting
on the row goes on as it would have before. Each test checks the one rule of resume too: the
log of the resumed run, folded, is the runtime's state (agents, questions, what may be done)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Literal

import anyio
import pytest

from agentui.core.attention.stall_watch import StallWatch
from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.protocol.commands import Command, Mode, allowed
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import ResumePlan, plan_resume
from agentui.core.session.writer import SessionWriter
from agentui.core.state import RunState
from agentui.core.state.inbox import InboxRow, inbox
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, tool

from .helpers import Recorder, deploy_tool, is_type
from .session_helpers import SAFETY_NET_S, echo_tool, gate_tool, recorded_runtime

pytestmark = pytest.mark.anyio

Ending = Literal["crash", "quit"]
ENDINGS: list[Ending] = ["crash", "quit"]
AFTER_S = 300.0


def tally_tool(runs: list[int]) -> Tool:
    @tool
    async def tally(n: int) -> str:
        """Count."""
        runs.append(n)
        return f"tallied {n}"

    return tally


def call(name: str, **arguments: object) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


async def never(seconds: float) -> None:
    await anyio.sleep_forever()


async def ended(runtime: RecordingRuntime, rec: Recorder, ending: Ending, tmp_path: Path) -> None:
    """End the session as `ending` does, once everything read so far is on disk: a crash
    leaves the file as it is now (a copy, taken before the runtime closes), a quit leaves it
    as the runtime's shutdown writes it."""
    with anyio.fail_after(SAFETY_NET_S):
        await runtime.session.wait_written(rec.events[-1].seq)
    if ending == "crash":
        assert runtime.session.path is not None
        crashed = tmp_path / "crashed" / runtime.session.path.name
        crashed.parent.mkdir(exist_ok=True)
        crashed.write_bytes(runtime.session.path.read_bytes())
        runtime.crash_image = crashed  # type: ignore[attr-defined]


def saved(runtime: RecordingRuntime) -> ResumePlan:
    path = getattr(runtime, "crash_image", None) or runtime.session.path
    assert path is not None
    return plan_resume(read_session(path))


def resumed(
    plan: ResumePlan, script: Script, tools: Sequence[Tool] = (), *, approve_all: bool = False
) -> RecordingRuntime:
    """A runtime carrying on `plan` as `agentui --resume` does (`--yes`: `approve_all`)."""
    runtime = RecordingRuntime(
        ScriptedProvider(script),
        session=SessionWriter(plan.continued_session()),
        tools=ToolRegistry([ASK_USER, *tools]),
        clock=FrozenClock(),
        last_seq=plan.last_seq,
        ids=plan.id_source(),
        approve_all=approve_all,
    )
    plan.adopt_into(runtime)
    return runtime


def agrees(plan: ResumePlan, rec: Recorder, runtime: Runtime) -> RunState:
    """The resumed log (the saved one, the resume's closing events, what came since) folded is
    the runtime's state; that fold."""
    rec.sync()
    state = RunState()
    state.apply_all([*plan.history, *rec.events])
    for agent_id, agent in state.agents.items():
        assert agent.with_history() == runtime.agent(agent_id), agent.name
        assert allowed(state.view(agent), Mode.LOCAL) == runtime.allowed(agent_id), agent.name
    assert list(state.open_queries) == [q.id for q in runtime.open_queries()]
    return state


def only_row(plan: ResumePlan, kind: str) -> InboxRow:
    (row,) = [row for row in inbox(plan.state) if row.kind == kind]
    return row


def statuses(rec: Recorder, agent_id: str) -> list[str]:
    return [e.new for e in rec.of("agent:status", agent_id=agent_id)]  # type: ignore[attr-defined]


@pytest.mark.parametrize("ending", ENDINGS)
async def test_a_question_waits_again_and_its_answer_goes_on(
    tmp_path: Path, ending: Ending
) -> None:
    runs: list[int] = []
    asks = Turn(tool_calls=[call("tally", n=1), call("ask_user", question="Which city?")])
    runtime = recorded_runtime(tmp_path, asks, tools=[tally_tool(runs)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a trip")
        (raised,) = await rec.wait_for(is_type("query:raised", root))
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "question")
    assert (row.agent_id, row.text) == (root, "Which city?")
    assert plan.state.agents[root].status is S.AWAITING_USER
    assert plan.interrupted == []
    # Kept open after a kill; raised again after a quit (its shutdown declined it).
    same_id = row.query_ids == (raised.query_id,)  # type: ignore[attr-defined]
    assert same_id is (ending == "crash")

    provider_script = Script.for_all(Turn(text="Paris it is."))
    again = resumed(plan, provider_script, [tally_tool(runs)])
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        assert again.node(root).status is S.AWAITING_USER
        agrees(plan, rec, again)
        again.answer(row.query_ids[0], "Paris")
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "Paris it is.")
        # The tally that ran before the session ended is not run again; the answer is the
        # result of the call that asked.
        assert runs == [1]
        results = [r.content for r in node.conversation.messages[-2].tool_results]
        assert results == ["tallied 1", "Paris"]
        assert not rec.of("tool:start")  # both calls had started before
        state = agrees(plan, rec, again)
        assert inbox(state) == []
        assert statuses(rec, root) == ["running", "completed"]


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("choice", ["once", "reject"])
async def test_an_approval_waits_again_with_its_call_and_is_decided(
    tmp_path: Path, ending: Ending, choice: Literal["once", "reject"]
) -> None:
    runs: list[str] = []
    script = Script.for_all(Turn(tool_calls=[call("deploy", target="prod")]))
    runtime = recorded_runtime(tmp_path, script=script, tools=[deploy_tool(runs)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Ship it")
        await rec.wait_for(is_type("query:raised", root))
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "approval")
    assert (row.tool, row.arguments) == ("deploy", {"target": "prod"})
    assert row.text.startswith("Allow deploy to run?")

    again = resumed(plan, Script.for_all(Turn(text="Done.")), [deploy_tool(runs)])
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
        agrees(plan, rec, again)
        assert Command.APPROVE in again.allowed(root)
        again.approve(row.query_ids[0], choice, "not today" if choice == "reject" else None)
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "Done.")
        ((result),) = node.conversation.messages[-2].tool_results
        if choice == "once":
            assert runs == ["prod"]
            assert (result.content, result.is_error) == ("deployed to prod", False)
        else:
            assert runs == []
            assert result.is_error and "not today" in result.content
        agrees(plan, rec, again)


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("action", ["raise", "continue", "cancel"])
async def test_a_budget_stop_holds_its_subtree_again_and_its_row_acts(
    tmp_path: Path, ending: Ending, action: str
) -> None:
    script = Script.for_all(
        Turn(tool_calls=[call("echo", text="costly")], usage=Usage(output_tokens=500)),
        Turn(text="unused"),
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[echo_tool()])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Spend")
        runtime.set_budget(root, {"tokens": 100})
        await rec.wait_for(is_type("budget:stop", root))
        await rec.wait_for(lambda e: e.agent_id == root and getattr(e, "new", "") == "paused")
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "budget")
    assert row.agent_id == root and row.text.startswith("tokens:")
    assert plan.state.agents[root].status is S.PAUSED

    again = resumed(plan, Script.for_all(Turn(text="After the stop.")), [echo_tool()])
    async with again:
        rec = Recorder(again)
        # Held at its gate: nothing happens until the person acts on the row.
        agrees(plan, rec, again)
        assert Command.PAST_BUDGET in again.allowed(root)
        assert Command.RESUME not in again.allowed(root)
        if action == "raise":
            again.set_budget(root, {"tokens": 100_000})
        elif action == "continue":
            again.continue_past_budget(root)
        else:
            again.cancel(root)
        node = await again.wait(root)
        if action == "cancel":
            assert node.status is S.CANCELLED
        else:
            assert (node.status, node.result) == (S.COMPLETED, "After the stop.")
            # It went on from where the stop held it: the echo is not called again.
            assert not rec.of("tool:start")
        state = agrees(plan, rec, again)
        assert inbox(state) == []


@pytest.mark.parametrize("ending", ENDINGS)
@pytest.mark.parametrize("action", ["steer", "cancel"])
async def test_a_stalled_agent_comes_back_paused_with_its_row(
    tmp_path: Path, ending: Ending, action: str
) -> None:
    clock = FrozenClock()
    watch = StallWatch(AFTER_S, sleep=never)
    script = Script.for_all(Turn(text="thinking", hang_after_chunks=1))
    runtime = recorded_runtime(tmp_path, script=script, clock=clock, services=[watch.attach])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Think")
        await rec.wait_for(is_type("text:delta", root))
        clock.advance(AFTER_S)
        assert [e.agent_id for e in watch.look()] == [root]
        await rec.wait_for(is_type("agent:stalled", root))
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "stalled")
    assert row.agent_id == root
    folded = plan.state.agents[root]
    assert folded.status is S.PAUSED
    # Paused as a pause that closed its stream: the answer is asked for again on resume.
    assert [m.role for m in folded.conversation.messages] == ["user"]

    again = resumed(plan, Script.for_all(Turn(text="Thought it through.")))
    async with again:
        rec = Recorder(again)
        agrees(plan, rec, again)
        assert {Command.STEER, Command.RESUME, Command.CANCEL} <= again.allowed(root)
        if action == "steer":
            again.steer(root, "be brief")
            await rec.wait_for(is_type("note:queued", root))
            assert [r.kind for r in inbox(agrees(plan, rec, again))] == ["steer"]
            again.resume(root)
        else:
            again.cancel(root)
        node = await again.wait(root)
        if action == "steer":
            assert (node.status, node.result) == (S.COMPLETED, "Thought it through.")
            assert "be brief" in node.conversation.messages[-2].text
        else:
            assert node.status is S.CANCELLED
        assert inbox(agrees(plan, rec, again)) == []


@pytest.mark.parametrize("ending", ENDINGS)
async def test_an_agent_merely_running_comes_back_interrupted(
    tmp_path: Path, ending: Ending
) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="half an answ", hang_after_chunks=2))
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Write")
        await rec.wait_for(is_type("text:delta", root), count=2)
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    assert plan.state.agents[root].status is S.CANCELLED
    assert inbox(plan.state) == []
    assert plan.reopenings == {}
    again = resumed(plan, Script.for_all(Turn(text="unused")))
    async with again:
        rec = Recorder(again)
        agrees(plan, rec, again)
        assert Command.CONTINUE in again.allowed(root)


async def test_a_session_ended_twice_still_gives_back_its_question(tmp_path: Path) -> None:
    """A question given back and left unanswered is given back again after the next quit."""
    asks = Turn(tool_calls=[call("ask_user", question="Which city?")])
    runtime = recorded_runtime(tmp_path, asks)
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Plan a trip")
        await rec.wait_for(is_type("query:raised", root))
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )

    first = saved(runtime)
    again = resumed(first, Script.for_all(Turn(text="unused")))
    async with again:
        rec = Recorder(again)
        await rec.wait_for(is_type("execution:start", root))
    second = saved(again)
    row = only_row(second, "question")
    assert row.text == "Which city?"
    assert row.query_ids != only_row(first, "question").query_ids
    last = resumed(second, Script.for_all(Turn(text="Rome, then.")))
    async with last:
        rec = Recorder(last)
        await rec.wait_for(is_type("execution:start", root))
        last.answer(row.query_ids[0], "Rome")
        node = await last.wait(root)
        assert node.result == "Rome, then."
        agrees(second, rec, last)


@pytest.mark.parametrize("ending", ENDINGS)
async def test_a_stop_holds_the_live_agents_under_it_and_a_raise_lets_all_go_on(
    tmp_path: Path, ending: Ending
) -> None:
    """main's budget stopped main at its next model call while main.1 was streaming: both
    come back paused by the stop (main.1's cut answer asked for again), and raising main's
    budget lets both go on; main's wait gets main.1's result."""
    release = anyio.Event()
    split = Turn(
        tool_calls=[call("fork", prompt="Count"), call("gate")], usage=Usage(output_tokens=5000)
    )
    script = Script(agents={"main": [split], "main.1": [Turn(text="one two", hang_after_chunks=1)]})
    runtime = recorded_runtime(tmp_path, script=script, tools=[FORK, WAIT, gate_tool(release)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Split")
        (word,) = await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id != root)
        child = word.agent_id
        await rec.wait_for(is_type("tool:start", root), count=2)  # the gate holds main
        runtime.set_budget(root, {"tokens": 2000})
        release.set()
        await rec.wait_for(is_type("budget:stop", root))
        await rec.wait_for(lambda e: e.agent_id == root and getattr(e, "new", "") == "paused")
        await ended(runtime, rec, ending, tmp_path)

    plan = saved(runtime)
    row = only_row(plan, "budget")
    assert row.agent_id == root
    assert [plan.state.agents[a].status for a in (root, child)] == [S.PAUSED, S.PAUSED]
    assert plan.stops[root][1] == [root, child]
    after = Script(
        agents={
            "main": [Turn(tool_calls=[call("wait", handle=child)]), Turn(text="All counted.")],
            "main.1": [Turn(text="Counted.")],
        }
    )
    again = resumed(plan, after, [FORK, WAIT])
    async with again:
        rec = Recorder(again)
        agrees(plan, rec, again)
        assert Command.PAST_BUDGET not in again.allowed(child)  # main's budget, not its own
        again.set_budget(root, {"tokens": 1_000_000})
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "All counted.")
        assert again.node(child).result == "Counted."
        assert inbox(agrees(plan, rec, again)) == []


@pytest.mark.parametrize("ending", ENDINGS)
async def test_a_stop_between_two_tool_calls_goes_on_with_the_second(
    tmp_path: Path, ending: Ending
) -> None:
    """Stopped before its second tool call: given back there, the first is not run again."""
    runs: list[int] = []
    two = Turn(tool_calls=[call("tally", n=1), call("tally", n=2)])
    script = Script.for_all(two, Turn(text="unused"))
    runtime = recorded_runtime(tmp_path, script=script, tools=[tally_tool(runs)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Count")
        runtime.set_budget(root, {"tool_calls": 1})
        await rec.wait_for(is_type("budget:stop", root))
        await rec.wait_for(lambda e: e.agent_id == root and getattr(e, "new", "") == "paused")
        await ended(runtime, rec, ending, tmp_path)
    assert runs == [1]

    plan = saved(runtime)
    assert only_row(plan, "budget").text.startswith("tool calls:")
    again = resumed(plan, Script.for_all(Turn(text="Counted both.")), [tally_tool(runs)])
    async with again:
        rec = Recorder(again)
        agrees(plan, rec, again)
        again.set_budget(root, {"tool_calls": 10})
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "Counted both.")
        assert runs == [1, 2]
        results = [r.content for r in node.conversation.messages[-2].tool_results]
        assert results == ["tallied 1", "tallied 2"]
        agrees(plan, rec, again)


async def test_an_approval_given_back_to_a_run_with_approvals_off_is_allowed(
    tmp_path: Path,
) -> None:
    """Resumed with `--yes`: the settings in effect now decide the approval it waited on."""
    runs: list[str] = []
    script = Script.for_all(Turn(tool_calls=[call("deploy", target="prod")]))
    runtime = recorded_runtime(tmp_path, script=script, tools=[deploy_tool(runs)])
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("Ship it")
        await rec.wait_for(
            lambda e: e.agent_id == root and getattr(e, "new", "") == "awaiting_user"
        )

    plan = saved(runtime)
    again = resumed(plan, Script.for_all(Turn(text="Done.")), [deploy_tool(runs)], approve_all=True)
    async with again:
        rec = Recorder(again)
        node = await again.wait(root)
        assert (node.status, node.result) == (S.COMPLETED, "Done.")
        assert runs == ["prod"]
        rec.sync()
        (decided,) = rec.of("approval:decided")
        assert decided.source == "policy"  # type: ignore[attr-defined]
        assert inbox(agrees(plan, rec, again)) == []
