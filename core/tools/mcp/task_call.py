"""A tool call run as an MCP task (protocol 2025-11-25; a tool whose `execution.taskSupport` is
"required" can be called no other way). The call creates a task at the server; agentui asks
for its state (tasks/get) at the pace the server suggests, tells each new status as the call's
progress, and once it has ended fetches its result (tasks/result). A call cancelled here (the
agent cancelled, paused or timed out) cancels the task at the server (tasks/cancel).

The SDK's client does not drive tasks: its types are used, and the one request whose answer the
SDK would check as a plain result (the task-augmented tools/call) is sent unchecked
(unchecked.py).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import anyio
from mcp import Client
from mcp.client.session import ClientSession
from mcp_types import (
    CallToolResult,
    CancelTaskRequest,
    CancelTaskRequestParams,
    CancelTaskResult,
    CreateTaskResult,
    GetTaskPayloadRequest,
    GetTaskPayloadRequestParams,
    GetTaskRequest,
    GetTaskRequestParams,
    GetTaskResult,
    Task,
    Tool,
)

from agentui.core.tools.mcp.unchecked import unchecked_request
from agentui.core.tools.tool import ToolError

# Told of each new status: "working: Gathering sources...".
StatusReporter = Callable[[str], Awaitable[None]]

ENDED = ("completed", "failed", "cancelled")
# How long the server keeps the task (and its result) after it was created: an hour, past
# any tool timeout; the server may keep it less, and says so.
TASK_TTL_MS = 3_600_000
# The pace of asking for its state: the server's suggestion, within these bounds.
DEFAULT_POLL_S = 1.0
MIN_POLL_S = 0.05
MAX_POLL_S = 10.0
# How long the server may take to hear that a call cancelled here cancels its task.
CANCEL_S = 5.0


def runs_as_task(tool: Tool) -> bool:
    """The tool's calls must be tasks (taskSupport "required"; "optional" ones are called
    plainly)."""
    return tool.execution is not None and tool.execution.task_support == "required"


def offers_tasks(client: Client) -> bool:
    """The server runs tools/call as tasks (it said so when connecting)."""
    tasks = client.server_capabilities.tasks
    requests = tasks.requests if tasks is not None else None
    tools = requests.tools if requests is not None else None
    return tools is not None and tools.call is not None


async def call_as_task(
    client: Client,
    tool: str,
    arguments: dict[str, Any],
    *,
    on_status: StatusReporter | None = None,
) -> CallToolResult:
    """Call `tool` as a task and return its result once it has ended. ToolError when the server
    cancelled it; the SDK's MCPError when a request fails."""
    session = client.session
    params = {"name": tool, "arguments": arguments, "task": {"ttl": TASK_TTL_MS}}
    answer = await unchecked_request(session, "tools/call", params)
    if "task" not in answer:  # the server ran it at once after all
        return CallToolResult.model_validate(answer)
    task: Task = CreateTaskResult.model_validate(answer).task
    told = ""
    try:
        while True:
            said = f"{task.status}: {task.status_message}" if task.status_message else task.status
            if said != told and on_status is not None:
                await on_status(said)
            told = said
            if task.status in ENDED:
                break
            await anyio.sleep(_poll_s(task))
            task = await session.send_request(
                GetTaskRequest(params=GetTaskRequestParams(task_id=task.task_id)), GetTaskResult
            )
    except BaseException:
        # Cancelled, or a poll failed (the call fails): either way nobody waits for the task
        # any more, so the server should not run it on for the rest of its time to live.
        with anyio.CancelScope(shield=True), anyio.move_on_after(CANCEL_S):
            await _cancel(session, task.task_id)
        raise
    if task.status == "cancelled":
        why = f": {task.status_message}" if task.status_message else ""
        raise ToolError(f"the server cancelled the task{why}")
    return await session.send_request(
        GetTaskPayloadRequest(params=GetTaskPayloadRequestParams(task_id=task.task_id)),
        CallToolResult,
    )


async def _cancel(session: ClientSession, task_id: str) -> None:
    try:
        await session.send_request(
            CancelTaskRequest(params=CancelTaskRequestParams(task_id=task_id)), CancelTaskResult
        )
    except Exception:  # ended or gone meanwhile: nothing is left to cancel
        return


def _poll_s(task: Task) -> float:
    if task.poll_interval is None:
        return DEFAULT_POLL_S
    return min(max(task.poll_interval / 1000, MIN_POLL_S), MAX_POLL_S)
