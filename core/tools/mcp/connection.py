"""One configured MCP server, kept connected: started, its tools listed, and after a failure
(it would not start, did not answer in time, crashed, its connection broke, stopped answering
pings) tried again after a growing wait. Agents' calls go through it; while it is not ready
they fail at once, saying why.
"""

from __future__ import annotations

import math
import os
import tempfile
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import IO, Any

import anyio
from mcp import Client
from mcp.shared.dispatcher import ProgressFnT
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Tool

from agentui.core.protocol.events import McpServerState
from agentui.core.support.terminal_text import clipped
from agentui.core.tools.mcp.config import McpServerConfig
from agentui.core.tools.mcp.connect import connected, list_tools
from agentui.core.tools.mcp.failure import closed_connection, describe_failure
from agentui.core.tools.mcp.ping import unanswered_ping
from agentui.core.tools.mcp.task_call import StatusReporter, call_as_task
from agentui.core.tools.tool import ToolError

STDERR_TAIL_CHARS = 300  # of a stdio server's last stderr line, to say why it failed


@dataclass(frozen=True, slots=True)
class Backoff:
    """The wait before trying a failed server again: doubling from `first_s` up to `max_s`."""

    first_s: float = 1.0
    max_s: float = 60.0

    def delay(self, failures: int) -> float:
        return min(self.first_s * 2.0 ** max(failures - 1, 0), self.max_s)


