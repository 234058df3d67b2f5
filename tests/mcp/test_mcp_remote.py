"""A screen attached over the network (`agentui attach`) sees the MCP servers as a local one
does: their `mcp:server` events (the runtime's, agent_id "") go through `GET /events` and fold
on the attached side into the same states."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.remote.client import RemoteClient
from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
from agentui.core.state import RunState

from .servers import GUARD_S, mcp_runtime, stdio_server, unstartable_server

pytestmark = pytest.mark.anyio


async def test_an_attached_screen_folds_the_servers_states_as_the_server_does() -> None:
    from ..remote.server_fixture import served_runtime  # FastAPI: imported when used

    runtime, _, _ = mcp_runtime({"echo": stdio_server(), "broken": unstartable_server()})
    async with served_runtime(runtime=runtime) as server:
        remote = RemoteRuntime(
            RemoteClient(server.base_url, server.token),
            RemoteProvider("scripted", "script"),
            first_retry_s=0.01,
        )
        async with remote:
            attached = RunState(transcripts=False)
            events = remote.subscribe(maxsize=None)

            def settled() -> bool:
                servers = attached.mcp_servers
                return (
                    "echo" in servers
                    and servers["echo"].state == "ready"
                    and (
                        "broken" in servers and servers["broken"].state in ("failed", "restarting")
                    )
                )

            with anyio.fail_after(GUARD_S):  # a failure guard only
                while not settled():
                    for event in await events.next_batch():
                        attached.apply(event)
    echo = attached.mcp_servers["echo"]
    assert echo.agent_id == "" and "echo__echo" in echo.tools, "as the runtime emitted it"
    assert attached.mcp_servers["broken"].error.startswith("cannot start no-such-program-agentui")
    assert attached.agents == {} and attached.unfolded == set()
