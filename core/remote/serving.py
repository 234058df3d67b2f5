"""Serve a runtime over HTTP: uvicorn on the runtime's own event loop, stopped in order.

uvicorn runs as a task next to the runtime (`Server.serve`, not `uvicorn.run`), so commands
reach the runtime on its loop and the two stop in order: first the runtime (its agents are
cancelled, the session records their ends, the event log closes, so every SSE stream ends
with the agents' last events), then the server.

    listener = listen("127.0.0.1", 0)              # bound now: the port is known
    async with served(runtime, listener, ServerOptions(token=token)) as events:
        print(listener.url)
        await stop.wait()
"""

from __future__ import annotations

import socket
from collections.abc import AsyncIterator, Iterable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from dataclasses import dataclass, replace

import anyio
import uvicorn

from agentui.core.protocol.events import Event
from agentui.core.remote.auth import own_host_names, own_origins
from agentui.core.remote.connection_abort import AbortableH11Protocol
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.inbox_fold import InboxFold
from agentui.core.remote.server import ServerOptions, create_app
from agentui.core.runtime import Runtime
from agentui.core.support.errors import AgentUIError

# The longest wait for open connections once the runtime has stopped, in seconds (uvicorn's
# setting is an int).
GRACE_S = 5


@dataclass(frozen=True, slots=True)
class Listener:
    sock: socket.socket
    host: str  # as given (127.0.0.1, localhost, ::1, ...)
    port: int  # the bound one (port 0 picks one)

    @property
    def url(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"http://{host}:{self.port}"


def listen(host: str, port: int) -> Listener:
    """A socket listening on `host`:`port` (0: any free port); AgentUIError when it cannot.

    Bound and listening before the server starts, so the address can be printed at once:
    a client connecting meanwhile waits in the backlog.
    """
    try:
        found = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as exc:
        raise AgentUIError(f"cannot listen on {host}: {exc.strerror}") from None
    family, kind, protocol, _, address = found[0]
    sock = socket.socket(family, kind, protocol)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind(address)
        sock.listen(128)
    except OSError as exc:
        sock.close()
        raise AgentUIError(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from None
    return Listener(sock, host, sock.getsockname()[1])


class _Server(uvicorn.Server):
    @contextmanager
    def capture_signals(self) -> Iterator[None]:
        # The command stops the runtime and then the server in order on a signal; a test's
        # server must leave the test runner's handlers alone.
        yield


@asynccontextmanager
async def served(
    runtime: Runtime,
    listener: Listener,
    options: ServerOptions,
    *,
    history: Iterable[Event] = (),
) -> AsyncIterator[EventLog]:
    """Run `runtime` (not entered yet: this enters it) and serve it on `listener` while the
    block runs; then stop the runtime, then the server. `history`: a resumed session's saved
    events, which start the event log. Yields the log."""
    # Read twice: by the log and by the inbox's fold.
    history = history if isinstance(history, Sequence) else list(history)
    events = EventLog(
        history, keep_recent=options.log_keep_recent, memory_bytes=options.log_memory_bytes
    )
    inbox = InboxFold(runtime, history)
    if not options.origins:
        options = replace(options, origins=own_origins(listener.host, listener.port))
    options = replace(options, hosts=own_host_names(listener.host))
    config = uvicorn.Config(
        create_app(runtime, events, options, inbox),
        lifespan="off",
        log_config=None,  # leave the process's logging as it is
        access_log=False,
        timeout_graceful_shutdown=GRACE_S,
        http=AbortableH11Protocol,  # a stalled event stream's connection is reset, not kept
    )
    server = _Server(config)
    # The server's task group holds the runtime's: the runtime stops first.
    try:
        async with anyio.create_task_group() as group:
            group.start_soon(server.serve, [listener.sock])
            try:
                async with runtime:
                    events.attach(runtime)
                    inbox.attach(runtime)
                    yield events
            finally:
                events.close()  # ends every SSE stream (the runtime's end closed it already)
                server.should_exit = True
    finally:
        events.discard()  # the server has stopped: no stream reads the log's file any more
