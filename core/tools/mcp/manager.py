"""McpManager: every configured MCP server, kept connected as a service of the runtime.

Servers start in the background when the runtime starts (a slow one delays nobody: agents that
do not call it never wait for it). Each ready server's tools join the runtime's registry as
SERVER__tool, so agents see them from their next model call; a tool set to approval "never" is
left out. Every change of a server's state is an `mcp:server` event, so every front end (the
status bar, `agentui run`, a screen attached over the network) sees it.

    manager = McpManager(config.mcp, tools)
    runtime = Runtime(provider, tools=tools, services=[manager.attach])
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

import anyio

from ...events import McpServerChanged
from ..registry import ToolRegistry
from .agent_tool import agent_tool, agent_tool_name
from .config import McpConfig
from .connection import Backoff, McpConnection

if TYPE_CHECKING:
    from ...runtime import Runtime


class McpManager:
    def __init__(
        self,
        config: McpConfig,
        tools: ToolRegistry,
        *,
        environ: Mapping[str, str] = os.environ,
        backoff: Backoff | None = None,
    ) -> None:
        self._tools = tools
        self.connections = {
            name: McpConnection(
                name, server, on_change=self._changed, environ=environ, backoff=backoff
            )
            for name, server in config.servers.items()
        }
        self._names: dict[tuple[str, str], str] = {}  # (server, its tool) -> the agents' name
        self._publish: Callable[..., Any] | None = None

    def attach(self, runtime: Runtime) -> None:
        """Start every server as a service of `runtime` (call it inside `async with runtime`,
        or give it to `Runtime(services=...)`); their states go on its bus."""

        def publish(**fields: Any) -> None:
            runtime.publish_runtime(McpServerChanged, **fields)

        self._publish = publish
        runtime.run_service(self._serve, name="mcp servers")

    async def _serve(self) -> None:
        async with anyio.create_task_group() as group:
            for connection in self.connections.values():
                group.start_soon(connection.run, name=f"mcp server {connection.name}")

    def _changed(self, connection: McpConnection) -> None:
        offered = self._offer(connection) if connection.state == "ready" else []
        if self._publish is not None:
            self._publish(
                server=connection.name,
                state=connection.state,
                tools=offered,
                error=connection.error,
                retry_in_s=connection.retry_in_s,
            )

    def _offer(self, connection: McpConnection) -> list[str]:
        """Put the server's tools (as just listed) in the registry; their agents' names."""
        offered: list[str] = []
        for listed in connection.tools:
            if connection.config.approval_for(listed.name) == "never":
                continue
            key = (connection.name, listed.name)
            name = self._names.get(key)
            if name is None:
                name = self._names[key] = agent_tool_name(
                    connection.name, listed.name, self._tools.names()
                )
            self._tools.replace(agent_tool(connection, listed, name))
            offered.append(name)
        return offered
