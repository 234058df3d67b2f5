"""`agentui mcp list`: start each configured MCP server, and show its state and its tools.

Each server is started once, as agents would get it, its tools listed, and stopped. A server
that fails is shown with why; the exit status is 0 all the same (2 for a bad config). Text
from a server (descriptions, errors) reaches the terminal through `visible_controls`; `--json`
prints exact strings for programs, with terminal controls and invisible characters escaped
(core/support/terminal_json.py).
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from typing import Any

import anyio

from agentui.core.config.settings import config_path, load_config
from agentui.core.config.sources import ConfigError
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.cli.options import fail

MIN_DESCRIPTION = 20
APPROVAL_SHOWN = {"never": "never (not offered)"}


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui mcp", description="The MCP servers whose tools agents get."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="list")
    listing = commands.add_parser(
        "list",
        help="start each configured server, and show its state and its tools",
        description="Start each server configured as [mcp.servers.NAME], list its tools (the "
        "name agents call, the approval, the first line of the description) and stop it. A "
        "server that fails is shown with why.",
    )
    listing.add_argument("--json", action="store_true", help="one JSON document, for programs")
    args = parser.parse_args(argv)
    try:
        config = load_config().config.mcp
    except ConfigError as exc:
        return fail(str(exc))
    if not config.servers:
        if args.json:
            print(terminal_json({"servers": []}))
        else:
            print(
                f"No MCP server is configured. Add one to {config_path()} as "
                "[mcp.servers.NAME] with command (and args, env) or url (and headers)."
            )
        return 0
    from agentui.core.tools.mcp.probe import probe_servers

    servers = _report(anyio.run(probe_servers, config))
    if args.json:
        print(terminal_json({"servers": servers}, indent=2))
    else:
        columns = shutil.get_terminal_size((100, 24)).columns
        sys.stdout.write(visible_controls(format_servers(servers, columns)))
    return 0


def _report(connections: list[Any]) -> list[dict[str, Any]]:
    """Each server as JSON-ready data: where it is, its state, its tools."""
    from agentui.core.tools.mcp.agent_tool import agent_tool_name

    taken: set[str] = set()
    servers = []
    for connection in connections:
        config = connection.config
        tools = []
        for listed in connection.tools if connection.state == "ready" else []:
            name = agent_tool_name(connection.name, listed.name, taken)
            taken.add(name)
            lines = (listed.description or listed.title or "").strip().splitlines()
            tools.append({
                "name": name,
                "tool": listed.name,
                "approval": config.approval_for(listed.name),
                "description": lines[0].strip() if lines else "",
            })  # fmt: skip
        servers.append({
            "name": connection.name,
            "transport": config.transport,
            "where": config.describe(),
            "state": connection.state,
            "error": connection.error,
            "tools": tools,
            # Listed by the server but not offered to agents (malformed, or needing MCP tasks
            # the server does not run), each with why.
            "skipped": [
                {"tool": tool, "why": why}
                for tool, why in (connection.skipped if connection.state == "ready" else {}).items()
            ],
        })  # fmt: skip
    return servers


def format_servers(servers: list[dict[str, Any]], width: int = 100) -> str:
    """The listing as text (not yet made safe for a terminal: the caller does that)."""
    lines: list[str] = []
    for server in servers:
        if lines:
            lines.append("")
        lines.append(
            f"{server['name']}  {server['state']}  ({server['transport']}: {server['where']})"
        )
        if server["state"] != "ready":
            lines.append(f"  {server['error']}")
            continue
        skipped = [
            clipped(f"  {tool['tool']}  not offered: {tool['why']}", width)
            for tool in server.get("skipped", [])
        ]
        if not server["tools"]:
            lines += ["  (no tools)", *skipped]
            continue
        shown = [
            (tool["name"], APPROVAL_SHOWN.get(tool["approval"], tool["approval"]), tool)
            for tool in server["tools"]
        ]
        name_width = max(len(name) for name, _, _ in shown)
        approval_width = max(len(approval) for _, approval, _ in shown)
        room = max(width - name_width - approval_width - 6, MIN_DESCRIPTION)
        for name, approval, tool in shown:
            description = clipped(tool["description"], room)
            row = f"  {name:<{name_width}}  {approval:<{approval_width}}  {description}"
            lines.append(row.rstrip())
        lines += skipped
    lines += [
        "",
        "approval: ask (the person approves each call), always (runs without asking),",
        "never (not offered to agents); set per server or per tool in the config file.",
    ]
    return "\n".join(lines) + "\n"
