"""MCP servers' states reach every front end as `mcp:server` events: the fold, the status bar
(a pilot test on the app), headless output, and `agentui mcp list`."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import McpServerChanged
from agentui.core.providers.scripted.script import Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.status_bar import mcp_summary
from agentui.tui.cli import mcp as mcp_command
from agentui.tui.headless.run import HeadlessPrinter

from ..tui.helpers import settle
from .servers import ECHO_SERVER, mcp_runtime, stdio_server, unstartable_server

pytestmark = pytest.mark.anyio


def changed(seq: int, server: str, state: str, **fields: object) -> McpServerChanged:
    return McpServerChanged(seq=seq, ts=0.0, agent_id="", server=server, state=state, **fields)  # type: ignore[arg-type]


def test_the_fold_keeps_each_servers_latest_state_apart_from_the_agents() -> None:
    state = RunState()
    state.apply_all([
        changed(1, "docs", "starting"),
        changed(2, "files", "starting"),
        changed(3, "docs", "ready", tools=["docs__search"]),
        changed(4, "files", "failed", error="exited 1", retry_in_s=1.0),
    ])  # fmt: skip
    assert [(s.server, s.state) for s in state.mcp_servers.values()] == [
        ("docs", "ready"),
        ("files", "failed"),
    ]
    assert state.mcp_servers["docs"].tools == ["docs__search"]
    assert state.agents == {} and state.unfolded == set()


def test_the_status_bar_counts_servers_by_state_and_says_why_one_failed() -> None:
    servers = {
        "docs": changed(1, "docs", "ready"),
        "web": changed(2, "web", "ready"),
        "files": changed(3, "files", "failed", error="exited 1"),
    }
    assert mcp_summary(servers) == ("mcp: 2 ready, 1 failed (files: exited 1)", True)
    assert mcp_summary({"docs": servers["docs"]}) == ("mcp: 1 ready", False)
    assert mcp_summary({}) == ("", False)
    hostile = {"x": changed(1, "x", "restarting", error="\x1b[2J" + "long " * 20)}
    text, troubled = mcp_summary(hostile)
    assert troubled and "\x1b" not in text and text.endswith("…)")


async def test_the_app_shows_a_server_that_fails_in_the_status_bar() -> None:
    clock = FrozenClock()

    def runtime() -> Runtime:
        return mcp_runtime({"docs": unstartable_server()}, Turn(text="hi"), clock=clock)[0]

    app = AgentUIApp(
        runtime, clock=clock, remember_theme=False, monologue=MonologueConfig(enabled=False)
    )
    failed = "mcp: 1 failed (docs: cannot start no-such-program-agentui: No …)"
    async with app.run_test(size=(160, 30)) as pilot:
        # Read in the turn that shows it: the manager restarts the server at once (QUICK
        # backoff), so a turn later the line may already say "restarting".
        await settle(pilot, lambda: failed in str(app.main.status_view.render()))


def test_headless_prints_a_ready_server_and_a_failure() -> None:
    out, err = io.StringIO(), io.StringIO()
    state = RunState()
    printer = HeadlessPrinter(out, err, json_output=False, root_id="a1", state=state)
    for event in (
        changed(1, "docs", "starting"),
        changed(2, "docs", "ready", tools=["docs__search", "docs__fetch"]),
        changed(3, "docs", "failed", error="the server closed \x1b[2J the connection"),
    ):
        state.apply(event)
        printer.show(event)
    assert err.getvalue() == (
        "\n[mcp] docs ready: docs__search, docs__fetch\n"
        "\n[mcp] docs failed: the server closed ␛[2J the connection\n"
    )
    assert out.getvalue() == "" and printer.unfolded == set()


def _config(directory: Path, body: str) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / "config.toml").write_text(body, "utf-8")


def test_mcp_list_shows_each_server_its_state_and_its_tools(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    server = stdio_server()
    _config(
        tmp_path,
        f"""
[mcp.servers.echo]
command = {json.dumps(server.command)}
args = [{json.dumps(str(ECHO_SERVER))}]
[mcp.servers.echo.tools.crash]
approval = "never"
[mcp.servers.echo.tools.echo]
approval = "always"

[mcp.servers.broken]
command = "no-such-program-agentui"
""",
    )
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    monkeypatch.setenv("COLUMNS", "120")
    assert mcp_command.main(["list"]) == 0, "a failed server is shown, not an error"
    text = capsys.readouterr().out
    lines = text.splitlines()
    assert lines[0] == f"echo  ready  (stdio: {server.command} {ECHO_SERVER})", text
    assert "  echo__echo            always               Say the text back." in lines, text
    crash = next(line for line in lines if line.startswith("  echo__crash "))
    assert "never (not offered)" in crash, text
    assert "Only the first line" not in text
    paint = next(line for line in lines if line.startswith("  echo__paint"))
    assert paint.endswith("Paints the screen ␛[2J red."), "a server's text is made visible"
    assert "broken  failed  (stdio: no-such-program-agentui)" in lines, text
    assert "  cannot start no-such-program-agentui: No such file or directory" in lines, text

    assert mcp_command.main(["list", "--json"]) == 0
    printed = capsys.readouterr().out
    listed = {s["name"]: s for s in json.loads(printed)["servers"]}
    assert listed["echo"]["state"] == "ready", printed
    assert listed["broken"]["state"] == "failed" and listed["broken"]["tools"] == []
    tools = {t["tool"]: t for t in listed["echo"]["tools"]}
    assert tools["add"] == {
        "name": "echo__add",
        "tool": "add",
        "approval": "ask",
        "description": "Add two integers.",
    }
    assert tools["paint"]["description"] == "Paints the screen \x1b[2J red.", "JSON is exact"


def test_mcp_list_without_servers_says_how_to_add_one(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    assert mcp_command.main(["list"]) == 0
    assert "No MCP server is configured" in capsys.readouterr().out
    assert mcp_command.main(["list", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"servers": []}


def test_mcp_list_with_a_bad_config_fails_naming_the_key(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _config(tmp_path, '[mcp.servers.docs]\napproval = "always"\n')
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    assert mcp_command.main(["list"]) == 2
    assert "mcp.servers.docs: give either command" in capsys.readouterr().err
