"""The runtime's own events (an MCP server's state) in a session: kept, in order, once an agent
starts the session; a run with no agent writes no session."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from agentui.core.protocol.events import McpServerChanged
from agentui.core.providers.scripted.script import Turn
from agentui.core.runtime import Runtime
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume

from .session_helpers import recorded_runtime

pytestmark = pytest.mark.anyio


def announce_servers(published: anyio.Event) -> object:
    def attach(runtime: Runtime) -> None:
        async def serve() -> None:
            runtime.publish_runtime(McpServerChanged, server="docs", state="starting")
            runtime.publish_runtime(McpServerChanged, server="docs", state="ready", tools=["d__x"])
            published.set()
            await anyio.sleep_forever()

        runtime.run_service(serve, name="servers")

    return attach


async def test_a_run_with_no_agent_writes_no_session(tmp_path: Path) -> None:
    published = anyio.Event()
    runtime = recorded_runtime(tmp_path, Turn(text="x"), services=[announce_servers(published)])
    async with runtime:
        with anyio.fail_after(10):
            await published.wait()
    assert runtime.session.path is None and list(tmp_path.iterdir()) == []


async def test_the_runtimes_events_join_the_session_its_first_agent_starts(tmp_path: Path) -> None:
    published = anyio.Event()
    runtime = recorded_runtime(tmp_path, Turn(text="hi"), services=[announce_servers(published)])
    async with runtime:
        with anyio.fail_after(10):
            await published.wait()
        root = runtime.start("Say hi")
        await runtime.wait(root)
    path = runtime.session.path
    assert path is not None
    header = json.loads(path.read_text("utf-8").splitlines()[0])
    assert header["task"] == "Say hi", "the header names the first agent's task"
    log = read_session(path)
    assert [e.type for e in log.events[:3]] == ["mcp:server", "mcp:server", "agent:spawned"]
    assert [e.seq for e in log.events] == sorted(e.seq for e in log.events)
    state = plan_resume(log).state
    assert state.mcp_servers["docs"].tools == ["d__x"] and list(state.agents) == [root]
