"""A server's progress notifications reach every front end as tool:progress events; a tool
that runs only as an MCP task is run as one (its statuses shown, cancelled with its call), or
left out where the server offers no tasks; and a listing with a malformed tool keeps the others:
against listing_server.py, a plain JSON-RPC server over stdio."""

from __future__ import annotations

import io
import sys
from pathlib import Path
from typing import Any

import pytest

from agentui.core.protocol.events import McpServerState, ToolCompleted, ToolProgressed
from agentui.core.state import RunState
from agentui.core.tools.mcp.config import McpConfig, McpServerConfig
from agentui.tui.headless.run import HeadlessPrinter

from .servers import Events, calls, mcp_runtime, unstartable_server

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

LISTING_SERVER = Path(__file__).with_name("listing_server.py")


def listing_server(**settings: Any) -> McpServerConfig:
    settings.setdefault("args", [str(LISTING_SERVER)])
    return McpServerConfig(command=sys.executable, **settings)


async def test_progress_notifications_become_tool_progress_events_that_every_fold_shows() -> None:
    script = calls(("listing__steps", {"steps": 3}))
    runtime, _, _ = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("listing", "ready")
        agent = runtime.start("take three steps")
        await events.ended(agent)
    progressed = [e for e in events.events if isinstance(e, ToolProgressed)]
    completed = next(e for e in events.events if isinstance(e, ToolCompleted))
    assert [e.line() for e in progressed] == ["1/3 step 1", "2/3 step 2", "3/3 step 3"]
    assert {(e.agent_id, e.call_id, e.name) for e in progressed} == {
        (agent, completed.call_id, "listing__steps")
    }, "each names the call it is about"
    assert completed.result == "done after 3 steps (token: True)", "the call asked for progress"
    assert all(e.seq < completed.seq for e in progressed)

    state = RunState()
    state.apply_all(e for e in events.events if e.seq < completed.seq)
    running = state.agents[agent]
    block = running.entries[-1]
    assert running.tool_progress == "listing__steps: 3/3 step 3", "the tree row's"
    assert block.kind == "tool" and block.progress == "3/3 step 3", "the tool block's"
    change = state.apply(completed)
    assert running.tool_progress == "" and agent in change.relabel, "its end clears the row"
    assert block.progress == "" and block.detail == completed.result

    err = io.StringIO()
    printer = HeadlessPrinter(io.StringIO(), err, json_output=False, root_id=agent, state=state)
    printer.show(progressed[1])
    assert err.getvalue() == "\n[main] tool listing__steps: 2/3 step 2\n"


async def test_a_flood_of_progress_makes_one_event_per_percent() -> None:
    script = calls(("listing__steps", {"steps": 1000}))
    runtime, _, _ = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("listing", "ready")
        agent = runtime.start("take a thousand steps")
        await events.ended(agent)
    lines = [e.line() for e in events.events if isinstance(e, ToolProgressed)]
    assert len(lines) == 101, "one per percent (0 to 100), the first of each"
    assert lines[:3] == ["1/1000 step 1", "10/1000 step 10", "20/1000 step 20"]
    assert lines[-1] == "1000/1000 step 1000"


async def test_a_malformed_tool_and_a_task_only_tool_are_skipped_with_why_the_rest_work() -> None:
    script = calls(("listing__echo", {"text": "still here"}))
    runtime, _, manager = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        ready = await events.server("listing", "ready")
        agent = runtime.start("echo")
        await events.ended(agent)
    assert ready.tools == [
        "listing__echo",
        "listing__steps",
        "listing__research",
        "listing__cancelled",
    ]
    skipped = manager.connections["listing"].skipped
    assert list(skipped) == ["broken"]
    assert skipped["broken"].startswith("malformed: inputSchema: ")
    result = next(e for e in events.events if isinstance(e, ToolCompleted))
    assert result.result == "still here", "calls work after a listing that was taken apart"


async def test_a_task_only_tool_runs_as_a_task_its_statuses_shown_as_progress() -> None:
    script = calls(("listing__research", {"topic": "cats"}))
    runtime, _, _ = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("listing", "ready")
        agent = runtime.start("research cats")
        await events.ended(agent)
    statuses = [e.line() for e in events.events if isinstance(e, ToolProgressed)]
    assert statuses == [
        "working: stage 1 of 2",
        "working: stage 2 of 2",
        "completed: the report is ready",
    ]
    done = next(e for e in events.events if isinstance(e, ToolCompleted))
    assert done.result == "a report on cats", "its result fetched once it ended"


