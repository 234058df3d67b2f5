"""The test MCP server (echo_server.py) as agentui's config names it, over stdio or over
streamable HTTP on 127.0.0.1, and a runtime whose registry gets its tools."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import Process

from agentui.core.protocol.events import Event, McpServerChanged, ToolCompleted, ToolFailed
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.mcp.config import McpConfig, McpServerConfig
from agentui.core.tools.registry import ToolRegistry

from ..core.helpers import Recorder
from ..forks import FORKS

if TYPE_CHECKING:
    from agentui.core.tools.mcp.manager import McpManager

# The manager and its connections import the MCP SDK: they are imported where a runtime is
# made, so collecting the test modules that import this one imports no SDK
# (tests/core/test_collection_imports.py).

# Starting a server takes a Python interpreter and the SDK: generous on a loaded machine.
GUARD_S = 60

ECHO_SERVER = Path(__file__).with_name("echo_server.py")
# Short waits between tries (the manager's backoff, in seconds): the tests wait on events,
# never on these.
QUICK = {"first_s": 0.01, "max_s": 0.2}
SILENT = "import sys; sys.stdin.read()"  # a server that reads the handshake and never answers


def stdio_server(**settings: Any) -> McpServerConfig:
    """The echo server over stdio, forked by the tests' fork server (`args` given: this Python
    started with those arguments instead)."""
    if "args" not in settings:
        command, *args = FORKS.command("path", str(ECHO_SERVER))
        return McpServerConfig(command=command, args=args, **settings)
    return McpServerConfig(command=sys.executable, **settings)


def unstartable_server() -> McpServerConfig:
    """A stdio server whose command does not exist."""
    return stdio_server().model_copy(update={"command": "no-such-program-agentui"})


class HttpEchoServer:
    """echo_server.py over streamable HTTP in a child process on 127.0.0.1 (a free port, kept
    across a restart)."""

    def __init__(self) -> None:
        self.port = 0
        self._process: Process | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def config(self, **settings: Any) -> McpServerConfig:
        return McpServerConfig(url=self.url, **settings)

    async def start(self) -> None:
        self._process = await anyio.open_process(
            FORKS.command("path", str(ECHO_SERVER), "--http", str(self.port)),
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
        )
        assert self._process.stdout is not None
        printed = b""
        with anyio.fail_after(30):  # a failure guard
            while not printed.endswith(b"\n"):
                printed += await self._process.stdout.receive(1)
        self.port = int(printed)

    async def wait_exited(self) -> None:
        assert self._process is not None
        with anyio.fail_after(30):
            await self._process.wait()

    async def stop(self) -> None:
        if self._process is not None and self._process.returncode is None:
            self._process.kill()
            with anyio.CancelScope(shield=True):
                await self._process.wait()
        if self._process is not None:
            await self._process.aclose()


@asynccontextmanager
async def echo_server(transport: str, **settings: Any) -> AsyncIterator[McpServerConfig]:
    """The echo server's config over `transport` ("stdio" or "http", started here)."""
    if transport == "stdio":
        yield stdio_server(**settings)
        return
    http = HttpEchoServer()
    await http.start()
    try:
        yield http.config(**settings)
    finally:
        await http.stop()


def calls(*calls: tuple[str, dict[str, Any]], then: str = "done") -> list[Turn]:
    """A script turn per tool call, then a last answer."""
    turns = [Turn(tool_calls=[ScriptedToolCall(name=n, arguments=a)]) for n, a in calls]
    return [*turns, Turn(text=then)]


def by_agent(*scripts: list[Turn]) -> Script:
    """The first root agent (main) plays the first list, the second (main-2) the next, ..."""
    names = ["main", *(f"main-{n}" for n in range(2, len(scripts) + 1))]
    return Script(agents=dict(zip(names, scripts, strict=True)))


def mcp_runtime(
    servers: Mapping[str, McpServerConfig],
    *turns: Turn,
    environ: Mapping[str, str] | None = None,
    script: Script | None = None,
    **options: Any,
) -> tuple[Runtime, ScriptedProvider, McpManager]:
    """A runtime on the scripted model whose tools are ask_user and the servers' tools; every
    agent plays `turns`, or each its own list of `script`."""
    from agentui.core.tools.mcp.connection import Backoff
    from agentui.core.tools.mcp.manager import McpManager

    tools = ToolRegistry([ASK_USER])
    extra = {"environ": environ} if environ is not None else {}
    manager = McpManager(McpConfig(servers=dict(servers)), tools, backoff=Backoff(**QUICK), **extra)
    provider = ScriptedProvider(script if script is not None else Script.for_all(*turns))
    options.setdefault("clock", FrozenClock())
    runtime = Runtime(provider, tools=tools, services=[manager.attach], **options)
    return runtime, provider, manager


def outcomes(events: Recorder, agent_id: str) -> list[tuple[str, str, bool]]:
    """(tool, result or error, failed) of each call the agent made, in order."""
    out = []
    for event in events.events:
        if isinstance(event, ToolCompleted) and event.agent_id == agent_id:
            out.append((event.name, event.result, False))
        elif isinstance(event, ToolFailed) and event.agent_id == agent_id:
            out.append((event.name, event.error, True))
    return out


def server_is(server: str, state: str) -> Any:
    def matches(event: Event) -> bool:
        return (
            isinstance(event, McpServerChanged) and event.server == server and event.state == state
        )

    return matches


class Events(Recorder):
    """A Recorder whose waits allow for servers starting on a loaded machine."""

    guard_s = GUARD_S

    async def server(self, server: str, state: str, count: int = 1) -> McpServerChanged:
        """The server's `count`th event of `state` (waiting for it)."""
        event = (await self.wait_for(server_is(server, state), count))[count - 1]
        assert isinstance(event, McpServerChanged)
        return event

    async def ended(self, agent_id: str) -> list[Event]:
        """Every event until the agent's run has ended."""
        ends = ("execution:complete", "execution:error", "execution:cancelled")
        await self.wait_for(lambda e: e.type in ends and e.agent_id == agent_id)
        return self.events
