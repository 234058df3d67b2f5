"""Start each configured MCP server once, list its tools and stop it (`agentui mcp list`)."""

from __future__ import annotations

import os
from collections.abc import Mapping

import anyio

from agentui.core.tools.mcp.config import DAY_S, McpConfig
from agentui.core.tools.mcp.connection import Backoff, McpConnection

# One try each: a failed server waits past the listing instead of trying again, so it is listed
# as failed with its reason, never as "restarting" while a slower server is still starting.
NO_RETRY = Backoff(first_s=DAY_S, max_s=DAY_S)


async def probe_servers(
    config: McpConfig, environ: Mapping[str, str] = os.environ
) -> list[McpConnection]:
    """Every server as its first try ended: ready with its tools, or failed with why. They
    start together, so the slowest one (at most its startup timeout) sets how long it takes."""
    settled = {name: anyio.Event() for name in config.servers}

    def changed(connection: McpConnection) -> None:
        if connection.state in ("ready", "failed"):
            settled[connection.name].set()

    connections = [
        McpConnection(name, server, on_change=changed, environ=environ, backoff=NO_RETRY)
        for name, server in config.servers.items()
    ]
    async with anyio.create_task_group() as group:
        for connection in connections:
            group.start_soon(connection.run, name=f"mcp server {connection.name}")
        for event in settled.values():
            await event.wait()
        group.cancel_scope.cancel()  # stops the ready ones, and the failed ones' next try
    return connections
