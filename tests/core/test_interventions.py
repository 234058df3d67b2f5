"""Interventions through the Runtime on the scripted provider: pause, resume, cancel, delete,
modify, steer, queries and shutdown. Deterministic: no sleeps, only events and checkpoints."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agentui.core.agent.hooks import HookContext, HookManager, HookPoint, LLMCallDecision
from agentui.core.agent.tree import AgentStatus, UserComment
from agentui.core.agent.turn import AssistantTurn
from agentui.core.bus import Subscription
from agentui.core.protocol.conversation import TextBlock, ToolResultBlock
from agentui.core.protocol.events import Event, QueryRaised
from agentui.core.protocol.person_words import DECLINED
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import DEFAULT_INSTRUCTIONS, Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import (
    AgentUIError,
    CommandRefusedError,
    UnknownAgentError,
    UnknownQueryError,
)
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, tool

from .helpers import Recorder as BaseRecorder

S = AgentStatus
GATE = "wait_for_signal"
PAUSE_EVENTS = ["execution:paused", "intervention:applied", "agent:status"]


# -- helpers -------------------------------------------------------------------------------


def gate_tool(release: anyio.Event) -> Tool:
    """A tool that blocks until the test sets `release`: holds an agent in a known place."""

    @tool(name=GATE, no_timeout=True)
    async def wait_for_signal() -> str:
        """Wait until the test releases the signal."""
        await release.wait()
        return "released"

    return wait_for_signal


def call_gate() -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name=GATE)])


def ask(question: str) -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": question})])


def build(
    script: Script,
    *,
    release: anyio.Event | None = None,
    hooks: HookManager | None = None,
) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script)
    tools = [ASK_USER] + ([gate_tool(release)] if release is not None else [])
    runtime = Runtime(provider, tools=ToolRegistry(tools), hooks=hooks, clock=FrozenClock())
    return runtime, provider


def match(type_: str, agent_id: str | None = None, **fields: Any) -> Callable[[Event], bool]:
    def predicate(event: Event) -> bool:
        if event.type != type_ or (agent_id is not None and event.agent_id != agent_id):
            return False
        return all(getattr(event, key) == value for key, value in fields.items())

    return predicate


class Recorder(BaseRecorder):
    """The shared recorder, read per agent: `of(agent_id, *types)`."""

    def of(self, agent_id: str, *types: str) -> list[Event]:  # type: ignore[override]
        return [e for e in self.events if e.agent_id == agent_id and (not types or e.type in types)]

    def statuses(self, agent_id: str) -> list[tuple[str, str]]:
        return [(e.old, e.new) for e in self.of(agent_id, "agent:status")]  # type: ignore[attr-defined]

    def text(self, agent_id: str) -> str:
        return "".join(e.delta for e in self.of(agent_id, "text:delta"))  # type: ignore[attr-defined]


def requests_of(provider: ScriptedProvider, agent_id: str) -> list[ProviderRequest]:
    return [r for r in provider.requests if r.agent_id == agent_id]


def texts(request: ProviderRequest) -> list[str]:
    return [b.text for m in request.messages for b in m.content if isinstance(b, TextBlock)]


async def settle_all() -> None:
    """Let every other task run until all are blocked."""
    await anyio.wait_all_tasks_blocked()
    for _ in range(20):
        await anyio.lowlevel.checkpoint()
    await anyio.wait_all_tasks_blocked()


LONG_A = "Alpha streams a long answer, piece by piece. " * 6
LONG_B = "Bravo keeps streaming while alpha is paused. " * 6


# -- pause and resume ------------------------------------------------------------------------


@pytest.mark.anyio
async def test_pause_stops_all_emission_until_resume() -> None:
    script = Script(agents={"main": [Turn(text=LONG_A)], "main-2": [Turn(text=LONG_B)]})
    runtime, provider = build(script)
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task a")
        b = runtime.start("task b")
        # The subscriber pauses `a` when it reads a's 3rd delta.
        await rec.wait_for(match("text:delta", a), count=3)
        runtime.pause(a)
        assert runtime.node(a).status is S.PAUSED

        # Let the other agent run to its end, then drive the loop until everything is blocked.
        await runtime.wait(b)
        await settle_all()
        rec.sync()

        first_pause = next(e for e in rec.of(a) if e.type == "execution:paused")
        after = [e for e in rec.of(a) if e.seq >= first_pause.seq]
        assert [e.type for e in after] == PAUSE_EVENTS
        assert [e.seq for e in after] == [first_pause.seq + i for i in range(3)]
        assert after[1].kind == "pause"  # type: ignore[attr-defined]
        assert (after[2].old, after[2].new) == ("running", "paused")  # type: ignore[attr-defined]

        # The other agent really ran meanwhile, and finished.
        assert runtime.node(b).status is S.COMPLETED
        assert rec.text(b) == LONG_B
        assert any(e.agent_id == b and e.seq > after[-1].seq for e in rec.events)
        # a is held mid-stream: some, not all, of its text went out.
        streamed_before = rec.text(a)
        assert streamed_before and LONG_A.startswith(streamed_before)
        assert streamed_before != LONG_A
        assert runtime.node(a).status is S.PAUSED

        mark = len(rec.events)
        runtime.resume(a)
        node = await runtime.wait(a)
        rec.sync()
        resumed = [e for e in rec.events[mark:] if e.agent_id == a]
        assert [e.type for e in resumed[:3]] == [
            "execution:resumed",
            "intervention:applied",
            "agent:status",
        ]
        assert (resumed[2].old, resumed[2].new) == ("paused", "running")  # type: ignore[attr-defined]

        # Nothing lost, nothing duplicated: one request, the exact scripted text.
        assert rec.text(a) == LONG_A
        assert node.status is S.COMPLETED
        assert node.result == LONG_A
        assert len(requests_of(provider, a)) == 1
        last = runtime.agent(a)["conversation"]["messages"][-1]
        assert last["role"] == "assistant" and not last["interrupted"]
        assert "".join(block["text"] for block in last["content"]) == LONG_A
        assert {e.iteration for e in rec.of(a, "text:delta")} == {1}  # type: ignore[attr-defined]


@pytest.mark.anyio
async def test_pause_of_a_pending_agent_holds_it_before_it_starts() -> None:
    script = Script(agents={"main": [Turn(text="held back")], "main-2": [Turn(text="free")]})
    runtime, provider = build(script)
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("held")
        runtime.pause(a)  # before its task has run at all
        assert runtime.node(a).status is S.PAUSED
        b = runtime.start("free")
        await runtime.wait(b)
        await settle_all()
        rec.sync()

        assert [e.type for e in rec.of(a)] == [
            "agent:spawned",
            "conversation:changed",
            *PAUSE_EVENTS,
        ]
        assert rec.statuses(a) == [("pending", "paused")]
        assert requests_of(provider, a) == []
        assert runtime.node(b).status is S.COMPLETED

        runtime.resume(a)
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.COMPLETED
        assert node.result == "held back"
        assert rec.statuses(a) == [
            ("pending", "paused"),
            ("paused", "running"),
            ("running", "completed"),
        ]
        types = [e.type for e in rec.of(a)]
        assert types.index("execution:resumed") < types.index("execution:start")


@pytest.mark.anyio
async def test_pause_and_resume_a_pending_agent_before_its_task_runs() -> None:
    runtime, _ = build(Script.for_all(Turn(text="quick")))
    async with runtime:
        a = runtime.start("task")
        runtime.pause(a)
        runtime.resume(a)  # still before the agent's task had a chance to run
        assert runtime.node(a).status in (S.PENDING, S.RUNNING)
        with anyio.fail_after(5):
            node = await runtime.wait(a)
        assert node.status is S.COMPLETED


@pytest.mark.anyio
@pytest.mark.parametrize("path", ["hook_error", "skipped_llm_usage"])
async def test_pause_gates_reports_made_from_hooks(path: str) -> None:
    """A hook error or a hook's usage, reported while paused, waits for resume."""
    hook_gate = anyio.Event()
    hook_entered = anyio.Event()
    hooks = HookManager()

    async def after_llm(context: HookContext) -> None:
        hook_entered.set()
        await hook_gate.wait()
        raise RuntimeError("the hook broke")

    async def before_llm(context: HookContext) -> LLMCallDecision:
        hook_entered.set()
        await hook_gate.wait()
        turn = AssistantTurn(
            content=[TextBlock(text="from the hook")],
            stop_reason="end_turn",
            usage=Usage(input_tokens=5, output_tokens=3),
        )
        return LLMCallDecision(skip=True, response=turn)

    if path == "hook_error":
        hooks.add(HookPoint.AFTER_LLM, after_llm)
    else:
        hooks.add(HookPoint.BEFORE_LLM, before_llm)
    runtime, _ = build(Script.for_all(Turn(text="hello")), hooks=hooks)
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        with anyio.fail_after(5):
            await hook_entered.wait()
        runtime.pause(a)
        hook_gate.set()
        await settle_all()
        rec.sync()
        first_pause = next(e for e in rec.of(a) if e.type == "execution:paused")
        after = [e.type for e in rec.of(a) if e.seq >= first_pause.seq]
        assert after == PAUSE_EVENTS
        runtime.resume(a)
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.COMPLETED
        [resumed] = rec.of(a, "execution:resumed")
        held = "hook:error" if path == "hook_error" else "usage:updated"
        [report] = rec.of(a, held)
        assert report.seq > resumed.seq  # delivered, only after resume
        assert node.result == ("hello" if path == "hook_error" else "from the hook")


