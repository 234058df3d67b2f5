"""A tool's time limit counts the agent's active time: a pause never makes a tool time out.

The runtime's clock is a FrozenClock that the tests move by hand, so "time passes" without any
real waiting; the limit is long in real time, so only the frozen clock can run it out.
"""

from __future__ import annotations

import math

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.active_deadline import ActiveDeadline
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import Recorder, is_type, scripted_runtime

pytestmark = pytest.mark.anyio

LIMIT_S = 60.0


def runtime_with_held_tool(clock: FrozenClock, release: anyio.Event) -> Runtime:
    @tool
    async def held() -> str:
        """Wait until the test lets go."""
        await release.wait()
        return "released"

    return scripted_runtime(
        Turn(tool_calls=[ScriptedToolCall(name="held", arguments={})]),
        Turn(text="Done."),
        tools=ToolRegistry([held]),
        limits=Limits(tool_timeout_s=LIMIT_S),
        clock=clock,
    )


async def test_time_paused_in_a_tool_does_not_count_toward_its_timeout() -> None:
    clock, release = FrozenClock(), anyio.Event()
    async with runtime_with_held_tool(clock, release) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Use the tool.")
        await rec.wait_for(is_type("tool:start", agent_id))
        clock.advance(LIMIT_S / 2)  # running: counts
        runtime.pause(agent_id)
        clock.advance(10 * LIMIT_S)  # paused: does not count
        runtime.resume(agent_id)
        release.set()
        with anyio.fail_after(10):  # safety net only
            node = await runtime.wait(agent_id)
        rec.sync()

    assert not rec.of("tool:timeout")
    (completed,) = rec.of("tool:complete")
    assert completed.result == "released"  # type: ignore[attr-defined]
    assert completed.duration_s == LIMIT_S / 2  # type: ignore[attr-defined]
    assert node.result == "Done."


async def test_active_time_past_the_limit_times_the_tool_out_on_resume() -> None:
    clock, release = FrozenClock(), anyio.Event()
    async with runtime_with_held_tool(clock, release) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Use the tool.")
        await rec.wait_for(is_type("tool:start", agent_id))
        clock.advance(LIMIT_S + 1)  # running: the limit is used up
        runtime.pause(agent_id)
        runtime.resume(agent_id)  # the deadline is set again from active time: overdue
        with anyio.fail_after(10):  # safety net only
            node = await runtime.wait(agent_id)
        rec.sync()

    (timed_out,) = rec.of("tool:timeout")
    assert timed_out.timeout_s == LIMIT_S  # type: ignore[attr-defined]
    assert not rec.of("tool:complete")
    assert node.result == "Done."


async def test_the_deadline_is_lifted_while_paused_and_set_to_the_active_time_left() -> None:
    active = [0.0]
    deadline = ActiveDeadline(10.0, lambda: active[0])
    active[0] = 4.0
    deadline.on_pause(True)
    assert deadline.scope.deadline == math.inf
    deadline.on_pause(False)  # the clock stood still while paused
    assert deadline.remaining() == 6.0
    assert deadline.scope.deadline != math.inf
    active[0] = 11.0
    deadline.on_pause(True)
    deadline.on_pause(False)
    with deadline.scope:
        await anyio.sleep_forever()  # overdue: cancelled at once
    assert deadline.expired
