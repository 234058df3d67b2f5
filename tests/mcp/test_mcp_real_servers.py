"""Third-party MCP servers as people install them: `@modelcontextprotocol/server-everything`
from npm (installed before the suite, tests/third_party.py; skipped without it) and
`mcp-server-time` from PyPI (in the test extra; skipped when it is not installed)."""

from __future__ import annotations

import importlib.util
import json
import shutil
import sys

import pytest

from agentui.core.protocol.events import ToolCompleted, ToolProgressed
from agentui.core.tools.mcp.config import McpServerConfig

from ..third_party import program
from .servers import Events, calls, mcp_runtime

pytestmark = pytest.mark.anyio


def everything_server() -> McpServerConfig:
    return McpServerConfig(command=str(program("mcp-server-everything")), approval="always")


def time_server() -> McpServerConfig:
    program = shutil.which("mcp-server-time")
    if program is not None:
        return McpServerConfig(command=program, approval="always")
    if importlib.util.find_spec("mcp_server_time") is not None:
        return McpServerConfig(command=sys.executable, args=["-m", "mcp_server_time"])
    pytest.skip("mcp-server-time is not installed (pip install mcp-server-time)")


async def test_server_everything_reports_the_steps_of_a_long_operation_and_runs_its_task_tool() -> (
    None
):
    script = calls(
        ("everything__trigger-long-running-operation", {"duration": 1.5, "steps": 3}),
        ("everything__simulate-research-query", {"topic": "otters"}),
    )
    runtime, _, manager = mcp_runtime({"everything": everything_server()}, *script)
    async with runtime:
        events = Events(runtime)
        ready = await events.server("everything", "ready")
        agent = runtime.start("run the long operation, then research otters")
        await events.ended(agent)
    progressed = [(e.name, e.line()) for e in events.events if isinstance(e, ToolProgressed)]
    operation, research = (e for e in events.events if isinstance(e, ToolCompleted))
    assert progressed[:3] == [
        ("everything__trigger-long-running-operation", step) for step in ("1/3", "2/3", "3/3")
    ], "one event per step, while it ran"
    assert "Long running operation completed" in operation.result
    assert "everything__simulate-research-query" in ready.tools, "run as a task"
    assert manager.connections["everything"].skipped == {}
    statuses = [line for name, line in progressed if name.endswith("simulate-research-query")]
    # Which stages a poll meets depends on the server's clock; the first and the end do not.
    assert statuses[0] == "working: Gathering sources...", statuses
    assert statuses[-1].startswith("completed"), statuses
    assert research.result.startswith("# Research Report: otters"), research.result


async def test_mcp_server_time_answers_the_time_in_a_zone() -> None:
    script = calls(("time__get_current_time", {"timezone": "UTC"}))
    config = time_server().model_copy(update={"approval": "always"})
    runtime, _, _ = mcp_runtime({"time": config}, *script)
    async with runtime:
        events = Events(runtime)
        ready = await events.server("time", "ready")
        agent = runtime.start("what time is it")
        await events.ended(agent)
    assert {"time__get_current_time", "time__convert_time"} <= set(ready.tools)
    done = next(e for e in events.events if isinstance(e, ToolCompleted))
    assert json.loads(done.result)["timezone"] == "UTC", done.result