class McpConnection:
    """The server `name` as configured; `run()` keeps it connected until cancelled, and
    `on_change(self)` is called at each change of `state` (with `tools`, `error`, `retry_in_s`)."""

    def __init__(
        self,
        name: str,
        config: McpServerConfig,
        *,
        on_change: Callable[[McpConnection], None],
        environ: Mapping[str, str] = os.environ,
        backoff: Backoff | None = None,
    ) -> None:
        self.name = name
        self.config = config
        self.state: McpServerState = "starting"
        self.tools: list[Tool] = []  # as last listed, those agents can call
        self.skipped: dict[str, str] = {}  # tools listed that agents cannot call, and why
        self.error = ""  # why the last try failed
        self.retry_in_s: float | None = None
        self._on_change = on_change
        self._environ = environ
        self._backoff = backoff if backoff is not None else Backoff()
        self._client: Client | None = None  # while ready
        self._lost: anyio.Event | None = None
        self._lost_reason = ""
        self._changed: anyio.Event | None = None  # set at the next change of state

    # -- keeping it connected ------------------------------------------------------------

    async def run(self) -> None:
        """Connect, and after each failure connect again after the backoff (from its first
        step again once the server had been ready)."""
        failures = 0
        self._report("starting")
        while True:
            reason, was_ready = await self._connect_once()
            failures = 1 if was_ready else failures + 1
            delay = self._backoff.delay(failures)
            self._report("failed", error=reason, retry_in_s=delay)
            await anyio.sleep(delay)
            self._report("restarting", error=reason)

    async def _connect_once(self) -> tuple[str, bool]:
        """Serve one connection until it fails; why, and whether it had been ready."""
        self._lost, self._lost_reason = anyio.Event(), ""
        ready = False
        with tempfile.TemporaryFile() as errlog:  # binary: only its descriptor is handed on
            try:
                with anyio.CancelScope() as startup:
                    startup.deadline = anyio.current_time() + self.config.startup_timeout_s
                    async with connected(
                        self.config, errlog=errlog, on_end=self._ended, environ=self._environ
                    ) as client:
                        self.tools, self.skipped = await list_tools(client)
                        startup.deadline = math.inf  # it answered: no limit from here on
                        self._client, ready = client, True
                        self._report("ready")
                        async with anyio.create_task_group() as watching:
                            watching.start_soon(self._keep_pinging, client)
                            await self._lost.wait()
                            watching.cancel_scope.cancel()
                if startup.cancelled_caught:
                    reason = f"did not answer within {self.config.startup_timeout_s:g} s"
                else:
                    reason = self._lost_reason or "the connection ended"
            except Exception as exc:  # whatever connecting or the connection raised
                if self._lost_reason and closed_connection(exc):
                    reason = self._lost_reason  # the server went away: say so, not "closed"
                else:
                    reason = describe_failure(exc, self.config)
            finally:
                self._client = None
            return _with_stderr(reason, errlog), ready

    async def _keep_pinging(self, client: Client) -> None:
        config = self.config
        why = await unanswered_ping(client.session, config.ping_interval_s, config.ping_timeout_s)
        self._connection_lost(why)

    def _ended(self) -> None:
        self._connection_lost("the server closed the connection")

    def _connection_lost(self, reason: str) -> None:
        if self._lost is not None and not self._lost.is_set():
            self._client = None  # calls from now on fail at once
            self._lost_reason = reason
            self._lost.set()

    def _report(
        self, state: McpServerState, *, error: str = "", retry_in_s: float | None = None
    ) -> None:
        self.state, self.error, self.retry_in_s = state, error, retry_in_s
        if self._changed is not None:
            self._changed.set()
            self._changed = None
        self._on_change(self)

    @property
    def trying(self) -> bool:
        """A try to connect is under way (starting, or restarting after a failure)."""
        return self.state in ("starting", "restarting")

    async def tried(self) -> None:
        """Return once no try is under way: the server is ready, or failed."""
        while self.trying:
            if self._changed is None:
                self._changed = anyio.Event()
            await self._changed.wait()

    # -- calls ---------------------------------------------------------------------------

    def unavailable(self) -> str:
        """Why a call cannot be made now."""
        if self.state == "failed":
            retry = f"; agentui tries again in {self.retry_in_s:g} s" if self.retry_in_s else ""
            return f"MCP server {self.name!r} is unavailable: {self.error}{retry}"
        if self.trying:
            after = f" after: {self.error}" if self.error else ""
            return f"MCP server {self.name!r} is {self.state}{after}"
        return f"MCP server {self.name!r} is unavailable: {self._lost_reason or 'not connected'}"

    async def call(
        self,
        tool: str,
        arguments: dict[str, Any],
        *,
        on_progress: ProgressFnT | None = None,
        as_task: bool = False,
        on_status: StatusReporter | None = None,
    ) -> CallToolResult:
        """Call `tool`; ToolError says why there is no result (the server is not ready, no
        longer has the tool, lost its connection, refused the call). A cancelled call is
        cancelled at the server too (the SDK tells it). With `on_progress`, the request
        carries a progress token and the server's progress notifications reach it. `as_task`:
        run as an MCP task (task_call.py), each new status told to `on_status`."""
        client = self._client
        if client is None:
            raise ToolError(self.unavailable())
        if all(listed.name != tool for listed in self.tools):
            raise ToolError(f"MCP server {self.name!r} no longer offers the tool {tool!r}")
        try:
            if as_task:
                return await call_as_task(client, tool, arguments, on_status=on_status)
            return await client.call_tool(tool, arguments, progress_callback=on_progress)
        except ToolError:
            raise
        except MCPError as exc:
            if closed_connection(exc):
                why = self._lost_reason  # known when it exited or a ping found it hung
                self._connection_lost("the server closed the connection during a call")
                lost = f"was lost during the call: {why}" if why else "closed the connection"
                raise ToolError(
                    f"MCP server {self.name!r} {lost}; agentui starts it again"
                ) from None
            raise ToolError(f"MCP server {self.name!r} refused the call: {exc}") from None
        except Exception as exc:
            raise ToolError(
                f"MCP server {self.name!r}: {describe_failure(exc, self.config)}"
            ) from None


def _with_stderr(reason: str, errlog: IO[bytes]) -> str:
    """The reason, with the last line the server wrote to stderr (a stdio server's)."""
    try:
        errlog.seek(0, os.SEEK_END)
        errlog.seek(max(errlog.tell() - 4 * STDERR_TAIL_CHARS, 0))
        text = errlog.read().decode("utf-8", errors="replace")
    except (OSError, ValueError):
        return reason
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    if not lines:
        return reason
    return f"{reason} (its stderr: {clipped(lines[-1], STDERR_TAIL_CHARS)})"
