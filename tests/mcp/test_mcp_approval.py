"""MCP tools go through the runtime's approval query as the python tool does: once, always and
reject by the person; the config's approval per server and per tool; the approve-all policy."""

from __future__ import annotations

from typing import Any

import pytest

from agentui.core.protocol.events import QueryRaised

from .servers import Events, by_agent, calls, mcp_runtime, outcomes, stdio_server

pytestmark = pytest.mark.anyio


def is_approval(event: Any) -> bool:
    return isinstance(event, QueryRaised) and event.kind == "approval"


async def test_once_runs_the_call_and_asks_again_next_time() -> None:
    script = calls(("echo__echo", {"text": "one"}), ("echo__echo", {"text": "two"}))
    runtime, _, _ = mcp_runtime({"echo": stdio_server()}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("echo twice")
        for count in (1, 2):
            raised = (await events.wait_for(is_approval, count))[-1]
            assert isinstance(raised, QueryRaised)
            runtime.approve(raised.query_id, "once")
        await events.ended(agent)
    first = next(e for e in events.events if is_approval(e))
    assert first.tool == "echo__echo" and first.arguments == {"text": "one"}  # type: ignore[attr-defined]
    assert first.prompt == 'Allow echo__echo to run?\n{"text": "one"}'  # type: ignore[attr-defined]
    assert outcomes(events, agent) == [
        ("echo__echo", "one", False),
        ("echo__echo", "two", False),
    ]


async def test_always_is_remembered_for_the_rest_of_the_run() -> None:
    script = by_agent(
        calls(("echo__echo", {"text": "one"}), ("echo__echo", {"text": "two"})),
        calls(("echo__echo", {"text": "three"})),
    )
    runtime, _, _ = mcp_runtime({"echo": stdio_server()}, script=script)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        first = runtime.start("echo twice")
        (raised,) = await events.wait_for(is_approval)
        runtime.approve(raised.query_id, "always")  # type: ignore[attr-defined]
        await events.ended(first)
        second = runtime.start("echo again")
        await events.ended(second)
    assert len([e for e in events.events if is_approval(e)]) == 1
    assert [result for _, result, _ in outcomes(events, first)] == ["one", "two"]
    assert outcomes(events, second) == [("echo__echo", "three", False)]


async def test_reject_fails_the_call_with_the_reason_and_the_server_is_not_called() -> None:
    script = by_agent(
        calls(("echo__crash", {})),
        calls(("echo__echo", {"text": "still up"})),
    )
    runtime, _, _ = mcp_runtime(
        {"echo": stdio_server(tools={"echo": {"approval": "always"}})}, script=script
    )
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("crash it")
        (raised,) = await events.wait_for(is_approval)
        runtime.approve(raised.query_id, "reject", "not on my machine")  # type: ignore[attr-defined]
        await events.ended(agent)
        other = runtime.start("echo")
        await events.ended(other)
    assert outcomes(events, agent) == [
        ("echo__crash", "the person rejected the call: not on my machine", True)
    ]
    assert outcomes(events, other) == [("echo__echo", "still up", False)], "never crashed"
    assert [e.state for e in events.of("mcp:server")] == ["starting", "ready"]  # type: ignore[attr-defined]


async def test_a_tool_can_ask_on_a_server_that_runs_without_asking() -> None:
    script = calls(("echo__echo", {"text": "free"}), ("echo__add", {"a": 1, "b": 1}))
    server = stdio_server(approval="always", tools={"add": {"approval": "ask"}})
    runtime, _, _ = mcp_runtime({"echo": server}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("echo, then add")
        (raised,) = await events.wait_for(is_approval)
        runtime.approve(raised.query_id, "once")  # type: ignore[attr-defined]
        await events.ended(agent)
    assert raised.tool == "echo__add"  # type: ignore[attr-defined]
    assert [name for name, _, failed in outcomes(events, agent) if not failed] == [
        "echo__echo",
        "echo__add",
    ]


async def test_approve_all_runs_ask_tools_without_asking() -> None:
    script = calls(("echo__echo", {"text": "yes"}))
    runtime, _, _ = mcp_runtime({"echo": stdio_server()}, *script, approve_all=True)
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("echo")
        await events.ended(agent)
    assert not [e for e in events.events if is_approval(e)]
    assert outcomes(events, agent) == [("echo__echo", "yes", False)]
    (decided,) = events.of("approval:decided")
    assert decided.source == "policy"  # type: ignore[attr-defined]