# -- cancel --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_cancel_mid_stream_keeps_partial_text_and_leaves_no_task() -> None:
    text = "The quick brown fox jumps over the lazy dog, twice over."
    runtime, provider = build(Script.for_all(Turn(text=text, hang_after_chunks=2)))
    tasks_before = {t.id for t in anyio.get_running_tasks()}
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        await rec.wait_for(match("text:delta", a), count=2)
        await anyio.wait_all_tasks_blocked()  # the stream now hangs after its 2nd chunk
        streamed = rec.text(a)
        assert streamed and text.startswith(streamed) and streamed != text

        runtime.cancel(a, "enough")
        node = await runtime.wait(a)
        rec.sync()

        [cancelled] = rec.of(a, "execution:cancelled")
        assert cancelled.partial_text == streamed  # type: ignore[attr-defined]
        assert cancelled.reason == "enough"  # type: ignore[attr-defined]
        assert node.status is S.CANCELLED
        assert node.result is None
        assert rec.statuses(a)[-1] == ("running", "cancelled")
        [intervention] = rec.of(a, "intervention:applied")
        assert (intervention.kind, intervention.detail) == ("cancel", "enough")  # type: ignore[attr-defined]
        last = runtime.agent(a)["conversation"]["messages"][-1]
        assert last["role"] == "assistant"
        assert last["interrupted"] is True
        assert "".join(block["text"] for block in last["content"]) == streamed
        assert provider.closed_early == 1
        assert not rec.of(a, "execution:complete", "llm:response")

    # After `async with`: no task of the runtime is left.
    with pytest.raises(AgentUIError, match="not running"):
        runtime.start("too late")
    assert {t.id for t in anyio.get_running_tasks()} == tasks_before
    with anyio.fail_after(1):
        assert (await runtime.wait(a)).status is S.CANCELLED


