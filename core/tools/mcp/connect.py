"""Connecting to one MCP server with the SDK's Client: over stdio (agentui starts the command,
its stderr kept in a file for the reason it fails) or streamable HTTP (with its headers).

The SDK tells a pending request when the connection ends, but not a connection that sits idle:
`on_end` is called as soon as the server's side of the connection ends (a stdio server that
exited), so its tools are marked unavailable without waiting for the next call.
"""

from __future__ import annotations

import os
from collections.abc import AsyncIterator, Callable, Mapping
from contextlib import AsyncExitStack, asynccontextmanager
from types import TracebackType
from typing import IO, Any

import anyio
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp_types import (
    Implementation,
    ListToolsResult,
    Tool,
)
from pydantic import ValidationError

from agentui.core import __version__
from agentui.core.support.validation import describe_errors
from agentui.core.tools.mcp import library_log
from agentui.core.tools.mcp.config import McpServerConfig
from agentui.core.tools.mcp.environment import expand_all, server_environment
from agentui.core.tools.mcp.task_call import offers_tasks, runs_as_task
from agentui.core.tools.mcp.unchecked import keep_tool_listing, unchecked_request

CLIENT_INFO = Implementation(name="agentui", version=__version__)
MAX_TOOL_PAGES = 100  # a server whose listing never ends cannot hold the start forever


@asynccontextmanager
async def connected(
    config: McpServerConfig,
    *,
    errlog: IO[bytes],
    on_end: Callable[[], None],
    environ: Mapping[str, str] = os.environ,
) -> AsyncIterator[Client]:
    """A Client connected to the server (the protocol negotiated), closed on exit.

    Raises what connecting raises: OSError for a command that cannot start, MissingVariableError
    for an `env` or `headers` value naming an unset variable, the SDK's and httpx's errors."""
    library_log.install()
    async with AsyncExitStack() as stack:
        if config.url is not None:
            headers = expand_all(config.headers, environ, "headers")
            http = await stack.enter_async_context(create_mcp_http_client(headers=headers))
            transport: Any = streamable_http_client(config.url, http_client=http)
        else:
            assert config.command is not None
            parameters = StdioServerParameters(
                command=config.command,
                args=config.args,
                env=server_environment(config.env, environ),
                cwd=config.cwd,
            )
            # The server's stderr goes to a file: on a screen it would write over the app.
            transport = stdio_client(parameters, errlog=errlog)  # type: ignore[arg-type]  # the child's stderr: binary will do
        client = Client(_EndWatched(transport, on_end), client_info=CLIENT_INFO, cache=None)
        yield await stack.enter_async_context(client)


async def list_tools(client: Client) -> tuple[list[Tool], dict[str, str]]:
    """Every tool the server lists, page after page, that agents can call; and those they
    cannot, with why (one line each): a tool the protocol's types reject (one malformed tool
    would otherwise fail the whole listing), or one that runs only as a task on a server that
    does not offer tasks."""
    tools: list[Tool] = []
    skipped: dict[str, str] = {}
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        try:
            page = await client.list_tools(cursor=cursor)
        except ValidationError:  # some tool of the page is malformed: take the others
            page = await _tolerant_page(client, cursor, skipped)
        for tool in page.tools:
            if runs_as_task(tool) and not offers_tasks(client):
                skipped[tool.name] = TASK_REQUIRED
            else:
                tools.append(tool)
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools, skipped


# Why a tool declaring execution.taskSupport "required" is not offered by a server that does
# not say it runs tools/call as tasks (task_call.py): it can be called no other way.
TASK_REQUIRED = "runs only as an MCP task, and the server does not offer tasks for tools/call"


async def _tolerant_page(
    client: Client, cursor: str | None, skipped: dict[str, str]
) -> ListToolsResult:
    """The page's tools that are well formed; the others go in `skipped` with why."""
    params: dict[str, Any] = {"cursor": cursor} if cursor is not None else {}
    raw = await unchecked_request(client.session, "tools/list", params)
    kept: list[Tool] = []
    listed = raw.get("tools")
    for number, data in enumerate(listed if isinstance(listed, list) else [], start=1):
        name = data.get("name") if isinstance(data, dict) else None
        shown = name if isinstance(name, str) and name else f"(tool {number} of the listing)"
        try:
            kept.append(Tool.model_validate(data))
        except ValidationError as exc:
            skipped[shown] = "malformed: " + describe_errors(exc, "(tool)")
    next_cursor = raw.get("nextCursor")
    page = ListToolsResult(
        tools=kept, next_cursor=next_cursor if isinstance(next_cursor, str) else None
    )
    # Its own listing failed: the session is given the tools that passed.
    keep_tool_listing(client.session, page, complete=cursor is None and page.next_cursor is None)
    return page


class _EndWatched:
    """A transport whose read stream calls `on_end` when the server's side ends."""

    def __init__(self, transport: Any, on_end: Callable[[], None]) -> None:
        self._transport = transport
        self._on_end = on_end

    async def __aenter__(self) -> tuple[Any, Any]:
        read_stream, write_stream = await self._transport.__aenter__()
        return _EndWatchedStream(read_stream, self._on_end), write_stream

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc_value: BaseException | None,
        traceback: TracebackType | None,
    ) -> bool | None:
        suppress: bool | None = await self._transport.__aexit__(exc_type, exc_value, traceback)
        return suppress


class _EndWatchedStream:
    """The SDK's read stream, telling `on_end` when it ends (the SDK's ReadStream protocol)."""

    def __init__(self, inner: Any, on_end: Callable[[], None]) -> None:
        self._inner = inner
        self._on_end = on_end

    @property
    def last_context(self) -> Any:  # the sender's context, which the HTTP transport carries
        return getattr(self._inner, "last_context", None)

    async def receive(self) -> Any:
        try:
            return await self._inner.receive()
        except (anyio.EndOfStream, anyio.ClosedResourceError, anyio.BrokenResourceError):
            self._on_end()
            raise

    async def aclose(self) -> None:
        await self._inner.aclose()

    def __aiter__(self) -> _EndWatchedStream:
        return self

    async def __anext__(self) -> Any:
        try:
            return await self.receive()
        except anyio.EndOfStream:
            raise StopAsyncIteration from None

    async def __aenter__(self) -> _EndWatchedStream:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()
