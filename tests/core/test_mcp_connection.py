"""An MCP server's tools as agents name them, and what a call says while its server is not
ready (no server runs here: see tests/mcp for the real ones)."""

from __future__ import annotations

import pytest

from agentui.core.tools.mcp.config import McpServerConfig
from agentui.core.tools.tool import ToolError

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio


def test_names_are_server__tool_made_acceptable_to_every_provider() -> None:
    from agentui.core.tools.mcp.agent_tool import MAX_NAME, agent_tool_name

    assert agent_tool_name("docs", "search") == "docs__search"
    assert agent_tool_name("docs", "files/read.v2") == "docs__files_read_v2"
    assert agent_tool_name("docs", "search", taken={"docs__search"}) == "docs__search_2"
    long = agent_tool_name("docs", "x" * 100)
    assert len(long) == MAX_NAME
    again = agent_tool_name("docs", "x" * 100, taken={long})
    assert len(again) == MAX_NAME and again.endswith("_2") and again != long


def test_the_wait_between_tries_doubles_up_to_its_limit() -> None:
    from agentui.core.tools.mcp.connection import Backoff

    backoff = Backoff(first_s=1, max_s=5)
    assert [backoff.delay(n) for n in range(1, 6)] == [1, 2, 4, 5, 5]


async def test_a_call_while_the_server_is_not_ready_fails_at_once_naming_it_and_why() -> None:
    from agentui.core.tools.mcp.connection import McpConnection

    connection = McpConnection("docs", McpServerConfig(command="docs-server"), on_change=print)
    connection.state, connection.error, connection.retry_in_s = "failed", "exited 1", 4.0
    with pytest.raises(ToolError) as raised:
        await connection.call("search", {"query": "x"})
    assert str(raised.value) == (
        "MCP server 'docs' is unavailable: exited 1; agentui tries again in 4 s"
    )
    connection.state = "restarting"
    assert connection.unavailable() == "MCP server 'docs' is restarting after: exited 1"