@pytest.mark.anyio
@pytest.mark.parametrize(("command", "final"), [("cancel", S.CANCELLED), ("delete", S.DELETED)])
async def test_stopping_a_pending_agent_never_calls_the_model(
    command: str, final: AgentStatus
) -> None:
    runtime, provider = build(Script.for_all(Turn(text="never")))
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        getattr(runtime, command)(a)  # before the agent's task had a chance to run
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is final
        assert requests_of(provider, a) == []
        assert rec.statuses(a) == [("pending", final.value)]
        assert not rec.of(a, "execution:start", "llm:request")


def tree_script(**agents: list[Turn]) -> Script:
    """A script keyed by agent name, written with `_` for `.` (main_1 is agent main.1)."""
    return Script(agents={name.replace("_", "."): turns for name, turns in agents.items()})


@pytest.mark.anyio
async def test_cancel_of_one_child_leaves_its_siblings_running() -> None:
    release = anyio.Event()
    script = tree_script(
        main=[Turn(text="root keeps thinking", hang_after_chunks=0)],
        main_1=[Turn(text="first child streams", hang_after_chunks=1)],
        main_2=[call_gate(), Turn(text="second child done")],
        main_3=[call_gate(), Turn(text="third child done")],
    )
    runtime, provider = build(script, release=release)
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("root task")
        c1 = runtime.start("child one", parent_id=root)
        c2 = runtime.start("child two", parent_id=root)
        c3 = runtime.start("child three", parent_id=root)
        await rec.wait_for(match("text:delta", c1))
        await rec.wait_for(lambda e: e.type == "tool:start" and e.agent_id in (c2, c3), count=2)
        await rec.wait_for(match("llm:request", root))

        runtime.cancel(c1)
        assert (await runtime.wait(c1)).status is S.CANCELLED
        assert runtime.node(c2).status is S.RUNNING
        assert runtime.node(c3).status is S.RUNNING
        assert runtime.node(root).status is S.RUNNING

        release.set()
        assert (await runtime.wait(c2)).result == "second child done"
        assert (await runtime.wait(c3)).result == "third child done"
        rec.sync()
        assert runtime.node(root).status is S.RUNNING
        assert [e.agent_id for e in rec.events if e.type == "execution:cancelled"] == [c1]
        assert [e.agent_id for e in rec.events if e.type == "intervention:applied"] == [c1]
        assert len(requests_of(provider, c2)) == 2


