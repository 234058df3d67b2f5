"""Tool approval by the person: queries of kind "approval", once / always / reject, the
approve-all policy, hooks before the person, and what a typed answer means."""

from __future__ import annotations

import threading
from typing import Any

import anyio
import anyio.to_thread
import pytest

from agentui.core.agent.approval import parse_answer, prompt_for
from agentui.core.agent.approval import prompt as approval_prompt
from agentui.core.agent.hooks import ApprovalDecision, HookContext, HookManager, HookPoint
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import ApprovalDecided, QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import CommandRefusedError, UnknownQueryError
from agentui.core.tools import python
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.sandbox_mode import SandboxChoice
from agentui.core.tools.tool import tool

from .helpers import Recorder, deploy_tool, is_type

pytestmark = pytest.mark.anyio

S = AgentStatus


def deploy(target: str = "staging") -> Turn:
    return Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": target})])


def build(
    *turns: Turn, script: Script | None = None, hooks: HookManager | None = None, **options: Any
) -> tuple[Runtime, ScriptedProvider, list[str]]:
    runs: list[str] = []
    provider = ScriptedProvider(script or Script.for_all(*turns))
    runtime = Runtime(
        provider,
        tools=ToolRegistry([ASK_USER, deploy_tool(runs)]),
        hooks=hooks,
        clock=FrozenClock(),
        **options,
    )
    return runtime, provider, runs


def is_approval(event: Any) -> bool:
    return isinstance(event, QueryRaised) and event.kind == "approval"


def tool_result(provider: ScriptedProvider, request_index: int) -> tuple[str, bool]:
    (result,) = [b for m in provider.requests[request_index].messages for b in m.tool_results]
    return result.content, result.is_error