async def test_cancelling_the_agent_cancels_its_task_at_the_server() -> None:
    script = calls(("listing__research", {"topic": "dogs", "hold": True}))
    runtime, _, manager = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("listing", "ready")
        agent = runtime.start("research dogs")
        await events.wait_for(lambda e: isinstance(e, ToolProgressed))
        runtime.cancel(agent)
        await events.ended(agent)
        told = await manager.connections["listing"].call("cancelled", {})
    assert told.content[0].text == "task-1"  # type: ignore[union-attr]


async def test_a_task_only_tool_is_left_out_where_the_server_offers_no_tasks() -> None:
    from agentui.core.tools.mcp.connect import TASK_REQUIRED

    config = listing_server(args=[str(LISTING_SERVER), "--no-tasks"])
    runtime, _, manager = mcp_runtime({"listing": config})
    async with runtime:
        ready = await Events(runtime).server("listing", "ready")
    assert "listing__research" not in ready.tools
    assert manager.connections["listing"].skipped["research"] == TASK_REQUIRED


async def test_a_one_shot_probe_says_failed_with_why_never_restarting_and_one_line_of_sdk_log(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentui.core.tools.mcp.connection import McpConnection
    from agentui.core.tools.mcp.probe import probe_servers

    reported: list[tuple[str, str]] = []
    report = McpConnection._report

    def recorded(connection: McpConnection, state: McpServerState, **details: Any) -> None:
        reported.append((connection.name, state))
        report(connection, state, **details)

    monkeypatch.setattr(McpConnection, "_report", recorded)
    # noisy's 1 s start outlasts the first wait between tries (1 s): a probe that tried again
    # would have said "restarting" for broken.
    noisy = McpServerConfig(
        command="/bin/sh", args=["-c", "echo hello; sleep 30"], startup_timeout_s=1
    )
    servers = {"noisy": noisy, "listing": listing_server(), "broken": unstartable_server()}
    connections = await probe_servers(McpConfig(servers=servers))
    states = {c.name: (c.state, c.error) for c in connections}
    assert states["noisy"] == ("failed", "did not answer within 1 s")
    assert states["listing"] == ("ready", "")
    assert states["broken"][0] == "failed"
    assert [state for name, state in reported if name == "broken"] == ["starting", "failed"]
    err = capsys.readouterr().err
    assert "Traceback" not in err, err
    assert err.splitlines() == [
        "mcp: Failed to parse JSONRPC message from server: Invalid JSON: expected value at "
        "line 1 column 1 (in 'hello')"
    ]


async def test_mcp_list_names_the_tools_it_does_not_offer_and_why() -> None:
    from agentui.core.support.terminal_text import clipped
    from agentui.core.tools.mcp.connect import TASK_REQUIRED
    from agentui.core.tools.mcp.probe import probe_servers
    from agentui.tui.cli.mcp import _report, format_servers

    config = listing_server(args=[str(LISTING_SERVER), "--no-tasks"])
    connections = await probe_servers(McpConfig(servers={"listing": config}))
    (server,) = _report(connections)
    skipped = {row["tool"]: row["why"] for row in server["skipped"]}
    assert skipped["research"] == TASK_REQUIRED
    assert skipped["broken"].startswith("malformed: inputSchema: ")
    text = format_servers([server], width=100)
    assert clipped(f"  research  not offered: {TASK_REQUIRED}", 100) in text.splitlines()
    assert "  broken  not offered: malformed: inputSchema: " in text


async def test_a_task_whose_poll_fails_fails_its_call_and_is_cancelled_at_the_server() -> None:
    script = calls(("listing__research", {"topic": "cats", "fail_polls": True}))
    runtime, _, manager = mcp_runtime({"listing": listing_server(approval="always")}, *script)
    async with runtime:
        events = Events(runtime)
        await events.server("listing", "ready")
        agent = runtime.start("research cats")
        await events.ended(agent)
        told = await manager.connections["listing"].call("cancelled", {})
    (failed,) = [e for e in events.events if e.type == "tool:error"]
    assert "the task store is down" in failed.error  # type: ignore[attr-defined]
    assert told.content[0].text == "task-1", "nobody waits for it: the server stops it"  # type: ignore[union-attr]