@pytest.mark.anyio
async def test_cancelling_a_parent_cancels_its_subtree_only() -> None:
    release = anyio.Event()
    script = tree_script(
        main=[Turn(text="root", hang_after_chunks=0)],
        main_1=[Turn(text="child streams on", hang_after_chunks=1)],
        main_2=[Turn(text="child two", hang_after_chunks=0)],
        main_1_1=[Turn(text="grandchild", hang_after_chunks=0)],
        **{"main-2": [call_gate(), Turn(text="other root done")]},
    )
    runtime, _ = build(script, release=release)
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("root")
        other = runtime.start("other root")
        c1 = runtime.start("c1", parent_id=root)
        c2 = runtime.start("c2", parent_id=root)
        g1 = runtime.start("g1", parent_id=c1)
        subtree = [root, c1, c2, g1]
        await rec.wait_for(lambda e: e.type == "llm:request" and e.agent_id in subtree, count=4)
        await rec.wait_for(match("tool:start", other))

        runtime.cancel(root)
        for agent_id in subtree:
            node = await runtime.wait(agent_id)
            assert node.status is S.CANCELLED, agent_id
        rec.sync()
        reasons = {e.agent_id: e.reason for e in rec.events if e.type == "execution:cancelled"}  # type: ignore[attr-defined]
        assert reasons == dict.fromkeys(subtree, "cancelled by the person")
        assert [e.agent_id for e in rec.events if e.type == "intervention:applied"] == [root]
        assert runtime.node(other).status is S.RUNNING

        release.set()
        assert (await runtime.wait(other)).status is S.COMPLETED


# -- delete --------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_delete_takes_the_subtree_and_tells_the_parent() -> None:
    release = anyio.Event()
    script = tree_script(
        main=[call_gate(), Turn(text="root done")],
        main_1=[Turn(text="parent streams", hang_after_chunks=1)],
        main_1_1=[Turn(text="grandchild", hang_after_chunks=0)],
        main_1_2=[Turn(text="grandchild finished")],
    )
    runtime, provider = build(script, release=release)
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start("root")
        p = runtime.start("parent", parent_id=root)
        g1 = runtime.start("g1", parent_id=p)
        g2 = runtime.start("g2", parent_id=p)
        await rec.wait_for(match("tool:start", root))
        await rec.wait_for(match("text:delta", p))
        await rec.wait_for(match("llm:request", g1))
        assert (await runtime.wait(g2)).status is S.COMPLETED

        runtime.delete(p)
        for agent_id in (p, g1, g2):
            node = await runtime.wait(agent_id)
            assert node.status is S.DELETED, agent_id
            assert node.user_comment is UserComment.DELETE
        rec.sync()
        assert {e.agent_id for e in rec.events if e.type == "execution:cancelled"} == {p, g1}
        assert rec.statuses(g2)[-1] == ("completed", "deleted")
        assert rec.statuses(p)[-1] == ("running", "deleted")
        [intervention] = [e for e in rec.events if e.type == "intervention:applied"]
        assert (intervention.agent_id, intervention.kind) == (p, "delete")  # type: ignore[attr-defined]
        [note] = rec.of(root, "note:queued")
        # By its name, as the person knows it: the note shows in the transcript too.
        assert "main.1" in note.text and f"({p})" not in note.text  # type: ignore[attr-defined]
        assert runtime.node(root).status is S.RUNNING
        assert runtime.tree()["agents"][g2]["status"] == "deleted"

        release.set()
        assert (await runtime.wait(root)).result == "root done"
        first, second = requests_of(provider, root)
        assert not any(note.text in t for t in texts(first))  # type: ignore[attr-defined]
        assert note.text in "\n".join(  # type: ignore[attr-defined]
            b.text for b in second.messages[-1].content if isinstance(b, TextBlock)
        )


