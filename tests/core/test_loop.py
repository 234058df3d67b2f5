"""The agentic loop, driven through Runtime on the scripted provider."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import anyio
import pytest

from agentui.core.agent.agent_run import AgentRun
from agentui.core.agent.hooks import (
    ApprovalDecision,
    ExecutionResultChange,
    ExecutionStartChange,
    HookContext,
    HookManager,
    HookPoint,
    LLMCallDecision,
    PauseDecision,
    ToolCallDecision,
    ToolResultChange,
)
from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentNode, AgentStatus
from agentui.core.agent.turn import AssistantTurn, ToolCall
from agentui.core.protocol.conversation import (
    Conversation,
    Message,
    TextBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from agentui.core.protocol.events import (
    Event,
    ExecutionCompleted,
    ExecutionFailed,
    HookFailed,
    LLMFailed,
    LLMResponded,
    ToolFailed,
)
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import CommandRefusedError
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, ToolContext, ToolError, tool

from .helpers import events_until, of_type

# -- helpers ---------------------------------------------------------------------------------


@tool
async def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
async def fail_always(reason: str) -> str:
    """A tool that always fails."""
    raise ToolError(f"could not: {reason}")


def make_runtime(
    *turns: Turn,
    tools: list[Tool] | None = None,
    hooks: HookManager | None = None,
    limits: Limits | None = None,
    script: Script | None = None,
    **options: Any,
) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script if script is not None else Script.for_all(*turns))
    options.setdefault("clock", FrozenClock())
    runtime = Runtime(
        provider,
        tools=ToolRegistry(tools if tools is not None else [add]),
        hooks=hooks,
        limits=limits,
        instructions="Base instructions.",
        **options,
    )
    return runtime, provider


async def run(runtime: Runtime, task: str = "the task") -> tuple[AgentNode, list[Event]]:
    """Run `task` on a runtime already entered, to the end; return its node and events."""
    subscription = runtime.subscribe(maxsize=None)
    agent_id = runtime.start(task)
    with anyio.fail_after(5):
        node = await runtime.wait(agent_id)
    events = subscription.drain()
    subscription.close()
    return node, events


async def run_script(
    *turns: Turn, task: str = "the task", **options: Any
) -> tuple[AgentNode, list[Event], ScriptedProvider]:
    runtime, provider = make_runtime(*turns, **options)
    async with runtime:
        node, events = await run(runtime, task)
    return node, events, provider


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def tool_results(request_messages: list[Message]) -> list[ToolResultBlock]:
    return [b for m in request_messages for b in m.tool_results]


def only(events: list[Event], kind: str) -> Any:
    """The single event of `kind`."""
    found = of_type(events, kind)
    assert len(found) == 1, f"expected one {kind}, got {types(events)}"
    return found[0]


def call(name: str, **arguments: Any) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


ADD_THEN_ANSWER = (
    Turn(text="Let me add.", tool_calls=[call("add", a=2, b=3)]),
    Turn(text="The sum is 5."),
)


# -- the loop with tools ---------------------------------------------------------------------


def counting_tool(*, echo: bool = False) -> tuple[Tool, list[int]]:
    """A tool `counted(n)` that records each call; it returns "ran" (or "ran N" with echo)."""
    calls: list[int] = []

    @tool
    async def counted(n: int) -> str:
        calls.append(n)
        return f"ran {n}" if echo else "ran"

    return counted, calls


@pytest.mark.anyio
async def test_model_tool_model_loop() -> None:
    node, events, provider = await run_script(*ADD_THEN_ANSWER)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The sum is 5."
    assert node.runs == 1
    kinds = [
        t
        for t in types(events)
        if t
        not in (
            "text:delta",
            "usage:updated",
            "agent:status",
            "agent:spawned",
            "conversation:changed",
        )
    ]
    assert kinds == [
        "execution:start",
        "iteration:start",
        "llm:request",
        "llm:response",
        "tool:detected",
        "tool:start",
        "tool:complete",
        "iteration:complete",
        "iteration:start",
        "llm:request",
        "llm:response",
        "iteration:complete",
        "execution:complete",
    ]
    completed = only(events, "execution:complete")
    assert (completed.result, completed.iterations, completed.stop_reason) == (
        "The sum is 5.",
        2,
        "end_turn",
    )
    tool_done = only(events, "tool:complete")
    assert (tool_done.name, tool_done.result, tool_done.mocked) == ("add", "5", False)
    # Every change of the conversation is an event: folding them gives what the agent holds.
    rebuilt = Conversation()
    for change in [e for e in events if e.type == "conversation:changed"]:
        rebuilt.apply_change(change.keep, change.append, change.instructions)  # type: ignore[attr-defined]
    assert rebuilt.model_dump() == node.conversation.model_dump()
    assert [e.tool_calls for e in of_type(events, "iteration:complete")] == [1, 0]  # type: ignore[attr-defined]

    # The tool result goes back to the model in the next request.
    assert len(provider.requests) == 2
    first, second = provider.requests
    assert [m.role for m in first.messages] == ["user"]
    assert first.instructions == "Base instructions."
    assert [t.name for t in first.tools] == ["add"]
    assert (first.agent_name, first.iteration, second.iteration) == ("main", 1, 2)
    assert [m.role for m in second.messages] == ["user", "assistant", "user"]
    assistant = second.messages[1]
    assert assistant.text == "Let me add."
    (use,) = assistant.tool_uses
    assert (use.name, use.input) == ("add", {"a": 2, "b": 3})
    (result,) = tool_results(second.messages)
    assert (result.tool_use_id, result.content, result.is_error) == (use.id, "5", False)
    # The conversation ends with the final answer.
    assert node.conversation.messages[-1].text == "The sum is 5."
    assert node.usage.total_tokens > 0


@pytest.mark.anyio
async def test_several_tool_calls_in_one_turn_run_in_order() -> None:
    node, events, provider = await run_script(
        Turn(tool_calls=[call("add", a=1, b=1), call("add", a=10, b=10)]),
        Turn(text="2 and 20."),
    )
    assert node.result == "2 and 20."
    assert [e.result for e in of_type(events, "tool:complete")] == ["2", "20"]  # type: ignore[attr-defined]
    detected = only(events, "tool:detected")
    assert [c.arguments for c in detected.calls] == [{"a": 1, "b": 1}, {"a": 10, "b": 10}]
    results = tool_results(provider.requests[1].messages)
    assert [r.content for r in results] == ["2", "20"]
    # Both results travel in one user message right after the assistant's tool uses.
    assert len(provider.requests[1].messages[2].content) == 2


@pytest.mark.anyio
async def test_tool_receives_its_context() -> None:
    seen: list[ToolContext] = []

    @tool
    async def remember(context: ToolContext) -> str:
        seen.append(context)
        return "ok"

    runtime, _ = make_runtime(
        Turn(tool_calls=[call("remember")]), Turn(text="done"), tools=[remember]
    )
    async with runtime:
        node, events = await run(runtime)
    (context,) = seen
    assert context.agent_id == node.id
    assert context.call_id == only(events, "tool:start").call.id
    assert context.iteration == 1
    # The tool talks to its own agent: fork, wait and ask_user need no agent id.
    assert isinstance(context.services, AgentRun)
    assert context.services.agent_id == node.id


# -- hooks -----------------------------------------------------------------------------------


def hooks_with(point: HookPoint, hook: Any) -> HookManager:
    manager = HookManager()
    manager.add(point, hook)
    return manager


@pytest.mark.anyio
async def test_before_execution_changes_instructions() -> None:
    contexts: list[HookContext] = []

    def hook(context: HookContext) -> ExecutionStartChange:
        contexts.append(context)
        return ExecutionStartChange(instructions=context.instructions + " Be terse.")

    node, _, provider = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.BEFORE_EXECUTION, hook), task="sum it"
    )
    assert node.status is AgentStatus.COMPLETED
    (context,) = contexts
    assert (context.task, context.iteration, context.agent_id) == ("sum it", 0, node.id)
    assert [r.instructions for r in provider.requests] == ["Base instructions. Be terse."] * 2
    assert node.conversation.instructions == "Base instructions. Be terse."


@pytest.mark.anyio
async def test_after_execution_changes_result() -> None:
    seen: list[str | None] = []

    async def hook(context: HookContext) -> ExecutionResultChange:
        seen.append(context.result)
        return ExecutionResultChange(result=f"[checked] {context.result}")

    node, events, _ = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.AFTER_EXECUTION, hook)
    )
    assert seen == ["The sum is 5."]
    assert node.result == "[checked] The sum is 5."
    assert only(events, "execution:complete").result == "[checked] The sum is 5."


@pytest.mark.anyio
async def test_before_llm_modifies_the_request() -> None:
    def hook(context: HookContext) -> LLMCallDecision:
        assert context.request is not None
        request = replace(
            context.request,
            model="other-model",
            instructions="Injected instructions.",
            messages=[*context.request.messages, user_text("(injected note)")],
        )
        return LLMCallDecision(request=request)

    node, events, provider = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.BEFORE_LLM, hook)
    )
    assert node.result == "The sum is 5."
    assert [r.model for r in provider.requests] == ["other-model"] * 2
    assert [r.instructions for r in provider.requests] == ["Injected instructions."] * 2
    assert provider.requests[0].messages[-1].text == "(injected note)"
    requested = of_type(events, "llm:request")
    assert [e.model for e in requested] == ["other-model"] * 2  # type: ignore[attr-defined]
    assert [e.message_count for e in requested] == [2, 4]  # type: ignore[attr-defined]
    # The change shapes the request only: the conversation itself is untouched.
    assert "(injected note)" not in [m.text for m in node.conversation.messages]
    assert node.conversation.instructions == "Base instructions."


@pytest.mark.anyio
async def test_before_llm_skip_without_a_response() -> None:
    node, events, provider = await run_script(
        *ADD_THEN_ANSWER,
        hooks=hooks_with(HookPoint.BEFORE_LLM, lambda context: LLMCallDecision(skip=True)),
    )
    assert provider.requests == []
    assert of_type(events, "llm:request") == []
    response = only(events, "llm:response")
    assert (response.skipped, response.text, response.stop_reason) == (True, "", "end_turn")
    assert node.status is AgentStatus.COMPLETED
    assert node.result == ""


@pytest.mark.anyio
async def test_before_llm_skip_with_a_replacement_response() -> None:
    def hook(context: HookContext) -> LLMCallDecision | None:
        if context.iteration == 1:  # answer the first call; let the model make the second
            turn = AssistantTurn(
                content=[
                    TextBlock(text="Canned."),
                    ToolUseBlock(id="canned_1", name="add", input={"a": 4, "b": 4}),
                ],
                tool_calls=[ToolCall("canned_1", "add", {"a": 4, "b": 4})],
                stop_reason="tool_use",
            )
            return LLMCallDecision(skip=True, response=turn)
        return None

    node, events, provider = await run_script(
        Turn(text="Eight."), hooks=hooks_with(HookPoint.BEFORE_LLM, hook)
    )
    assert node.result == "Eight."
    first, second = of_type(events, "llm:response")
    assert (first.skipped, first.text) == (True, "Canned.")  # type: ignore[attr-defined]
    assert (second.skipped, second.text) == (False, "Eight.")  # type: ignore[attr-defined]
    assert only(events, "tool:complete").result == "8"
    (request,) = provider.requests  # only the second call reached the model
    assert request.messages[1].text == "Canned."
    assert [r.content for r in tool_results(request.messages)] == ["8"]


@pytest.mark.anyio
async def test_after_llm_observes() -> None:
    observed: list[tuple[int, str, str | None, list[str]]] = []

    def hook(context: HookContext) -> None:
        assert context.response is not None
        observed.append(
            (
                context.iteration,
                context.response.text,
                context.response.stop_reason,
                [c.name for c in context.response.tool_calls],
            )
        )

    node, events, _ = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.AFTER_LLM, hook)
    )
    assert observed == [
        (1, "Let me add.", "tool_use", ["add"]),
        (2, "The sum is 5.", "end_turn", []),
    ]
    assert node.result == "The sum is 5."
    assert of_type(events, "hook:error") == []


@pytest.mark.anyio
async def test_before_tool_modifies_arguments() -> None:
    def hook(context: HookContext) -> ToolCallDecision:
        assert context.call is not None
        assert context.call.arguments == {"a": 2, "b": 3}
        return ToolCallDecision(arguments={"a": 20, "b": 30})

    node, events, provider = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.BEFORE_TOOL, hook)
    )
    started = only(events, "tool:start")
    assert started.call.arguments == {"a": 20, "b": 30}
    completed = only(events, "tool:complete")
    assert (completed.result, completed.mocked) == ("50", False)
    assert [r.content for r in tool_results(provider.requests[1].messages)] == ["50"]
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_before_tool_skip() -> None:
    counted, calls = counting_tool()

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("counted", n=1)]),
        Turn(text="done"),
        tools=[counted],
        hooks=hooks_with(HookPoint.BEFORE_TOOL, lambda context: ToolCallDecision(skip=True)),
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == []
    completed = only(events, "tool:complete")
    assert (completed.result, completed.mocked) == ("skipped by a before:tool hook", True)
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("skipped by a before:tool hook", False)
    assert node.result == "done"


@pytest.mark.anyio
async def test_before_tool_mock_result() -> None:
    counted, calls = counting_tool()

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("counted", n=1)]),
        Turn(text="done"),
        tools=[counted],
        hooks=hooks_with(
            HookPoint.BEFORE_TOOL, lambda context: ToolCallDecision(mock_result="mocked 42")
        ),
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == []
    completed = only(events, "tool:complete")
    assert (completed.result, completed.mocked) == ("mocked 42", True)
    assert [r.content for r in tool_results(provider.requests[1].messages)] == ["mocked 42"]
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_after_tool_modifies_result() -> None:
    seen: list[tuple[str | None, bool]] = []

    def hook(context: HookContext) -> ToolResultChange:
        seen.append((context.result, context.is_error))
        return ToolResultChange(result=f"<{context.result}>")

    node, events, provider = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.AFTER_TOOL, hook)
    )
    assert seen == [("5", False)]
    assert only(events, "tool:complete").result == "<5>"
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("<5>", False)
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_after_tool_sees_errors_and_keeps_them_errors() -> None:
    seen: list[tuple[str | None, bool]] = []

    def hook(context: HookContext) -> ToolResultChange:
        seen.append((context.result, context.is_error))
        return ToolResultChange(result="softened error")

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("fail_always", reason="x")]),
        Turn(text="ok"),
        tools=[fail_always],
        hooks=hooks_with(HookPoint.AFTER_TOOL, hook),
    )
    async with runtime:
        _, events = await run(runtime)
    assert seen == [("could not: x", True)]
    assert only(events, "tool:error").error == "softened error"
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("softened error", True)


@pytest.mark.anyio
async def test_approve_tool_rejects_with_a_reason() -> None:
    counted, calls = counting_tool()

    def approve(context: HookContext) -> ApprovalDecision:
        assert context.call is not None and context.call.name == "counted"
        return ApprovalDecision(approved=False, reason="not on a Friday")

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("counted", n=1)]),
        Turn(text="understood"),
        tools=[counted],
        hooks=hooks_with(HookPoint.APPROVE_TOOL, approve),
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == []
    assert of_type(events, "tool:start", "tool:complete") == []
    failed = only(events, "tool:error")
    assert failed.error == "the call was rejected: not on a Friday"
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("the call was rejected: not on a Friday", True)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "understood"


@pytest.mark.anyio
async def test_approve_tool_approval_lets_the_call_run() -> None:
    node, events, _ = await run_script(
        *ADD_THEN_ANSWER,
        hooks=hooks_with(HookPoint.APPROVE_TOOL, lambda context: ApprovalDecision(approved=True)),
    )
    assert only(events, "tool:complete").result == "5"
    assert node.result == "The sum is 5."


@pytest.mark.anyio
async def test_pause_check_pauses_until_resumed() -> None:
    checks: list[int] = []

    def hook(context: HookContext) -> PauseDecision:
        checks.append(context.iteration)
        # Pause before the second iteration (one iteration done).
        return PauseDecision(pause=context.iteration == 1, reason="budget")

    runtime, provider = make_runtime(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.PAUSE_CHECK, hook)
    )
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("the task")
        with anyio.fail_after(5):
            before = await events_until(subscription, lambda e: e.type == "execution:paused")
        assert before[-1].reason == "budget"  # type: ignore[attr-defined]
        assert runtime.node(agent_id).status is AgentStatus.PAUSED
        # Held before the second iteration: one model call so far.
        assert len(provider.requests) == 1
        assert [e.iteration for e in of_type(before, "iteration:start")] == [1]  # type: ignore[attr-defined]
        runtime.resume(agent_id)
        with anyio.fail_after(5):
            node = await runtime.wait(agent_id)
        after = subscription.drain()
    assert after[0].type == "agent:status"  # the paused status follows the paused event
    assert "execution:resumed" in types(after)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The sum is 5."
    assert len(provider.requests) == 2
    assert checks == [0, 1]  # once per iteration; the resume does not ask again


@pytest.mark.anyio
async def test_hook_that_raises_is_reported_and_the_run_completes() -> None:
    def broken(context: HookContext) -> None:
        raise RuntimeError("hook blew up")

    node, events, _ = await run_script(
        *ADD_THEN_ANSWER, hooks=hooks_with(HookPoint.BEFORE_TOOL, broken)
    )
    failure = only(events, "hook:error")
    assert isinstance(failure, HookFailed)
    assert (failure.hook, failure.error) == ("before:tool", "RuntimeError: hook blew up")
    assert only(events, "tool:complete").result == "5"  # treated as if it returned nothing
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The sum is 5."


@pytest.mark.anyio
async def test_hook_with_wrong_answer_type_is_reported_and_the_run_completes() -> None:
    hooks = HookManager()
    hooks.add(HookPoint.AFTER_TOOL, lambda context: "not a ToolResultChange")
    hooks.add("after:llm", lambda context: ApprovalDecision(approved=False))
    node, events, provider = await run_script(*ADD_THEN_ANSWER, hooks=hooks)
    errors = [(e.hook, e.error) for e in of_type(events, "hook:error")]  # type: ignore[attr-defined]
    assert errors == [
        ("after:llm", "hook returned ApprovalDecision, expected None"),
        ("after:tool", "hook returned str, expected ToolResultChange"),
        ("after:llm", "hook returned ApprovalDecision, expected None"),
    ]
    assert [r.content for r in tool_results(provider.requests[1].messages)] == ["5"]
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_removed_hook_is_not_called() -> None:
    calls: list[int] = []
    hooks = HookManager()
    remove = hooks.add(HookPoint.AFTER_LLM, lambda context: calls.append(context.iteration))
    remove()
    assert not hooks.has(HookPoint.AFTER_LLM)
    node, _, _ = await run_script(*ADD_THEN_ANSWER, hooks=hooks)
    assert calls == []
    assert node.status is AgentStatus.COMPLETED


# -- limits ----------------------------------------------------------------------------------


def endless_tool_calls(count: int) -> list[Turn]:
    return [Turn(text=f"step {i}", tool_calls=[call("add", a=i, b=1)]) for i in range(count)]


@pytest.mark.anyio
async def test_max_iterations_is_an_error_not_a_silent_stop() -> None:
    node, events, provider = await run_script(
        *endless_tool_calls(10), limits=Limits(max_iterations=3)
    )
    assert node.status is AgentStatus.ERROR
    failed = only(events, "execution:error")
    assert isinstance(failed, ExecutionFailed)
    assert failed.kind == "max_iterations"
    assert "3 iterations" in failed.error
    assert node.error == failed.error
    assert of_type(events, "execution:complete") == []
    assert len(provider.requests) == 3
    assert len(of_type(events, "tool:complete")) == 3


@pytest.mark.anyio
async def test_answer_on_the_last_allowed_iteration_completes() -> None:
    node, _, _ = await run_script(*ADD_THEN_ANSWER, limits=Limits(max_iterations=2))
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_max_tool_calls() -> None:
    counted, calls = counting_tool(echo=True)

    runtime, _ = make_runtime(
        Turn(tool_calls=[call("counted", n=1)]),
        Turn(tool_calls=[call("counted", n=2), call("counted", n=3)]),
        Turn(text="never reached"),
        tools=[counted],
        limits=Limits(max_tool_calls=2),
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == [1, 2]
    failed = only(events, "execution:error")
    assert failed.kind == "max_tool_calls"
    assert failed.error == "reached the limit of 2 tool calls"
    assert node.status is AgentStatus.ERROR
    # Every tool_use still has its result, so the conversation stays valid.
    uses = [b.id for m in node.conversation.messages for b in m.tool_uses]
    answered = [b.tool_use_id for m in node.conversation.messages for b in m.tool_results]
    assert uses == answered


@pytest.mark.anyio
async def test_max_duration_with_a_frozen_clock() -> None:
    clock = FrozenClock()
    calls: list[str] = []

    @tool
    async def slow(label: str) -> str:
        calls.append(label)
        clock.advance(10.0)  # the tool "takes" ten seconds; no real time passes
        return "slow result"

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("slow", label="first"), call("slow", label="second")]),
        Turn(text="never reached"),
        tools=[slow],
        limits=Limits(max_duration_s=5.0),
        clock=clock,
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == ["first"]  # the limit is checked before each tool call, too
    failed = only(events, "execution:error")
    assert failed.kind == "max_duration"
    assert failed.error == "ran longer than 5 s"
    assert node.status is AgentStatus.ERROR
    assert len(provider.requests) == 1


@pytest.mark.anyio
async def test_max_duration_checked_before_the_next_iteration() -> None:
    clock = FrozenClock()

    @tool
    async def slow() -> str:
        clock.advance(6.0)
        return "slow result"

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("slow")]),
        Turn(text="never reached"),
        tools=[slow],
        limits=Limits(max_duration_s=5.0),
        clock=clock,
    )
    async with runtime:
        node, events = await run(runtime)
    assert only(events, "tool:complete").duration_s == 6.0
    assert only(events, "execution:error").kind == "max_duration"
    assert len(provider.requests) == 1  # the second model call never happened
    assert node.status is AgentStatus.ERROR


@pytest.mark.anyio
async def test_tool_timeout() -> None:
    never = anyio.Event()

    @tool
    async def stuck() -> str:
        await never.wait()
        return "unreachable"

    runtime, provider = make_runtime(
        Turn(tool_calls=[call("stuck")]),
        Turn(text="It timed out."),
        tools=[stuck],
        limits=Limits(tool_timeout_s=0.05),
    )
    async with runtime:
        node, events = await run(runtime)
    timed_out = only(events, "tool:timeout")
    assert (timed_out.name, timed_out.timeout_s) == ("stuck", 0.05)
    failed = only(events, "tool:error")
    assert failed.error == "stuck timed out after 0.05 s"
    assert types(events).index("tool:timeout") < types(events).index("tool:error")
    assert of_type(events, "tool:complete") == []
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("stuck timed out after 0.05 s", True)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It timed out."


@pytest.mark.anyio
async def test_per_tool_timeout_overrides_the_limit() -> None:
    never = anyio.Event()

    @tool(timeout_s=0.05)
    async def stuck() -> str:
        await never.wait()
        return "unreachable"

    node, events, _ = await run_script(
        Turn(tool_calls=[call("stuck")]),
        Turn(text="ok"),
        tools=[stuck],
        limits=Limits(tool_timeout_s=600),
    )
    assert only(events, "tool:timeout").timeout_s == 0.05
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_tool_failure_mode_continue() -> None:
    node, events, provider = await run_script(
        Turn(tool_calls=[call("fail_always", reason="disk full")]),
        Turn(text="The tool failed."),
        tools=[fail_always],
        limits=Limits(tool_failure_mode="continue"),
    )
    failed = only(events, "tool:error")
    assert isinstance(failed, ToolFailed)
    assert failed.error == "could not: disk full"
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == ("could not: disk full", True)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The tool failed."


@pytest.mark.anyio
async def test_tool_failure_mode_fail() -> None:
    node, events, provider = await run_script(
        Turn(tool_calls=[call("fail_always", reason="disk full")]),
        Turn(text="never reached"),
        tools=[fail_always],
        limits=Limits(tool_failure_mode="fail"),
    )
    assert only(events, "tool:error").error == "could not: disk full"
    failed = only(events, "execution:error")
    assert failed.kind == "tool"
    assert failed.error == "tool fail_always failed: could not: disk full"
    assert node.status is AgentStatus.ERROR
    assert node.error == failed.error
    assert len(provider.requests) == 1


@pytest.mark.anyio
async def test_tool_failure_mode_fail_keeps_the_real_error_in_the_conversation() -> None:
    node, _, _ = await run_script(
        Turn(tool_calls=[call("fail_always", reason="disk full")]),
        tools=[fail_always],
        limits=Limits(tool_failure_mode="fail"),
    )
    assert node.status is AgentStatus.ERROR
    (result,) = tool_results(node.conversation.messages)
    # A follow-up run (send) must see what really happened to the call.
    assert (result.content, result.is_error) == ("could not: disk full", True)


# -- provider errors -------------------------------------------------------------------------


@pytest.mark.anyio
async def test_provider_error_mid_stream() -> None:
    node, events, provider = await run_script(
        Turn(
            text="This answer will be cut off part way through.",
            error=ScriptedError(message="upstream said 500", after_chunks=2),
        ),
    )
    assert len(of_type(events, "text:delta")) == 2
    llm_error = only(events, "llm:error")
    assert isinstance(llm_error, LLMFailed)
    assert (llm_error.error, llm_error.retryable, llm_error.iteration) == (
        "upstream said 500",
        False,
        1,
    )
    failed = only(events, "execution:error")
    assert (failed.kind, failed.error) == ("provider", "upstream said 500")
    assert types(events).index("llm:error") < types(events).index("execution:error")
    assert of_type(events, "llm:response", "execution:complete") == []
    assert node.status is AgentStatus.ERROR
    assert len(provider.requests) == 1  # not retried


@pytest.mark.anyio
async def test_retryable_error_then_success() -> None:
    node, events, provider = await run_script(
        Turn(
            text="PARTIAL-GARBAGE that will never be kept",
            error=ScriptedError(message="overloaded", retryable=True, after_chunks=2),
        ),
        Turn(text="Clean answer."),
        limits=Limits(retry_backoff_s=0),
    )
    llm_error = only(events, "llm:error")
    assert (llm_error.error, llm_error.retryable) == ("overloaded", True)
    assert len(of_type(events, "llm:request")) == 2
    assert len(provider.requests) == 2
    response = only(events, "llm:response")
    assert (response.text, response.iteration) == ("Clean answer.", 1)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Clean answer."
    assert only(events, "execution:complete").iterations == 1
    # The failed attempt streamed deltas, but its text never entered the conversation.
    streamed = "".join(e.delta for e in of_type(events, "text:delta"))  # type: ignore[attr-defined]
    assert streamed.startswith("PARTIAL")
    texts = [m.text for m in node.conversation.messages]
    assert texts == ["the task", "Clean answer."]
    assert all("PARTIAL" not in m.model_dump_json() for m in provider.requests[1].messages)


@pytest.mark.anyio
async def test_retryable_error_gives_up_after_the_retries() -> None:
    flaky = Turn(error=ScriptedError(message="overloaded", retryable=True))
    node, events, provider = await run_script(
        flaky, flaky, flaky, limits=Limits(llm_retries=2, retry_backoff_s=0)
    )
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, True, False]  # type: ignore[attr-defined]
    assert len(provider.requests) == 3
    assert only(events, "execution:error").kind == "provider"
    assert node.status is AgentStatus.ERROR


async def cancel_during_retry_backoff() -> tuple[AgentNode, list[Event], ScriptedProvider]:
    """Fail the first attempt retryably mid-stream, then cancel while the loop backs off."""
    runtime, provider = make_runtime(
        Turn(
            text="PARTIAL-GARBAGE from the failed attempt",
            error=ScriptedError(message="overloaded", retryable=True, after_chunks=2),
        ),
        Turn(text="never reached"),
        limits=Limits(retry_backoff_s=1000),  # cancelled long before: no real time passes
    )
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("the task")
        with anyio.fail_after(5):
            events = await events_until(subscription, lambda e: e.type == "llm:error")
        runtime.cancel(agent_id)
        with anyio.fail_after(5):
            node = await runtime.wait(agent_id)
        events += subscription.drain()
    return node, events, provider


@pytest.mark.anyio
async def test_cancel_during_retry_backoff() -> None:
    node, events, provider = await cancel_during_retry_backoff()
    assert node.status is AgentStatus.CANCELLED
    assert len(provider.requests) == 1  # the backoff was still running
    assert only(events, "llm:error").retryable is True
    assert [m.text for m in node.conversation.messages] == ["the task"]


@pytest.mark.anyio
async def test_cancel_during_retry_backoff_reports_no_partial_text() -> None:
    _, events, _ = await cancel_during_retry_backoff()
    assert only(events, "execution:cancelled").partial_text == ""


# -- bad tool calls --------------------------------------------------------------------------


@pytest.mark.anyio
async def test_bad_tool_arguments_reach_the_model() -> None:
    node, events, provider = await run_script(
        Turn(tool_calls=[call("add", a="two", b=3)]),
        Turn(text="I passed a bad argument."),
    )
    failed = only(events, "tool:error")
    assert failed.error.startswith("invalid arguments for add: a: Input should be a valid integer")
    (result,) = tool_results(provider.requests[1].messages)
    assert result.is_error
    assert result.content == failed.error
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_malformed_json_arguments_reach_the_model() -> None:
    counted, calls = counting_tool()

    runtime, provider = make_runtime(
        Turn(tool_calls=[ScriptedToolCall(name="counted", raw_arguments="{not json")]),
        Turn(text="My JSON was broken."),
        tools=[counted],
    )
    async with runtime:
        node, events = await run(runtime)
    assert calls == []
    detected = only(events, "tool:detected")
    assert detected.calls[0].arguments == {}
    failed = only(events, "tool:error")
    assert failed.error.startswith("arguments were not valid JSON (")
    assert failed.error.endswith("): {not json")
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == (failed.error, True)
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "My JSON was broken."


@pytest.mark.anyio
async def test_non_object_json_arguments_reach_the_model() -> None:
    node, events, _ = await run_script(
        Turn(tool_calls=[ScriptedToolCall(name="add", raw_arguments="[1, 2]")]),
        Turn(text="ok"),
    )
    assert only(events, "tool:error").error == "arguments must be a JSON object, got list"
    assert node.status is AgentStatus.COMPLETED


@pytest.mark.anyio
async def test_unknown_tool_name() -> None:
    node, events, provider = await run_script(
        Turn(tool_calls=[call("subtract", a=1, b=2)]),
        Turn(text="That tool does not exist."),
    )
    failed = only(events, "tool:error")
    assert failed.error == "unknown tool 'subtract'; available tools: add"
    (result,) = tool_results(provider.requests[1].messages)
    assert (result.content, result.is_error) == (failed.error, True)
    assert node.status is AgentStatus.COMPLETED


# -- stop reasons ----------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("stop_reason", "message"),
    [
        ("refusal", "the model refused to continue"),
        (
            "model_context_window_exceeded",
            "the conversation no longer fits the model's context window",
        ),
    ],
)
async def test_failing_stop_reasons(stop_reason: str, message: str) -> None:
    node, events, _ = await run_script(Turn(text="I won't.", stop_reason=stop_reason))
    failed = only(events, "execution:error")
    assert (failed.kind, failed.error) == ("provider", message)
    assert only(events, "llm:response").stop_reason == stop_reason
    assert node.status is AgentStatus.ERROR
    assert of_type(events, "execution:complete") == []


@pytest.mark.anyio
async def test_pause_turn_continues_the_loop() -> None:
    node, events, provider = await run_script(
        Turn(text="Working on it...", stop_reason="pause_turn"),
        Turn(text="Done now."),
    )
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Done now."
    completed = only(events, "execution:complete")
    assert (completed.iterations, completed.stop_reason) == (2, "end_turn")
    assert len(provider.requests) == 2
    # The paused turn goes back to the model as it was.
    assert [m.role for m in provider.requests[1].messages] == ["user", "assistant"]
    assert provider.requests[1].messages[1].text == "Working on it..."


@pytest.mark.anyio
async def test_max_tokens_completes_with_the_stop_reason() -> None:
    node, events, _ = await run_script(Turn(text="Truncated answ", stop_reason="max_tokens"))
    completed = only(events, "execution:complete")
    assert isinstance(completed, ExecutionCompleted)
    assert (completed.result, completed.stop_reason) == ("Truncated answ", "max_tokens")
    assert node.status is AgentStatus.COMPLETED


# -- streaming and non-streaming -------------------------------------------------------------


@pytest.mark.anyio
async def test_streaming_false_emits_no_deltas_but_the_same_run() -> None:
    script = (
        Turn(
            thinking="Think before adding.",
            text="Let me add the numbers.",
            tool_calls=[call("add", a=2, b=3)],
        ),
        Turn(text="The sum is 5, as computed."),
    )
    streamed_node, streamed, _ = await run_script(*script, streaming=True)
    quiet_node, quiet, _ = await run_script(*script, streaming=False)
    assert of_type(streamed, "text:delta") and of_type(streamed, "thinking:delta")
    assert of_type(quiet, "text:delta", "thinking:delta") == []

    def iterations(events: list[Event]) -> list[tuple[str, int]]:
        return [(e.type, e.iteration) for e in events if hasattr(e, "iteration")]  # type: ignore[attr-defined]

    def responses(events: list[Event]) -> list[tuple[int, str]]:
        return [(e.iteration, e.text) for e in events if isinstance(e, LLMResponded)]

    assert iterations(quiet) == [
        p for p in iterations(streamed) if p[0] not in ("text:delta", "thinking:delta")
    ]
    assert responses(quiet) == responses(streamed)
    assert responses(quiet) == [(1, "Let me add the numbers."), (2, "The sum is 5, as computed.")]
    assert quiet_node.result == streamed_node.result == "The sum is 5, as computed."
    assert [m.model_dump() for m in quiet_node.conversation.messages] == [
        m.model_dump() for m in streamed_node.conversation.messages
    ]


# -- conversation across runs ----------------------------------------------------------------


@pytest.mark.anyio
async def test_conversation_is_kept_across_runs() -> None:
    runtime, provider = make_runtime(*ADD_THEN_ANSWER, Turn(text="Still 5."))
    async with runtime:
        node, first = await run(runtime, "add 2 and 3")
        assert node.status is AgentStatus.COMPLETED
        subscription = runtime.subscribe(maxsize=None)
        runtime.send(node.id, "follow up")
        with anyio.fail_after(5):
            node = await runtime.wait(node.id)
        second = subscription.drain()
    assert only(first, "execution:start").run == 1
    started = only(second, "execution:start")
    assert (started.run, started.task) == (2, "follow up")
    assert started.execution_id != only(first, "execution:start").execution_id
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Still 5."
    assert node.runs == 2
    # The follow-up request carries the whole earlier exchange, then the new message.
    request = provider.requests[-1]
    assert [m.role for m in request.messages] == ["user", "assistant", "user", "assistant", "user"]
    assert request.messages[0].text == "add 2 and 3"
    assert request.messages[1].tool_uses[0].name == "add"
    assert [r.content for r in tool_results(request.messages)] == ["5"]
    assert request.messages[3].text == "The sum is 5."
    assert request.messages[4].text == "follow up"
    # Iterations count from 1 again in the new run.
    assert [e.iteration for e in of_type(second, "iteration:start")] == [1]  # type: ignore[attr-defined]
    statuses = [(e.old, e.new) for e in of_type(second, "agent:status")]  # type: ignore[attr-defined]
    assert statuses == [("completed", "running"), ("running", "completed")]
    assert node.conversation.messages[-1].text == "Still 5."


@pytest.mark.anyio
async def test_send_refused_while_running() -> None:
    runtime, _ = make_runtime(Turn(text="x", hang_after_chunks=0))
    async with runtime:
        subscription = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("task")
        with anyio.fail_after(5):
            await events_until(subscription, lambda e: e.type == "llm:request")
        with pytest.raises(CommandRefusedError, match="only an ended agent can be continued"):
            runtime.send(agent_id, "more")
        runtime.cancel(agent_id)
        with anyio.fail_after(5):
            node = await runtime.wait(agent_id)
    assert node.status is AgentStatus.CANCELLED
