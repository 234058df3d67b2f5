"""A real `agentui serve` server in the test's own event loop, for tests that use the client.

    async with served_runtime(Turn(text="hi")) as server:
        async with server.client() as client:
            agent_id = await client.start("say hi")

It runs a scripted-provider runtime (zero delays, a frozen clock) behind the real FastAPI app
and uvicorn on 127.0.0.1, port 0. `server.base_url`, `server.token` and `server.runtime` are
what a test needs; leaving the block stops the runtime, then the server, as `agentui serve`
does.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass

from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.event_log import KEEP_RECENT, MEMORY_BYTES, EventLog
from agentui.core.remote.server import ServerOptions
from agentui.core.remote.serving import listen, served
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

TOKEN = "test-token-0123456789"


@dataclass(frozen=True, slots=True)
class Served:
    base_url: str
    token: str
    runtime: Runtime
    events: EventLog  # the server's event log

    def client(self, **options: float) -> RemoteClient:
        return RemoteClient(self.base_url, self.token, **options)


@asynccontextmanager
async def served_runtime(
    *turns: Turn,
    script: Script | None = None,
    runtime: Runtime | None = None,
    heartbeat_s: float = 15.0,
    behind_after: int = 512,
    history: tuple[Event, ...] = (),
    keep_recent: int = KEEP_RECENT,
    memory_bytes: int | None = MEMORY_BYTES,
) -> AsyncIterator[Served]:
    """Serve `runtime` (default: every agent plays `turns`, or `script`) until the block ends."""
    if runtime is None:
        provider = ScriptedProvider(script if script is not None else Script.for_all(*turns))
        runtime = Runtime(provider, clock=FrozenClock())
    listener = listen("127.0.0.1", 0)
    options = ServerOptions(
        token=TOKEN,
        heartbeat_s=heartbeat_s,
        behind_after=behind_after,
        log_keep_recent=keep_recent,
        log_memory_bytes=memory_bytes,
    )
    async with served(runtime, listener, options, history=history) as events:
        yield Served(listener.url, TOKEN, runtime, events)