@pytest.mark.anyio
async def test_delete_of_a_completed_agent_marks_it_deleted() -> None:
    runtime, _ = build(Script.for_all(Turn(text="done")))
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        assert (await runtime.wait(a)).status is S.COMPLETED
        runtime.delete(a)
        rec.sync()
        assert runtime.node(a).status is S.DELETED
        assert rec.statuses(a)[-1] == ("completed", "deleted")
        assert not rec.of(a, "execution:cancelled")
        assert runtime.node(a).result == "done"
        with pytest.raises(CommandRefusedError):
            runtime.delete(a)
        with pytest.raises(CommandRefusedError):
            runtime.send(a, "more")


# -- modify and steer ----------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("instructions", "content"),
    [("NEW INSTRUCTIONS", None), (None, "NEW TASK TEXT"), ("NEW INSTRUCTIONS", "NEW TASK TEXT")],
)
async def test_modify_changes_the_next_request(
    instructions: str | None, content: str | None
) -> None:
    release = anyio.Event()
    runtime, provider = build(
        Script.for_all(call_gate(), Turn(text="final answer")), release=release
    )
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("original task")
        await rec.wait_for(match("tool:start", a))
        assert runtime.node(a).status is S.RUNNING

        runtime.modify(a, instructions=instructions, content=content)
        assert runtime.node(a).status is S.MODIFIED
        node = runtime.node(a)
        assert node.user_comment is UserComment.MODIFY
        assert node.user_content == content

        release.set()
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.COMPLETED
        first, second = requests_of(provider, a)
        assert first.instructions == DEFAULT_INSTRUCTIONS
        assert first.messages[0].text == "original task"
        assert second.instructions == (instructions or DEFAULT_INSTRUCTIONS)
        assert second.messages[0].text == (content or "original task")
        assert any("modified your instructions or task" in t for t in texts(second))

        assert rec.statuses(a) == [
            ("pending", "running"),
            ("running", "modified"),
            ("modified", "running"),
            ("running", "completed"),
        ]
        # `modified` lasts until the next model call picks the change up.
        [picked_up] = [e for e in rec.of(a, "agent:status") if e.old == "modified"]  # type: ignore[attr-defined]
        [second_iteration] = rec.of(a, "iteration:start")[1:]
        [second_request] = rec.of(a, "llm:request")[1:]
        assert second_iteration.seq < picked_up.seq < second_request.seq
        [modified] = [e for e in rec.of(a, "agent:status") if e.new == "modified"]  # type: ignore[attr-defined]
        # The new instructions and task are in the conversation events, as the model gets them.
        changes = [
            e
            for e in rec.of(a, "conversation:changed")
            if modified.seq < e.seq < second_request.seq
        ]
        if instructions is not None:
            assert [c.instructions for c in changes if c.instructions] == [instructions]  # type: ignore[attr-defined]
        if content is not None:
            assert content in [m.text for c in changes for m in c.append]  # type: ignore[attr-defined]
        assert [
            e.type
            for e in rec.of(a)
            if modified.seq < e.seq < picked_up.seq and e.type != "conversation:changed"
        ] == [
            "tool:complete",
            "iteration:complete",
            "iteration:start",
        ]
        [change] = rec.of(a, "intervention:applied")
        assert change.kind == "modify"  # type: ignore[attr-defined]
        # The new text is in the event, so a screen shows the new task at once.
        assert (change.instructions, change.content) == (instructions, content)  # type: ignore[attr-defined]
        named = {("NEW INSTRUCTIONS", None): "instructions", (None, "NEW TASK TEXT"): "task"}
        assert change.detail == named.get((instructions, content), "instructions and task")  # type: ignore[attr-defined]
        [delivered] = rec.of(a, "note:delivered")
        assert delivered.modified == [  # type: ignore[attr-defined]
            part for part, v in (("instructions", instructions), ("task", content)) if v
        ]
        assert not rec.of(a, "intervention:unused")


@pytest.mark.anyio
async def test_modify_while_paused_stays_paused_until_resume() -> None:
    release = anyio.Event()
    runtime, provider = build(
        Script.for_all(call_gate(), Turn(text="final answer")), release=release
    )
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("original task")
        await rec.wait_for(match("tool:start", a))
        runtime.pause(a)
        runtime.modify(a, content="changed while paused")
        assert runtime.node(a).status is S.PAUSED
        release.set()  # the tool returns, but the agent is held at its next emission
        await settle_all()
        rec.sync()
        assert runtime.node(a).status is S.PAUSED
        assert rec.statuses(a)[-1] == ("running", "paused")
        assert not rec.of(a, "tool:complete")
        assert len(requests_of(provider, a)) == 1

        runtime.resume(a)
        assert runtime.node(a).status is S.MODIFIED
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.COMPLETED
        assert rec.statuses(a) == [
            ("pending", "running"),
            ("running", "paused"),
            ("paused", "modified"),
            ("modified", "running"),
            ("running", "completed"),
        ]
        assert requests_of(provider, a)[1].messages[0].text == "changed while paused"


