"""Services given to the Runtime start as it starts running (every front end that enters it gets
them), and a service may publish events about the runtime itself, of no agent."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.protocol.events import RUNTIME_EVENT, McpServerChanged
from agentui.core.providers.scripted.script import Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.errors import AgentUIError

from .helpers import scripted_runtime

pytestmark = pytest.mark.anyio


async def test_services_are_attached_when_the_runtime_starts_and_publish_runtime_events() -> None:
    attached: list[Runtime] = []

    def attach(runtime: Runtime) -> None:
        attached.append(runtime)

        async def serve() -> None:
            runtime.publish_runtime(McpServerChanged, server="docs", state="starting")
            await anyio.sleep_forever()

        runtime.run_service(serve, name="test service")

    runtime = scripted_runtime(Turn(text="x"), services=[attach])
    assert attached == [], "nothing runs before the runtime does"
    async with runtime:
        assert attached == [runtime]
        events = runtime.subscribe(maxsize=None)
        with anyio.fail_after(10):
            event = await events.get()
    assert isinstance(event, McpServerChanged) and event.agent_id == RUNTIME_EVENT == ""
    state = RunState()
    state.apply(event)
    assert state.mcp_servers["docs"].state == "starting" and state.agents == {}


async def test_a_service_that_cannot_attach_stops_the_runtime_and_says_why() -> None:
    def attach(runtime: Runtime) -> None:
        raise AgentUIError("no room for this service")

    runtime = scripted_runtime(Turn(text="x"), services=[attach])
    with pytest.raises(AgentUIError, match="no room"):
        await runtime.__aenter__()
    with pytest.raises(AgentUIError, match="not running"):
        runtime.start("anything")
