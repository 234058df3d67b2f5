"""MCP servers' tools in the runtime, against a real server written with the same SDK, over
stdio and over streamable HTTP on 127.0.0.1: listing, calls and their results, a crash
mid-call and the restart, a hang past the tool timeout, cancel during a call."""

from __future__ import annotations

import json

import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import ToolFailed

from .servers import (
    SILENT,
    Events,
    HttpEchoServer,
    by_agent,
    calls,
    echo_server,
    mcp_runtime,
    outcomes,
    stdio_server,
    unstartable_server,
)

pytestmark = pytest.mark.anyio

TRANSPORTS = pytest.mark.parametrize("transport", ["stdio", "http"])


@TRANSPORTS
async def test_a_ready_server_offers_its_tools_as_server__tool_with_their_schemas(
    transport: str,
) -> None:
    async with echo_server(transport, tools={"hang": {"approval": "never"}}) as config:
        runtime, _, _ = mcp_runtime({"echo": config})
        async with runtime:
            events = Events(runtime)
            starting = await events.server("echo", "starting")
            ready = await events.server("echo", "ready")
            add = runtime.tools.get("echo__add")
    assert starting.agent_id == "" and ready.agent_id == "", "the runtime's, not an agent's"
    assert "echo__echo" in ready.tools and "echo__add" in ready.tools
    assert "echo__hang" not in ready.tools, "a tool set to never is not offered"
    assert runtime.tools.get("echo__hang") is None
    assert add is not None and add.needs_approval, "MCP tools need approval by default"
    schema = add.spec.input_schema
    assert schema["required"] == ["a", "b"]
    assert schema["properties"]["a"]["type"] == "integer"
    assert add.spec.description == "Add two integers."


@TRANSPORTS
async def test_calls_return_text_structured_results_errors_and_image_placeholders(
    transport: str,
) -> None:
    script = calls(
        ("echo__echo", {"text": "hello"}),
        ("echo__add", {"a": 2, "b": 40}),
        ("echo__fail", {"why": "the disk is full"}),
        ("echo__image", {}),
        ("echo__add", {"a": "two"}),
    )
    async with echo_server(transport, approval="always") as config:
        runtime, provider, _ = mcp_runtime({"echo": config}, *script)
        async with runtime:
            events = Events(runtime)
            await events.server("echo", "ready")
            agent = runtime.start("use the tools")
            await events.ended(agent)
            status = runtime.node(agent).status
    echo, add, fail, image, bad = outcomes(events, agent)
    assert echo == ("echo__echo", "hello", False)
    assert add[0] == "echo__add" and json.loads(add[1]) == {"total": 42} and not add[2]
    assert fail[2] and "the disk is full" in fail[1], "isError fails the call with its text"
    assert image == ("echo__image", "[image: image/png, 12 KB]", False)
    assert bad[2] and bad[1].startswith("invalid arguments for echo__add:")
    assert "'two' is not of type 'integer'" in bad[1], "checked against the server's schema"
    assert status is AgentStatus.COMPLETED
    # The model read each result as the loop put it in the conversation.
    last = provider.requests[-1].messages
    results = [b.content for m in last for b in m.tool_results]
    assert results[0] == "hello"


