"""A client that stops reading its event stream is dropped for real: its connection reset,
nothing left queued for it, one warning and no traceback; also when the heartbeat's send and
the events' send time out together."""

from __future__ import annotations

import logging
import socket
import sys
import time
from typing import Any

import anyio
import pytest

from agentui.core.protocol.events import IterationStarted, TextDelta
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.server import ServerOptions, create_app
from agentui.core.remote.serving import listen, served
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from ..processes import until
from .event_reader import FAIL_AFTER_S
from .server_fixture import TOKEN

pytestmark = pytest.mark.anyio

SEND_TIMEOUT_S = 0.2  # how long the server waits for a client to take data
SMALL_BUFFER = 4096  # socket buffers this small fill with a few events
TCP_CLOSE = 7  # linux/tcp_states.h: the connection is gone (reset, here)
# Far more than the small buffers (and asyncio's 64 KiB before it waits) hold.
HISTORY = tuple(
    TextDelta(seq=seq, ts=0.0, agent_id="a1", iteration=1, delta="x" * 16384)
    for seq in range(1, 65)
)


def _runtime() -> Runtime:
    return Runtime(ScriptedProvider(Script.for_all(Turn(text="x"))), clock=FrozenClock())


def _tcp_state(sock: socket.socket) -> int:
    """The kernel's state of `sock`'s connection (struct tcp_info's first byte), which it
    tells without anything being read."""
    return sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_INFO, 8)[0]


def _problems(records: list[logging.LogRecord]) -> list[str]:
    """What was logged above a warning, or with a traceback."""
    return [
        record.getMessage()
        for record in records
        if record.levelno > logging.WARNING or record.exc_info is not None
    ]


@pytest.mark.skipif(sys.platform != "linux", reason="reads the connection's state in TCP_INFO")
async def test_a_client_that_stops_reading_has_its_connection_reset(
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.WARNING)
    listener = listen("127.0.0.1", 0)
    # Accepted connections take the listening socket's send buffer (and keep it fixed).
    listener.sock.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SMALL_BUFFER)
    options = ServerOptions(token=TOKEN, send_timeout_s=SEND_TIMEOUT_S)
    with socket.socket() as reader:
        reader.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, SMALL_BUFFER)
        async with served(_runtime(), listener, options, history=HISTORY):
            await anyio.to_thread.run_sync(reader.connect, ("127.0.0.1", listener.port))
            reader.sendall(
                f"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                f"Authorization: Bearer {TOKEN}\r\n\r\n".encode()
            )
            # It reads nothing: the server's writes fill both buffers, then wait, then it gives up.
            assert await until(lambda: _tcp_state(reader) == TCP_CLOSE, FAIL_AFTER_S), (
                "the server gave up the stream but kept its connection"
            )
        # The server has stopped: whatever it had to say of that connection is logged.
    drops = [r.getMessage() for r in caplog.records if "dropped an event stream" in r.getMessage()]
    assert len(drops) == 1, drops
    assert _problems(caplog.records) == []


async def test_the_heartbeat_and_the_events_timing_out_together_are_one_drop(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """At the app's own side: both sends wait on a client that reads nothing, and a busy loop
    lets both their deadlines pass in one turn, so both time out at once (it raised an
    ExceptionGroup that reached uvicorn as a traceback)."""
    caplog.set_level(logging.WARNING)
    log = EventLog([IterationStarted(seq=1, ts=0.0, agent_id="a1", iteration=1)])  # stays open
    options = ServerOptions(token=TOKEN, send_timeout_s=0.05, heartbeat_s=0.01)
    app = create_app(_runtime(), log, options)
    never = anyio.Event()
    bodies: list[bytes] = []

    async def send(message: dict[str, Any]) -> None:
        if message["type"] == "http.response.body":
            bodies.append(message["body"])
            if len(bodies) == 2:  # the second send (heartbeat or event), the first still waits
                # The loop is kept busy past both deadlines (deliberately: not a wait).
                time.sleep(3 * options.send_timeout_s)
            await never.wait()  # the client reads nothing

    asked: list[int] = []

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await never.wait()  # nor does it leave
        raise AssertionError("unreachable")

    with anyio.fail_after(FAIL_AFTER_S):
        await app(_scope(), receive, send)  # type: ignore[arg-type]  # returns: no exception
    # Which of the two sends comes first is the scheduler's choice.
    kinds = sorted("event" if body.startswith(b"id: 1\n") else "ping" for body in bodies)
    assert kinds == ["event", "ping"], bodies
    assert all(body.startswith((b"id: 1\n", b": ping")) for body in bodies), bodies
    drops = [r.getMessage() for r in caplog.records if "dropped an event stream" in r.getMessage()]
    assert len(drops) == 1, drops
    assert _problems(caplog.records) == []


def _scope() -> dict[str, Any]:
    return {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": "/events",
        "raw_path": b"/events",
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"127.0.0.1"), (b"authorization", f"Bearer {TOKEN}".encode())],
        "client": ("127.0.0.1", 5),
        "server": ("127.0.0.1", 1),
    }
