"""A source of tools that join a runtime's registry some time after it starts (an MCP server's
tools, once the server is ready): what the registry and the agents waiting for such tools ask of
it (pending_tools.py)."""

from __future__ import annotations

from collections.abc import Collection
from typing import Protocol

from agentui.core.support.errors import AgentUIError


class ToolsUnavailableError(AgentUIError):
    """Tools an agent needs did not come: what should offer them is unavailable, and why."""


class PendingTools(Protocol):
    """A source of tools that join the runtime's registry later (McpManager)."""

    def may_offer(self, tool: str) -> bool:
        """`tool` is named like this source's tools (SERVER__tool): it may join the registry."""
        ...

    def starting(self) -> dict[str, float]:
        """What has yet to have its first outcome (a server's first try), and the longest that
        may take, in seconds."""
        ...

    async def wait_for(self, tools: Collection[str]) -> None:
        """Return once each of `tools` is in the registry; raise ToolsUnavailableError, naming
        what should offer it and why, when one will not be (bounded by its startup time)."""
        ...