async def test_allow_once_runs_the_call_and_is_an_event() -> None:
    runtime, provider, runs = build(deploy("prod"), Turn(text="done"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        (raised,) = await recorder.wait_for(is_approval)
        assert isinstance(raised, QueryRaised)
        assert raised.tool == "deploy" and raised.arguments == {"target": "prod"}
        assert raised.choices == ["once", "always", "reject"]
        assert raised.prompt == 'Allow deploy to run?\n{"target": "prod"}'
        assert runtime.node(root).status is S.AWAITING_USER
        assert runs == [], "nothing runs before the person decides"
        runtime.approve(raised.query_id, "once")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runs == ["prod"]
    (decided,) = recorder.of("approval:decided")
    assert isinstance(decided, ApprovalDecided)
    assert (decided.tool, decided.decision, decided.source) == ("deploy", "once", "person")
    assert decided.query_id == raised.query_id and decided.call_id is not None
    (answered,) = recorder.of("query:answered")
    assert answered.answer == "allowed once"  # type: ignore[attr-defined]
    assert tool_result(provider, 1) == ("deployed to prod", False)
    assert runtime.node(root).status is S.COMPLETED


async def test_a_call_with_bad_arguments_is_not_put_to_the_person() -> None:
    wrong = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"town": "prod"})])
    runtime, provider, runs = build(wrong, Turn(text="done"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert not [e for e in recorder.events if is_approval(e)], "nobody was asked"
    assert runs == []
    content, is_error = tool_result(provider, 1)
    assert is_error and "target" in content  # the model reads what is missing


async def test_allow_once_asks_again_next_time() -> None:
    runtime, _, runs = build(deploy("a"), deploy("b"), Turn(text="done"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship twice")
        for count in (1, 2):
            raised = (await recorder.wait_for(is_approval, count))[-1]
            runtime.approve(raised.query_id, "once")  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(root)
    assert runs == ["a", "b"]


async def test_always_allow_lasts_for_the_run() -> None:
    runtime, _, runs = build(deploy("a"), deploy("b"), Turn(text="done"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship twice")
        (raised,) = await recorder.wait_for(is_approval)
        runtime.approve(raised.query_id, "always")  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
        assert "deploy" in runtime.approvals.always_allowed
        # Another agent of the same runtime is not asked either.
        other = runtime.start("Ship again")
        with anyio.fail_after(10):
            await runtime.wait(other)
        recorder.sync()
    assert runs == ["a", "b", "a", "b"]
    assert len([e for e in recorder.events if is_approval(e)]) == 1
    decided = recorder.of("approval:decided")
    assert [(e.decision, e.source) for e in decided] == [  # type: ignore[attr-defined]
        ("always", "person"),
        ("always", "remembered"),
        ("always", "remembered"),
        ("always", "remembered"),
    ]


async def test_always_also_settles_the_other_open_approvals_of_the_tool() -> None:
    runtime, _, runs = build(deploy("x"), Turn(text="done"))
    async with runtime:
        recorder = Recorder(runtime)
        first, second = runtime.start("one"), runtime.start("two")
        raised = await recorder.wait_for(is_approval, 2)
        assert len(runtime.open_queries()) == 2
        runtime.approve(raised[0].query_id, "always")  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(first)
            await runtime.wait(second)
        recorder.sync()
    assert runs == ["x", "x"]
    assert runtime.open_queries() == []
    sources = sorted((e.agent_id, e.source) for e in recorder.of("approval:decided"))  # type: ignore[attr-defined]
    assert sources == [(first, "person"), (second, "remembered")] or sources == [
        (first, "remembered"),
        (second, "person"),
    ]
    assert len(recorder.of("query:answered")) == 2


async def test_reject_with_a_reason_goes_back_to_the_model() -> None:
    runtime, provider, runs = build(deploy("prod"), Turn(text="understood"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        (raised,) = await recorder.wait_for(is_approval)
        runtime.approve(raised.query_id, "reject", "not on a Friday")  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runs == []
    expected = "the person rejected the call: not on a Friday"
    assert tool_result(provider, 1) == (expected, True)
    (failed,) = recorder.of("tool:error")
    assert failed.error == expected  # type: ignore[attr-defined]
    assert recorder.of("tool:start") == []
    (decided,) = recorder.of("approval:decided")
    assert (decided.decision, decided.reason) == ("reject", "not on a Friday")  # type: ignore[attr-defined]
    (declined,) = recorder.of("query:declined")
    assert declined.reason == "rejected: not on a Friday"  # type: ignore[attr-defined]
    assert runtime.node(root).result == "understood"


@pytest.mark.parametrize(
    ("answer", "ran", "reason"),
    [
        (None, False, "no answer was given"),
        ("yes", True, ""),
        ("no: too risky", False, "too risky"),
        ("use the staging server instead", False, "use the staging server instead"),
    ],
)
async def test_answer_on_an_approval_reads_the_text(
    answer: str | None, ran: bool, reason: str
) -> None:
    runtime, _, runs = build(deploy("prod"), Turn(text="ok"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        (raised,) = await recorder.wait_for(is_approval)
        runtime.answer(raised.query_id, answer)  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runs == (["prod"] if ran else [])
    (decided,) = recorder.of("approval:decided")
    assert decided.reason == reason  # type: ignore[attr-defined]


async def test_approve_all_runs_without_asking() -> None:
    runtime, _, runs = build(deploy("prod"), Turn(text="ok"), approve_all=True)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runs == ["prod"]
    assert [e for e in recorder.events if is_approval(e)] == []
    (decided,) = recorder.of("approval:decided")
    assert (decided.decision, decided.source) == ("always", "policy")  # type: ignore[attr-defined]


async def test_a_rejecting_hook_decides_before_the_person_is_asked() -> None:
    hooks = HookManager()

    def veto(context: HookContext) -> ApprovalDecision:
        return ApprovalDecision(approved=False, reason="frozen branch")

    hooks.add(HookPoint.APPROVE_TOOL, veto)
    runtime, provider, runs = build(deploy(), Turn(text="ok"), hooks=hooks)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert runs == [] and [e for e in recorder.events if is_approval(e)] == []
    assert tool_result(provider, 1) == ("the call was rejected: frozen branch", True)


async def test_tools_without_the_mark_are_not_asked_about() -> None:
    @tool
    async def harmless() -> str:
        """Do nothing much."""
        return "fine"

    provider = ScriptedProvider(
        Script.for_all(Turn(tool_calls=[ScriptedToolCall(name="harmless")]), Turn(text="ok"))
    )
    runtime = Runtime(provider, tools=ToolRegistry([harmless]), clock=FrozenClock())
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert recorder.of("query:raised", "approval:decided") == []


async def test_stopping_the_agent_while_it_waits_for_approval() -> None:
    runtime, _, runs = build(deploy(), Turn(text="ok"))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Ship it")
        (raised,) = await recorder.wait_for(is_approval)
        runtime.cancel(root)
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
        with pytest.raises(UnknownQueryError):
            runtime.approve(raised.query_id, "once")  # type: ignore[attr-defined]
    assert runs == []
    (declined,) = recorder.of("query:declined")
    assert declined.reason == "the agent stopped"  # type: ignore[attr-defined]
    assert runtime.node(root).status is S.CANCELLED


async def test_approve_refuses_what_it_cannot_decide() -> None:
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Why?"})]),
        Turn(text="ok"),
    )
    runtime, _, _ = build(script=script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        (raised,) = await recorder.wait_for(is_type("query:raised"))
        with pytest.raises(CommandRefusedError, match="not an approval"):
            runtime.approve(raised.query_id, "once")  # type: ignore[attr-defined]
        with pytest.raises(UnknownQueryError):
            runtime.approve("q99", "once")
        runtime.answer(raised.query_id, "because")  # type: ignore[attr-defined]
        with anyio.fail_after(10):
            await runtime.wait(root)
    runtime2, _, _ = build(deploy(), Turn(text="ok"))
    async with runtime2:
        recorder = Recorder(runtime2)
        runtime2.start("x")
        (raised,) = await recorder.wait_for(is_approval)
        with pytest.raises(CommandRefusedError, match="unknown approval decision"):
            runtime2.approve(raised.query_id, "sometimes")  # type: ignore[arg-type,attr-defined]


def test_the_python_tool_needs_approval_unless_configured_not_to() -> None:
    assert python_tool().needs_approval
    assert not python_tool(PythonToolConfig(needs_approval=False)).needs_approval


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        (None, ("reject", "no answer was given")),
        ("once", ("once", "")),
        ("y", ("once", "")),
        ("Yes please", ("once", "")),
        ("OK", ("once", "")),
        ("always", ("always", "")),
        ("a", ("always", "")),
        ("Always allow", ("always", "")),
        ("reject", ("reject", "")),
        ("n", ("reject", "")),
        ("No: too risky", ("reject", "too risky")),
        ("reject - touches prod", ("reject", "touches prod")),
        ("a bad idea", ("reject", "a bad idea")),
        ("Yes!", ("once", "")),
        # A sentence that starts with an allowing word is an objection, never a grant.
        ("always ask me before running code", ("reject", "always ask me before running code")),
        ("ok but only read files", ("reject", "ok but only read files")),
        ("yes, and delete the logs too", ("reject", "yes, and delete the logs too")),
        ("not now", ("reject", "not now")),
    ],
)
def test_typed_answers(text: str | None, expected: tuple[str, str]) -> None:
    assert parse_answer(text) == expected


def test_the_prompt_shows_every_line_of_the_code_however_long(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Limited on every machine, so the prompt is the same with or without bubblewrap.
    monkeypatch.setenv("AGENTUI_SANDBOX", "limited")
    monkeypatch.setattr("agentui.core.tools.sandbox_mode._euid", lambda: 1000)  # not as root
    code = "\n".join(f"x{i} = {i}" for i in range(200)) + "\nimport shutil; shutil.rmtree('/')"
    shown = approval_prompt("python", {"code": code})
    limited = "sandbox: limited (AGENTUI_SANDBOX=limited): the code runs as you, with your files"
    assert shown == f"Allow python to run?\n{limited}\n{code}"


# -- what the python tool's own sandbox blocks --------------------------------------------


async def test_the_python_approval_describes_the_tools_own_sandbox(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("AGENTUI_SANDBOX", "auto")  # the environment's; the tool says limited
    monkeypatch.setattr("agentui.core.tools.sandbox_mode._euid", lambda: 1000)
    tool = python_tool(PythonToolConfig(sandbox="limited"))
    shown = await prompt_for(tool, "python", {"code": "print(1)"})
    assert shown == (
        "Allow python to run?\nsandbox: limited (limited by the python tool's settings): "
        "the code runs as you, with your files\nprint(1)"
    )


async def test_the_python_approval_waits_for_the_measure_off_the_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    asked, loop_free = threading.Event(), threading.Event()

    def slow_measure(*_: Any, **__: Any) -> SandboxChoice:
        asked.set()
        # Set by the event loop only while the prompt waits: if the prompt blocked the loop,
        # this waits out its safety net and says so.
        free = loop_free.wait(30)
        return SandboxChoice(reason="measured" if free else "the loop was blocked")

    monkeypatch.setattr(python, "choose_sandbox", slow_measure)
    tool = python.python_tool(python.PythonToolConfig())
    shown: list[str] = []

    async def ask() -> None:
        shown.append(await prompt_for(tool, "python", {"code": "1"}))

    async with anyio.create_task_group() as group:
        group.start_soon(ask)
        await anyio.to_thread.run_sync(asked.wait)
        loop_free.set()
    (said,) = shown
    assert "sandbox: limited (measured)" in said, said
