"""A request to an MCP server whose answer is taken as the server sent it, and what the SDK's
session is told of a tools listing read that way: every reach into mcp's private parts.

The SDK checks each answer against the usual result of its method, all or nothing: one
malformed tool fails a whole tools/list, and a task-augmented tools/call (which answers with a
task, not a result) fails too. These requests go out as the SDK sends them (its headers
stamped), their answers checked by the caller.
"""

from __future__ import annotations

from typing import Any

from mcp.client.session import ClientSession
from mcp.types import ListToolsResult


async def unchecked_request(session: ClientSession, method: str, params: dict[str, Any]) -> Any:
    """A request's answer as the server sent it (a dict), with the headers `send_request`
    stamps but without its check of the answer against the method's usual result. Private
    parts of mcp 2.3 (pinned <3)."""
    data: dict[str, Any] = {"method": method, "params": params}
    options: dict[str, Any] = {}
    session._stamp(data, options)  # type: ignore[arg-type]
    return await session._dispatcher.send_raw_request(method, data["params"], options)  # type: ignore[arg-type]


def keep_tool_listing(session: ClientSession, page: ListToolsResult, *, complete: bool) -> None:
    """Tell the SDK's session the tools of a listing read unchecked: it keeps each tool's
    output schema (it checks results against it) from its own listings only, and without them
    each call would list the tools again, and fail the same way. A private part of mcp 2.3."""
    session._absorb_tool_listing(page, complete=complete)