@pytest.mark.anyio
async def test_modify_before_the_agent_starts() -> None:
    runtime, provider = build(Script.for_all(Turn(text="ok")))
    with anyio.fail_after(5):
        async with runtime:
            a = runtime.start("original task")
            runtime.modify(a, content="replaced before start")
            assert runtime.node(a).status is S.MODIFIED
            node = await runtime.wait(a)
            assert node.status is S.COMPLETED
            first = requests_of(provider, a)[0].messages[0]
            assert first.content[0].text == "replaced before start"  # type: ignore[union-attr]
            assert "original task" not in first.text


@pytest.mark.anyio
async def test_steer_reaches_the_next_request_and_says_when() -> None:
    release = anyio.Event()
    runtime, provider = build(Script.for_all(call_gate(), Turn(text="noted")), release=release)
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        await rec.wait_for(match("tool:start", a))
        runtime.steer(a, "Prefer metric units.")
        assert runtime.node(a).status is S.RUNNING
        assert runtime.node(a).comment == "Prefer metric units."
        assert runtime.node(a).user_comment is UserComment.COMMENT
        release.set()
        await runtime.wait(a)
        rec.sync()
        [note] = rec.of(a, "note:queued")
        assert note.text == "Prefer metric units."  # type: ignore[attr-defined]
        assert note.from_person  # type: ignore[attr-defined]
        [change] = rec.of(a, "intervention:applied")
        assert (change.kind, change.detail) == ("steer", "Prefer metric units.")  # type: ignore[attr-defined]
        [delivered] = rec.of(a, "note:delivered")
        assert delivered.note_ids == [note.note_id]  # type: ignore[attr-defined]
        [second_request] = rec.of(a, "llm:request")[1:]
        assert note.seq < delivered.seq < second_request.seq
        assert not rec.of(a, "intervention:unused")
        first, second = requests_of(provider, a)
        assert not any("Prefer metric units." in t for t in texts(first))
        last = second.messages[-1]
        assert last.role == "user"
        assert last.tool_results and last.tool_results[0].content == "released"
        assert any("A message from the person: Prefer metric units." in t for t in texts(second))


@pytest.mark.anyio
async def test_a_steer_the_agent_never_reads_is_reported_unused_and_a_continue_delivers_it() -> (
    None
):
    release = anyio.Event()
    # The tool call is the agent's last act: after it, the model is not asked again.
    runtime, provider = build(Script.for_all(call_gate(), Turn(text="done")), release=release)
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        await rec.wait_for(match("tool:start", a))
        runtime.modify(a, content="a better task")
        release.set()
        await runtime.wait(a)
        rec.sync()
        # Modified during its last tool call, the model's next call still reads it.
        assert rec.of(a, "note:delivered")

    runtime, provider = build(
        Script.for_all(Turn(text="a long answer", hang_after_chunks=1), Turn(text="more"))
    )
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        await rec.wait_for(match("text:delta", a))  # its last model call is under way
        runtime.steer(a, "Also cover costs.")
        runtime.cancel(a)
        await runtime.wait(a)
        rec.sync()
        [unused] = rec.of(a, "intervention:unused")
        [note] = rec.of(a, "note:queued")
        assert unused.note_ids == [note.note_id]  # type: ignore[attr-defined]
        assert not rec.of(a, "note:delivered")
        with pytest.raises(CommandRefusedError, match="will make no further model call"):
            runtime.steer(a, "too late")
        runtime.send(a, "Go on.")
        await rec.wait_for(match("note:delivered", a))
        await runtime.wait(a)
        assert any("Also cover costs." in t for t in texts(requests_of(provider, a)[-1]))


# -- refused commands ----------------------------------------------------------------------


