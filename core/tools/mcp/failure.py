"""Why connecting to an MCP server (or a call on it) failed, in one line a person can act on."""

from __future__ import annotations

import httpx2
from mcp.shared.exceptions import MCPError
from mcp_types import CONNECTION_CLOSED

from agentui.core.support.errors import AgentUIError
from agentui.core.tools.mcp.config import McpServerConfig


def describe_failure(exc: BaseException, config: McpServerConfig) -> str:
    leaf = _first_leaf(exc)
    if isinstance(leaf, AgentUIError | MCPError):
        return str(leaf)
    if isinstance(leaf, OSError) and config.command is not None and leaf.strerror:
        return f"cannot start {config.command}: {leaf.strerror}"
    if isinstance(leaf, httpx2.HTTPStatusError):
        return f"{config.url} answered HTTP {leaf.response.status_code}"
    if isinstance(leaf, httpx2.ConnectError):
        return f"cannot connect to {config.url}: {leaf}"
    if isinstance(leaf, httpx2.TransportError):
        return f"the connection to {config.url} broke: {leaf}"
    text = str(leaf)
    return f"{type(leaf).__name__}: {text}" if text else type(leaf).__name__


def closed_connection(exc: BaseException) -> bool:
    """The SDK's word that the connection ended (its reason is known elsewhere, if at all)."""
    leaf = _first_leaf(exc)
    return isinstance(leaf, MCPError) and leaf.code == CONNECTION_CLOSED


def _first_leaf(exc: BaseException) -> BaseException:
    """The first exception inside (nested) task-group exception groups."""
    while isinstance(exc, BaseExceptionGroup) and exc.exceptions:
        exc = exc.exceptions[0]
    return exc