@TRANSPORTS
async def test_a_result_past_max_result_bytes_keeps_its_head_and_tail_and_says_the_cut(
    transport: str,
) -> None:
    size = 200_000  # far past the cap; a few MB cost seconds of JSON-RPC and told no more
    script = calls(
        ("echo__big", {"size": size}),
        ("echo__big_fail", {"size": size}),
        ("echo__big", {"size": 900}),
    )
    settings = {"approval": "always", "max_result_bytes": 1000}
    async with echo_server(transport, **settings) as config:
        runtime, provider, _ = mcp_runtime({"echo": config}, *script)
        async with runtime:
            events = Events(runtime)
            await events.server("echo", "ready")
            agent = runtime.start("read a lot")
            await events.ended(agent)
    result, error, small = outcomes(events, agent)
    lines = "".join(f"line {n:07d}\n" for n in range(size // 13 + 1))
    cut = f"\n[output cut: {size - 1000} bytes in the middle were not shown]\n"
    # Two thirds of the cap from the head, the rest from the tail, as python's output.
    assert result == ("echo__big", lines[:666] + cut + lines[:size][-334:], False)
    assert error[2] and " bytes in the middle were not shown]" in error[1], "an error is capped too"
    assert len(error[1]) < 1100 and error[1].endswith(lines[:size][-334:])
    assert small == ("echo__big", lines[:900], False), "a result within the cap is whole"
    sent = [b.content for m in provider.requests[-1].messages for b in m.tool_results]
    assert sent[0] == result[1], "the model reads the capped result"


@TRANSPORTS
async def test_a_crash_mid_call_fails_the_call_and_the_server_comes_back(transport: str) -> None:
    http = HttpEchoServer()
    if transport == "http":
        await http.start()
    config = (stdio_server if transport == "stdio" else http.config)(approval="always")
    script = by_agent(calls(("echo__crash", {})), calls(("echo__echo", {"text": "again"})))
    runtime, _, _ = mcp_runtime({"echo": config}, script=script)
    try:
        async with runtime:
            events = Events(runtime)
            await events.server("echo", "ready")
            first = runtime.start("crash it")
            await events.wait_for(lambda e: isinstance(e, ToolFailed) and e.agent_id == first)
            failed = await events.server("echo", "failed")
            if transport == "http":  # the process is gone: start it again on its port
                await http.wait_exited()
                await http.stop()
                await http.start()
            await events.server("echo", "restarting")
            back = await events.server("echo", "ready", count=2)
            await events.ended(first)
            second = runtime.start("call it again")
            await events.ended(second)
    finally:
        await http.stop()
    crashed = outcomes(events, first)[0]
    assert crashed[0] == "echo__crash" and crashed[2]
    assert "MCP server 'echo'" in crashed[1] and "closed the connection" in crashed[1]
    assert failed.error and failed.retry_in_s is not None
    if transport == "stdio":
        assert "crashing on purpose" in failed.error, "the server's last stderr line says why"
    assert "echo__echo" in back.tools
    assert outcomes(events, second) == [("echo__echo", "again", False)]


@TRANSPORTS
async def test_a_call_that_hangs_fails_at_the_tool_timeout_and_the_agent_goes_on(
    transport: str,
) -> None:
    script = calls(("echo__hang", {}), ("echo__echo", {"text": "still here"}))
    async with echo_server(transport, approval="always", timeout_s=0.5) as config:
        runtime, _, _ = mcp_runtime({"echo": config}, *script)
        async with runtime:
            events = Events(runtime)
            await events.server("echo", "ready")
            agent = runtime.start("hang")
            await events.ended(agent)
            status = runtime.node(agent).status
    assert events.of("tool:timeout", agent_id=agent)[0].name == "echo__hang"  # type: ignore[attr-defined]
    hang, echo = outcomes(events, agent)
    assert hang == ("echo__hang", "echo__hang timed out after 0.5 s", True)
    assert echo == ("echo__echo", "still here", False), "the server still answers"
    assert status is AgentStatus.COMPLETED
    assert not [e for e in events.of("mcp:server") if e.state == "failed"]  # type: ignore[attr-defined]


@TRANSPORTS
async def test_cancel_during_a_call_cancels_the_request_at_the_server(transport: str) -> None:
    script = by_agent(
        calls(("echo__hang", {})),
        calls(("echo__wait_hanging", {})),  # returns once the server runs the hang call
        calls(("echo__wait_cancelled", {})),
    )
    async with echo_server(transport, approval="always") as config:
        runtime, _, _ = mcp_runtime({"echo": config}, script=script)
        async with runtime:
            events = Events(runtime)
            await events.server("echo", "ready")
            agent = runtime.start("hang")
            await events.wait_for(lambda e: e.type == "tool:start" and e.agent_id == agent)
            await events.ended(runtime.start("is it hanging?"))
            runtime.cancel(agent)
            await events.ended(agent)
            assert runtime.node(agent).status is AgentStatus.CANCELLED
            check = runtime.start("was it cancelled?")
            await events.ended(check)
    assert outcomes(events, check) == [("echo__wait_cancelled", "a hang call was cancelled", False)]


async def test_a_server_that_cannot_start_fails_with_why_and_is_tried_again() -> None:
    runtime, _, _ = mcp_runtime({"broken": unstartable_server()})
    async with runtime:
        events = Events(runtime)
        failed = await events.server("broken", "failed")
        await events.server("broken", "restarting")
        again = await events.server("broken", "failed", count=2)
    assert failed.error == "cannot start no-such-program-agentui: No such file or directory"
    assert failed.tools == []
    assert again.retry_in_s is not None and failed.retry_in_s is not None
    assert again.retry_in_s >= failed.retry_in_s, "the wait grows"


async def test_a_server_that_exits_as_it_starts_fails_with_its_last_stderr_line() -> None:
    exits = "import sys; sys.stderr.write('loading\\nno config file found\\n'); sys.exit(1)"
    runtime, _, _ = mcp_runtime({"early": stdio_server(args=["-c", exits])})
    async with runtime:
        events = Events(runtime)
        failed = await events.server("early", "failed")
    assert failed.error == "the server closed the connection (its stderr: no config file found)"


async def test_an_unset_variable_in_env_fails_the_server_naming_it() -> None:
    config = stdio_server(env={"TOKEN": "${AGENTUI_TEST_UNSET_TOKEN}"})
    runtime, _, _ = mcp_runtime({"echo": config}, environ={"PATH": "/usr/bin"})
    async with runtime:
        events = Events(runtime)
        failed = await events.server("echo", "failed")
    assert failed.error == "env.TOKEN names ${AGENTUI_TEST_UNSET_TOKEN}, which is not set"


async def test_a_server_that_does_not_answer_in_time_fails() -> None:
    silent = stdio_server(startup_timeout_s=0.3, args=["-c", SILENT])
    runtime, _, _ = mcp_runtime({"silent": silent})
    async with runtime:
        events = Events(runtime)
        failed = await events.server("silent", "failed")
    assert failed.error == "did not answer within 0.3 s"


async def test_a_slow_server_delays_no_agent_that_does_not_call_it() -> None:
    silent = stdio_server(startup_timeout_s=120, args=["-c", SILENT])
    runtime, _, _ = mcp_runtime({"silent": silent}, *calls())
    async with runtime:
        events = Events(runtime)
        await events.server("silent", "starting")
        agent = runtime.start("answer")
        await events.ended(agent)
        assert runtime.node(agent).status is AgentStatus.COMPLETED
        states = [e.state for e in events.of("mcp:server")]  # type: ignore[attr-defined]
    assert states == ["starting"], "the server was still starting when the agent was done"


async def test_the_tool_timeout_of_the_limits_applies_when_the_server_sets_none() -> None:
    script = calls(("echo__hang", {}))
    runtime, _, _ = mcp_runtime(
        {"echo": stdio_server(approval="always")}, *script, limits=Limits(tool_timeout_s=0.3)
    )
    async with runtime:
        events = Events(runtime)
        await events.server("echo", "ready")
        agent = runtime.start("hang")
        await events.ended(agent)
    assert outcomes(events, agent) == [("echo__hang", "echo__hang timed out after 0.3 s", True)]