@pytest.mark.anyio
async def test_commands_on_ended_agents_are_refused() -> None:
    script = Script(
        agents={"main": [Turn(text="done")], "main-2": [Turn(text="x", hang_after_chunks=0)]}
    )
    runtime, _ = build(script)
    async with runtime:
        rec = Recorder(runtime)
        done = runtime.start("finishes")
        stopped = runtime.start("gets cancelled")
        await runtime.wait(done)
        await rec.wait_for(match("llm:request", stopped))
        runtime.cancel(stopped)
        await runtime.wait(stopped)
        rec.sync()
        count = len(rec.events)
        for agent_id in (done, stopped):
            commands: list[Callable[[], None]] = [
                lambda i=agent_id: runtime.pause(i),
                lambda i=agent_id: runtime.resume(i),
                lambda i=agent_id: runtime.cancel(i),
                lambda i=agent_id: runtime.modify(i, instructions="new"),
                lambda i=agent_id: runtime.modify(i, content="new"),
                lambda i=agent_id: runtime.steer(i, "hello"),
            ]
            for command in commands:
                with pytest.raises(CommandRefusedError):
                    command()
        with pytest.raises(CommandRefusedError):
            runtime.modify(done)  # neither instructions nor content
        assert runtime.node(done).status is S.COMPLETED
        assert runtime.node(stopped).status is S.CANCELLED
        assert rec.sync() == [] and len(rec.events) == count  # refused commands emit nothing


@pytest.mark.anyio
async def test_unknown_agent_ids_raise() -> None:
    runtime, _ = build(Script.for_all(Turn(text="x")))
    async with runtime:
        commands: list[Callable[[], object]] = [
            lambda: runtime.pause("nope"),
            lambda: runtime.resume("nope"),
            lambda: runtime.cancel("nope"),
            lambda: runtime.delete("nope"),
            lambda: runtime.modify("nope", content="x"),
            lambda: runtime.steer("nope", "x"),
            lambda: runtime.send("nope", "x"),
            lambda: runtime.agent("nope"),
            lambda: runtime.node("nope"),
            lambda: runtime.start("child", parent_id="nope"),
        ]
        for command in commands:
            with pytest.raises(UnknownAgentError) as info:
                command()
            assert info.value.agent_id == "nope"
        with pytest.raises(UnknownAgentError):
            await runtime.wait("nope")
        assert runtime.tree()["agents"] == {}


# -- queries -------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_several_agents_wait_on_queries_at_once() -> None:
    names = ["main", "main-2", "main-3"]
    script = Script(
        agents={name: [ask(f"Question from {name}?"), Turn(text=f"{name} done")] for name in names}
    )
    runtime, provider = build(script)
    async with runtime:
        rec = Recorder(runtime)
        ids = [runtime.start(f"task of {name}") for name in names]
        raised = await rec.wait_for(match("query:raised"), count=3)
        by_agent: dict[str, QueryRaised] = {}
        for event in raised:
            assert isinstance(event, QueryRaised)
            by_agent[event.agent_id] = event
        assert set(by_agent) == set(ids)
        for agent_id, name in zip(ids, names, strict=True):
            assert by_agent[agent_id].prompt == f"Question from {name}?"
            assert runtime.node(agent_id).status is S.AWAITING_USER
        open_queries = {q.id: q for q in runtime.open_queries()}
        assert {q.agent_id for q in open_queries.values()} == set(ids)
        for event in raised:
            assert open_queries[event.query_id].agent_id == event.agent_id  # type: ignore[attr-defined]

        with pytest.raises(UnknownQueryError):
            runtime.answer("q999", "nobody asked")

        a1, a2, a3 = ids
        runtime.answer(by_agent[a3].query_id, "Answer three")
        runtime.answer(by_agent[a2].query_id, None)  # decline
        runtime.answer(by_agent[a1].query_id, "Answer one")
        with pytest.raises(UnknownQueryError):
            runtime.answer(by_agent[a1].query_id, "twice")

        for agent_id, name in zip(ids, names, strict=True):
            node = await runtime.wait(agent_id)
            assert node.status is S.COMPLETED
            assert node.result == f"{name} done"
        rec.sync()
        assert runtime.open_queries() == []
        [answered1] = rec.of(a1, "query:answered")
        assert answered1.answer == "Answer one"  # type: ignore[attr-defined]
        [declined] = rec.of(a2, "query:declined")
        assert declined.query_id == by_agent[a2].query_id  # type: ignore[attr-defined]
        assert declined.reason  # type: ignore[attr-defined]
        [answered3] = rec.of(a3, "query:answered")
        assert answered3.query_id == by_agent[a3].query_id  # type: ignore[attr-defined]

        results = {}
        for agent_id in ids:
            second = requests_of(provider, agent_id)[1]
            results[agent_id] = second.messages[-1].tool_results[0].content
        assert results == {a1: "Answer one", a2: DECLINED, a3: "Answer three"}
        for agent_id in ids:
            assert ("awaiting_user", "running") in rec.statuses(agent_id)


