"""`agentui run` starts its task once every MCP server has had its first outcome (ready or
failed, at most its startup_timeout_s), so a short run sees the servers' tools; the app never
waits for them."""

from __future__ import annotations

import io
import json
from collections.abc import Mapping
from typing import Any

import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import McpServerChanged
from agentui.core.providers.scripted.script import Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.mcp.config import McpServerConfig
from agentui.core.tools.mcp.first_outcomes import FirstOutcomes
from agentui.tui.app.app import AgentUIApp
from agentui.tui.headless.run import run_headless

from ..tui.helpers import settle
from .servers import SILENT, calls, mcp_runtime, stdio_server, unstartable_server

pytestmark = pytest.mark.anyio

ECHO_FIRST = calls(("echo__echo", {"text": "from the server"}), then="done")


async def run(
    servers: Mapping[str, McpServerConfig], *turns: Turn, json_output: bool = False
) -> tuple[int, str, str]:
    def runtime() -> Runtime:
        return mcp_runtime(servers, *turns)[0]

    stdout, stderr = io.StringIO(), io.StringIO()
    status = await run_headless(
        runtime,
        "use the server",
        json_output=json_output,
        answers=[],
        stdin=io.StringIO(""),
        stdout=stdout,
        stderr=stderr,
    )
    return status, stdout.getvalue(), stderr.getvalue()


async def test_run_waits_for_the_server_so_the_first_model_call_has_its_tools() -> None:
    status, out, err = await run({"echo": stdio_server(approval="always")}, *ECHO_FIRST)
    assert status == 0, err
    assert out == "done\n"
    lines = err.splitlines()
    assert lines[0] == "agentui: waiting for MCP servers to start: echo (at most 30 s)", err
    ready = next(n for n, line in enumerate(lines) if line.startswith("[mcp] echo ready: "))
    assert ready < lines.index("[main] tool echo__echo"), "ready before the task began"
    assert "failed" not in err, "the call found the server ready"


async def test_run_in_json_waits_silently_and_the_servers_events_come_first() -> None:
    status, out, err = await run(
        {"echo": stdio_server(approval="always")}, *ECHO_FIRST, json_output=True
    )
    assert status == 0, err
    assert "waiting" not in err, "stderr is for problems in JSON mode"
    types = [json.loads(line)["type"] for line in out.splitlines()]
    assert types[:3] == ["mcp:server", "mcp:server", "agent:spawned"], types
    completed = [json.loads(line) for line in out.splitlines() if '"tool:complete"' in line]
    assert completed[0]["result"] == "from the server"


async def test_run_waits_no_longer_than_a_failed_or_silent_server_takes() -> None:
    silent = stdio_server(startup_timeout_s=0.5, args=["-c", SILENT])
    status, out, err = await run(
        {"broken": unstartable_server(), "silent": silent}, Turn(text="answered")
    )
    assert status == 0 and out == "answered\n", err
    assert err.startswith(
        "agentui: waiting for MCP servers to start: broken, silent (at most 30 s)\n"
    )
    assert "[mcp] broken failed: cannot start no-such-program-agentui" in err
    assert "[mcp] silent failed: did not answer within 0.5 s" in err


async def test_run_without_servers_says_nothing_of_them() -> None:
    status, out, err = await run({}, Turn(text="answered"))
    assert (status, out, err) == (0, "answered\n", "")


def changed(server: str, state: str) -> McpServerChanged:
    return McpServerChanged(seq=1, ts=0.0, agent_id="", server=server, state=state)  # type: ignore[arg-type]


async def test_first_outcomes_count_ready_or_failed_once_per_server() -> None:
    outcomes = FirstOutcomes({"docs": 5.0, "files": 30.0})
    assert outcomes.limit_s == 30.0 and not outcomes.done
    outcomes.observe(changed("docs", "starting"))
    outcomes.observe(changed("docs", "failed"))
    assert list(outcomes.waiting) == ["files"]
    outcomes.observe(changed("docs", "restarting"))
    outcomes.observe(changed("files", "ready"))
    assert outcomes.done
    await outcomes.settled()  # returns at once
    assert FirstOutcomes({}).done


async def test_the_app_never_waits_a_task_typed_at_once_runs_while_a_server_starts() -> None:
    silent = stdio_server(startup_timeout_s=120, args=["-c", SILENT])
    clock = FrozenClock()

    def runtime() -> Runtime:
        return mcp_runtime({"silent": silent}, Turn(text="no server needed"))[0]

    app = AgentUIApp(
        runtime, clock=clock, remember_theme=False, monologue=MonologueConfig(enabled=False)
    )
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, lambda: app.host.started)
        app.main.prompt_view.focus()
        await pilot.press(*"hello", "enter")

        def completed() -> bool:
            agent: Any = app.main.model.agents.get("a1")
            return agent is not None and agent.status is AgentStatus.COMPLETED

        await settle(pilot, completed)
        server = app.main.model.mcp_servers.get("silent")
        assert server is not None and server.state == "starting", "still starting meanwhile"
