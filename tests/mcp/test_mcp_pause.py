"""Pause applies to an MCP call as to any tool: the call's time limit counts the agent's active
time, so time paused never times it out, and active time past the limit does, cancelling the
request at the server.

The runtime's clock is a FrozenClock the tests move by hand: "time passes" without waiting; the
limit is long in real time, so only the frozen clock can run it out (as in
tests/core/test_tool_timeout_pause.py, for a tool of agentui's own).
"""

from __future__ import annotations

import pytest

from agentui.core.protocol.events import ToolCompleted, ToolTimedOut
from agentui.core.support.clock import FrozenClock

from .servers import Events, by_agent, calls, mcp_runtime, outcomes, stdio_server

pytestmark = pytest.mark.anyio

LIMIT_S = 600.0


def is_start(agent_id: str) -> object:
    return lambda e: e.type == "tool:start" and e.agent_id == agent_id


async def test_time_paused_in_an_mcp_call_does_not_count_toward_its_timeout() -> None:
    script = by_agent(calls(("echo__held", {})), calls(("echo__release", {})))
    server = stdio_server(approval="always", timeout_s=LIMIT_S)
    runtime, _, _ = mcp_runtime({"echo": server}, script=script)
    async with runtime:
        clock = runtime.clock
        assert isinstance(clock, FrozenClock)
        events = Events(runtime)
        await events.server("echo", "ready")
        held = runtime.start("wait for it")
        await events.wait_for(is_start(held))  # type: ignore[arg-type]
        clock.advance(LIMIT_S / 2)  # running: counts
        runtime.pause(held)
        clock.advance(10 * LIMIT_S)  # paused: does not count
        runtime.resume(held)
        await events.ended(runtime.start("let it go"))
        await events.ended(held)
    assert not events.of("tool:timeout")
    (completed,) = [e for e in events.of("tool:complete", agent_id=held)]
    assert isinstance(completed, ToolCompleted)
    assert (completed.name, completed.result) == ("echo__held", "released")
    assert completed.duration_s == LIMIT_S / 2, "the paused time is not the call's"


async def test_active_time_past_the_limit_times_the_call_out_on_resume_at_the_server_too() -> None:
    script = by_agent(
        calls(("echo__hang", {})),
        calls(("echo__wait_hanging", {})),  # returns once the server runs the hang call
        calls(("echo__wait_cancelled", {})),
    )
    server = stdio_server(approval="always", timeout_s=LIMIT_S)
    runtime, _, _ = mcp_runtime({"echo": server}, script=script)
    async with runtime:
        clock = runtime.clock
        assert isinstance(clock, FrozenClock)
        events = Events(runtime)
        await events.server("echo", "ready")
        hang = runtime.start("hang")
        await events.wait_for(is_start(hang))  # type: ignore[arg-type]
        await events.ended(runtime.start("is it hanging?"))
        clock.advance(LIMIT_S + 1)  # running: the limit is used up
        runtime.pause(hang)
        runtime.resume(hang)  # the deadline is set again from the active time: overdue
        await events.ended(hang)
        check = runtime.start("was it cancelled?")
        await events.ended(check)
    (timed_out,) = events.of("tool:timeout", agent_id=hang)
    assert isinstance(timed_out, ToolTimedOut) and timed_out.timeout_s == LIMIT_S
    assert outcomes(events, hang) == [
        ("echo__hang", f"echo__hang timed out after {LIMIT_S:g} s", True)
    ]
    assert outcomes(events, check) == [("echo__wait_cancelled", "a hang call was cancelled", False)]