@pytest.mark.anyio
async def test_a_pending_query_is_declined_when_its_agent_is_cancelled() -> None:
    runtime, _ = build(Script.for_all(ask("Which port?"), Turn(text="never")))
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        [raised] = await rec.wait_for(match("query:raised", a))
        assert runtime.node(a).status is S.AWAITING_USER
        runtime.cancel(a)
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.CANCELLED
        [declined] = rec.of(a, "query:declined")
        assert declined.query_id == raised.query_id  # type: ignore[attr-defined]
        assert declined.reason == "the agent stopped"  # type: ignore[attr-defined]
        assert not rec.of(a, "query:answered")
        assert runtime.open_queries() == []
        with pytest.raises(UnknownQueryError):
            runtime.answer(raised.query_id, "too late")  # type: ignore[attr-defined]
        assert rec.statuses(a)[-1] == ("awaiting_user", "cancelled")
        # The tool call still got a result, so the conversation stays valid.
        last = node.conversation.messages[-1]
        assert last.role == "user"
        [result] = [b for b in last.content if isinstance(b, ToolResultBlock)]
        assert result.is_error


# -- shutdown ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_shutdown_cancels_every_agent_and_ends_subscriptions() -> None:
    release = anyio.Event()
    script = Script(
        agents={
            "main": [Turn(text="streaming along", hang_after_chunks=1)],
            "main-2": [call_gate(), Turn(text="never")],
            "main-3": [ask("Still there?"), Turn(text="never")],
            "main-4": [Turn(text="finished early")],
        }
    )
    runtime, _ = build(script, release=release)
    background: list[Event] = []
    consumer_done = anyio.Event()

    async def consume(sub: Subscription) -> None:
        async for event in sub:
            background.append(event)
        consumer_done.set()

    with anyio.fail_after(5):
        async with anyio.create_task_group() as outer:
            async with runtime:
                rec = Recorder(runtime)
                outer.start_soon(consume, runtime.subscribe())
                streaming = runtime.start("streams")
                paused = runtime.start("pauses in a tool")
                asking = runtime.start("asks")
                finished = runtime.start("finishes")
                await rec.wait_for(match("text:delta", streaming))
                await rec.wait_for(match("tool:start", paused))
                [query] = await rec.wait_for(match("query:raised", asking))
                await runtime.wait(finished)
                runtime.pause(paused)
                assert not consumer_done.is_set()
            # The runtime is closed; the background subscriber's `async for` ends by itself.
            await consumer_done.wait()

    live = (streaming, paused, asking)
    for agent_id in live:
        node = runtime.node(agent_id)
        assert node.status is S.CANCELLED, agent_id
    assert runtime.node(finished).status is S.COMPLETED
    rec.sync()
    assert rec.sub.closed
    reasons = {e.agent_id: e.reason for e in rec.events if e.type == "execution:cancelled"}  # type: ignore[attr-defined]
    assert reasons == dict.fromkeys(live, "the runtime shut down")
    [declined] = rec.of(asking, "query:declined")
    assert declined.query_id == query.query_id  # type: ignore[attr-defined]
    assert [e.seq for e in background] == [e.seq for e in rec.events]
    with pytest.raises(AgentUIError):
        runtime.start("too late")


@pytest.mark.anyio
async def test_pause_then_cancel_cancels_a_held_agent() -> None:
    runtime, provider = build(Script.for_all(Turn(text=LONG_A)))
    async with runtime:
        rec = Recorder(runtime)
        a = runtime.start("task")
        await rec.wait_for(match("text:delta", a), count=2)
        runtime.pause(a)
        await settle_all()
        rec.sync()
        streamed = rec.text(a)
        runtime.cancel(a)
        node = await runtime.wait(a)
        rec.sync()
        assert node.status is S.CANCELLED
        assert rec.statuses(a)[-2:] == [("running", "paused"), ("paused", "cancelled")]
        [cancelled] = rec.of(a, "execution:cancelled")
        # The chunk held at the gate was never shown, so the partial is exactly what streamed.
        assert cancelled.partial_text == streamed  # type: ignore[attr-defined]
        assert streamed and LONG_A.startswith(streamed) and streamed != LONG_A
        assert provider.closed_early == 1
        with pytest.raises(CommandRefusedError):
            runtime.resume(a)
