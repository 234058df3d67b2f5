"""fork and wait as model tool calls: subagents of the caller, their results and failures, and
the depth and live-children limits."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import CommandRefusedError, LimitExceededError
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type

pytestmark = pytest.mark.anyio

S = AgentStatus


def fork(prompt: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="fork", arguments={"prompt": prompt})


def wait(handle: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="wait", arguments={"handle": handle})


def build(script: Script, **options: Any) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script)
    tools = ToolRegistry([FORK, WAIT])
    return Runtime(provider, tools=tools, clock=FrozenClock(), **options), provider


def results(provider: ScriptedProvider, agent_id: str, index: int) -> list[tuple[str, bool]]:
    requests = [r for r in provider.requests if r.agent_id == agent_id]
    last = requests[index].messages[-1]
    return [(b.content, b.is_error) for b in last.tool_results]


async def run(runtime: Runtime, task: str = "Split the work") -> str:
    root = runtime.start(task)
    with anyio.fail_after(10):
        await runtime.wait(root)
    return root


async def test_fork_then_wait_returns_the_subagents_result() -> None:
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[fork("Count the chairs")]),
                Turn(tool_calls=[wait("a2")]),
                Turn(text="There are 12 chairs."),
            ],
            "main.1": [Turn(text="12 chairs")],
        }
    )
    runtime, provider = build(script)
    async with runtime:
        root = await run(runtime)
    child = runtime.node("a2")
    assert (child.parent_id, child.name, child.task) == (root, "main.1", "Count the chairs")
    assert results(provider, root, 1) == [
        ("started subagent a2; call wait with handle 'a2' for its result", False)
    ]
    assert results(provider, root, 2) == [("12 chairs", False)]
    assert runtime.node(root).result == "There are 12 chairs."


async def test_wait_reports_a_failed_subagent_as_a_tool_error() -> None:
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[fork("Try something"), wait("a2")]),
                Turn(text="It failed; I will do it myself."),
            ],
            "main.1": [Turn(error=ScriptedError(message="overloaded"))],
        }
    )
    runtime, provider = build(script)
    async with runtime:
        root = await run(runtime)
    assert results(provider, root, 1)[1] == ("subagent main.1 (a2) failed: overloaded", True)
    assert runtime.node(root).status is S.COMPLETED


async def test_wait_reports_a_cancelled_subagent() -> None:
    script = Script(
        agents={
            "main": [Turn(tool_calls=[fork("Slow"), wait("a2")]), Turn(text="ok")],
            "main.1": [Turn(text="slow", hang_after_chunks=1)],
        }
    )
    runtime, provider = build(script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("x")
        await recorder.wait_for(is_type("text:delta", "a2"))
        runtime.cancel("a2", "not needed")
        with anyio.fail_after(10):
            await runtime.wait(root)
    assert results(provider, root, 1)[1] == ("subagent main.1 (a2) was cancelled: not needed", True)


@pytest.mark.parametrize(
    "handle",
    ["a1", "a2", "a9"],
    ids=["another-root", "the-caller-itself", "unknown"],
)
async def test_wait_takes_only_the_callers_own_subagents(handle: str) -> None:
    script = Script(
        agents={
            "main": [Turn(tool_calls=[wait(handle)]), Turn(text="ok")],
            "other": [Turn(text="other's work")],
        }
    )
    runtime, provider = build(script)
    async with runtime:
        runtime.start("someone else's", name="other")  # a1
        root = runtime.start("x", name="main")  # a2
        with anyio.fail_after(10):
            await runtime.wait(root)
    content, is_error = results(provider, root, 1)[0]
    assert is_error
    assert (
        content == f"{handle!r} is not a subagent of main; wait takes a handle that fork returned"
    )


async def test_forking_past_the_depth_limit_is_refused() -> None:
    script = Script(
        agents={
            "main": [Turn(tool_calls=[fork("Go deeper"), wait("a2")]), Turn(text="done")],
            "main.1": [Turn(tool_calls=[fork("Deeper still")]), Turn(text="could not")],
        }
    )
    runtime, provider = build(script, limits=Limits(max_depth=1))
    async with runtime:
        root = await run(runtime)
    assert results(provider, "a2", 1) == [
        ("cannot fork: a subagent of main.1 would be at depth 2, and the limit is 1", True)
    ]
    assert runtime.node("a2").children == []
    assert runtime.node(root).status is S.COMPLETED


async def test_forking_past_the_live_children_limit_is_refused() -> None:
    script = Script(
        agents={
            "main": [Turn(tool_calls=[fork("one"), fork("two")]), Turn(text="one only")],
            "main.1": [Turn(text="busy", hang_after_chunks=1)],
        }
    )
    runtime, provider = build(script, limits=Limits(max_live_children=1))
    async with runtime:
        root = await run(runtime)
        assert len(runtime.node(root).children) == 1
    (_, refused) = results(provider, root, 1)
    assert refused == (
        "cannot fork: main already has 1 running subagents, the limit; "
        "wait for one to finish first",
        True,
    )


async def test_runtime_fork_and_join_directly() -> None:
    script = Script(agents={"*": [Turn(text="done")]})
    runtime, _ = build(script)
    async with runtime:
        root = await run(runtime)
        with pytest.raises(CommandRefusedError, match="it cannot fork"):
            runtime.fork(root, "too late")
        other = runtime.start("another root")
        child = runtime.fork(other, "a part")
        with anyio.fail_after(10):
            outcome = await runtime.join(other, child)
        assert (outcome.ok, outcome.result, outcome.describe()) == (True, "done", "done")
        with pytest.raises(CommandRefusedError):
            await runtime.join(root, child)
    limited, _ = build(script, limits=Limits(max_depth=0))
    async with limited:
        with pytest.raises(LimitExceededError, match="would be at depth 1, and the limit is 0"):
            limited.fork(limited.start("r"), "no room")


async def test_live_children_are_counted_as_they_start_and_end() -> None:
    # main.2 is cancelled before its first model call; continued, it hangs mid-answer.
    hangs = Turn(text="still working", hang_after_chunks=1)
    script = Script(agents={"main.2": [hangs], "*": [Turn(text="done")]})
    runtime, _ = build(script, limits=Limits(max_live_children=1))
    async with runtime:
        root = runtime.start("hold the children")
        runtime.pause(root)  # live (paused) while its children come and go
        first = runtime.fork(root, "one")
        with pytest.raises(LimitExceededError, match="already has 1 running subagents"):
            runtime.fork(root, "two")
        await runtime.wait(first)
        second = runtime.fork(root, "two")  # the first ended: room again
        runtime.cancel(second)
        await runtime.wait(second)
        rec = Recorder(runtime)
        runtime.send(second, "Go on.")  # a continued child is running again, and counts
        await rec.wait_for(lambda e: e.agent_id == second and getattr(e, "new", "") == "running")
        with pytest.raises(LimitExceededError):
            runtime.fork(root, "three")
        runtime.delete(second)  # deleted while running: room again, counted once
        await runtime.wait(second)
        third = runtime.fork(root, "three")
        with pytest.raises(LimitExceededError, match="already has 1 running subagents"):
            runtime.fork(root, "four")
        runtime.cancel(root)
        assert (await runtime.wait(third)).status is AgentStatus.CANCELLED
