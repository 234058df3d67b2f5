"""An MCP server's tool as agents see it: named SERVER__tool, its JSON Schema as the input
schema, approved as configured, its result as text (results.py)."""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Collection
from typing import Any

from mcp_types import Tool as ListedTool

from agentui.core.support.terminal_text import clipped
from agentui.core.tools.mcp.config import TOOL_SEPARATOR
from agentui.core.tools.mcp.connection import McpConnection
from agentui.core.tools.mcp.results import capped, error_text, result_text
from agentui.core.tools.mcp.task_call import runs_as_task
from agentui.core.tools.tool import Tool, ToolContext, ToolError

# What every provider accepts in a tool's name (OpenAI and Gemini: at most 64 characters).
MAX_NAME = 64
_NOT_ALLOWED = re.compile(r"[^A-Za-z0-9_-]")


def agent_tool_name(server: str, tool: str, taken: Collection[str] = ()) -> str:
    """SERVER__tool, made acceptable to every provider and unlike the names in `taken`."""
    name = _NOT_ALLOWED.sub("_", f"{server}{TOOL_SEPARATOR}{tool}")[:MAX_NAME]
    count = 1
    unique = name
    while unique in taken:
        count += 1
        suffix = f"_{count}"
        unique = name[: MAX_NAME - len(suffix)] + suffix
    return unique


# Told of a call's progress: the call's context, the agents' name of the tool, and the
# server's progress (None for a task's status), total (if known) and message (if any).
ProgressReporter = Callable[[ToolContext, str, float | None, float | None, str | None], None]
# A server's progress message is a status line, not a document.
MAX_PROGRESS_MESSAGE = 200


def agent_tool(
    connection: McpConnection,
    listed: ListedTool,
    name: str,
    report_progress: ProgressReporter | None = None,
) -> Tool:
    """The tool `listed` of `connection`'s server, offered to agents as `name`; its calls
    ask the server for progress notifications when `report_progress` is given."""
    config = connection.config
    schema: dict[str, Any] = dict(listed.input_schema)
    schema.setdefault("type", "object")
    description = (listed.description or listed.title or "").strip() or (
        f"The tool {listed.name} of the MCP server {connection.name}."
    )

    max_bytes = config.max_result_bytes_for(listed.name)
    as_task = runs_as_task(listed)

    async def call(arguments: dict[str, Any], context: ToolContext) -> str:
        progressed = status = None
        if report_progress is not None:
            reporter = report_progress
            shown: object = None

            async def progressed(progress: float, total: float | None, message: str | None) -> None:
                # A server reporting each of 10,000 items of a total makes 100 events (one per
                # percent), not 10,000 in the session log; without a total, each new count.
                nonlocal shown
                said = _message(message)
                step = math.floor(100 * progress / total) if total else (progress, said)
                if step == shown:
                    return
                shown = step
                reporter(context, name, progress, total, said)

            async def status(said: str) -> None:
                reporter(context, name, None, None, _message(said))

        result = await connection.call(
            listed.name,
            arguments,
            on_progress=progressed,
            as_task=as_task,
            on_status=status,
        )
        if result.is_error:
            raise ToolError(capped(error_text(result), max_bytes))
        return capped(result_text(result), max_bytes)

    return Tool.from_schema(
        name,
        description,
        schema,
        call,
        timeout_s=config.timeout_for(listed.name),
        needs_approval=config.approval_for(listed.name) == "ask",
    )


def _message(text: str | None) -> str | None:
    """A server's progress message as one status line."""
    return clipped(" ".join(text.split()), MAX_PROGRESS_MESSAGE) if text else None
