"""McpManager: every configured MCP server, kept connected as a service of the runtime.

Servers start in the background when the runtime starts (a slow one delays nobody: agents that
do not call it never wait for it). Each ready server's tools join the runtime's registry as
SERVER__tool, so agents see them from their next model call; a tool set to approval "never" is
left out. Every change of a server's state is an `mcp:server` event, so every front end (the
status bar, `agentui run`, a screen attached over the network) sees it.

It is the runtime's source of tools that come later (pending_tools.PendingTools): an agent
profile may name SERVER__tool before the server is ready, and its agent waits for the tool.

    manager = McpManager(config.mcp, tools)
    runtime = Runtime(provider, tools=tools, services=[manager.attach])
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable, Collection, Mapping
from typing import Any, Protocol

import anyio

from agentui.core.protocol.events import E, McpServerChanged, ToolProgressed
from agentui.core.tools.mcp.agent_tool import agent_tool, agent_tool_name
from agentui.core.tools.mcp.config import McpConfig
from agentui.core.tools.mcp.connection import Backoff, McpConnection
from agentui.core.tools.pending_source import PendingTools, ToolsUnavailableError
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import ToolContext


class ServiceHost(Protocol):
    """What the manager needs of the runtime it serves (core.runtime.Runtime is one), named
    here so that tools, below the runtime, do not import it."""

    def expect_tools(self, source: PendingTools) -> None: ...

    def run_service(self, service: Callable[[], Awaitable[None]], *, name: str) -> None: ...

    def publish_runtime(self, cls: type[E], **fields: Any) -> E: ...

    def publish(self, cls: type[E], agent_id: str, **fields: Any) -> E: ...


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
        self._config = config
        self.connections = {
            name: McpConnection(
                name, server, on_change=self._changed, environ=environ, backoff=backoff
            )
            for name, server in config.servers.items()
        }
        self._names: dict[tuple[str, str], str] = {}  # (server, its tool) -> the agents' name
        self._offered: dict[str, list[str]] = {}  # server -> its tools as agents call them
        self._runtime: ServiceHost | None = None  # whose bus the states go on, once attached

    def attach(self, runtime: ServiceHost) -> None:
        """Start every server as a service of `runtime` (call it inside `async with runtime`,
        or give it to `Runtime(services=...)`); their states go on its bus."""
        self._runtime = runtime
        runtime.expect_tools(self)
        runtime.run_service(self._serve, name="mcp servers")

    async def _serve(self) -> None:
        async with anyio.create_task_group() as group:
            for connection in self.connections.values():
                group.start_soon(connection.run, name=f"mcp server {connection.name}")

    # -- tools that come later (PendingTools) -------------------------------------------

    def may_offer(self, tool: str) -> bool:
        return self._config.may_offer(tool)

    def starting(self) -> dict[str, float]:
        """The servers whose first try has not ended, and their startup_timeout_s (a server is
        "starting" only until its first outcome; later tries are "restarting")."""
        return {
            name: connection.config.startup_timeout_s
            for name, connection in self.connections.items()
            if connection.state == "starting"
        }

    async def wait_for(self, tools: Collection[str]) -> None:
        """Wait for the tries under way of the servers of `tools` (each at most its
        startup_timeout_s); ToolsUnavailableError says why one of `tools` is not there."""
        servers = {self._config.server_of(tool) for tool in tools}
        for name in sorted(s for s in servers if s is not None):
            connection = self.connections[name]
            with anyio.move_on_after(connection.config.startup_timeout_s):
                await connection.tried()
        problems = [self._why_not(tool) for tool in tools if self._tools.get(tool) is None]
        if problems:
            raise ToolsUnavailableError("; ".join(dict.fromkeys(problems)))

    def _why_not(self, tool: str) -> str:
        server = self._config.server_of(tool)
        if server is None:
            return f"no MCP server offers {tool}"
        connection = self.connections[server]
        if connection.state == "ready":
            offers = ", ".join(self._offered.get(server, [])) or "none"
            return f"MCP server {server!r} offers no tool {tool} (its tools: {offers})"
        if connection.trying:
            limit = connection.config.startup_timeout_s
            return f"MCP server {server!r} was not ready within {limit:g} s"
        return connection.unavailable()

    # -- states --------------------------------------------------------------------------

    def _changed(self, connection: McpConnection) -> None:
        offered = self._offer(connection) if connection.state == "ready" else []
        if self._runtime is not None:
            self._runtime.publish_runtime(
                McpServerChanged,
                server=connection.name,
                state=connection.state,
                tools=offered,
                error=connection.error,
                retry_in_s=connection.retry_in_s,
            )

    def _progressed(
        self,
        context: ToolContext,
        tool: str,
        progress: float | None,
        total: float | None,
        message: str | None,
    ) -> None:
        """A server's progress notification for an agent's call, as a tool:progress event."""
        if self._runtime is None:
            return
        self._runtime.publish(
            ToolProgressed,
            context.agent_id,
            iteration=context.iteration,
            call_id=context.call_id,
            name=tool,
            progress=progress,
            total=total,
            message=message or "",
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
            self._tools.replace(agent_tool(connection, listed, name, self._progressed))
            offered.append(name)
        self._offered[connection.name] = offered
        return offered
