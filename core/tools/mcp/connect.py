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
from mcp_types import Implementation, Tool

from agentui.core import __version__
from agentui.core.tools.mcp.config import McpServerConfig
from agentui.core.tools.mcp.environment import expand_all, server_environment

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


async def list_tools(client: Client) -> list[Tool]:
    """Every tool the server lists, page after page."""
    tools: list[Tool] = []
    cursor: str | None = None
    for _ in range(MAX_TOOL_PAGES):
        page = await client.list_tools(cursor=cursor)
        tools += page.tools
        cursor = page.next_cursor
        if cursor is None:
            break
    return tools


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
