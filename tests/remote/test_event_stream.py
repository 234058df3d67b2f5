"""`GET /events` end to end: history then live, resumed after a forced disconnect with every
event exactly once, merged deltas for a client that fell behind, heartbeats; a client that
takes no data is dropped."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import anyio
import httpx2
import pytest

from agentui.core.protocol.events import (
    Event,
    IterationStarted,
    TextDelta,
    ThinkingDelta,
    parse_event,
)
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.client import RemoteClient
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.server import ServerOptions, create_app
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .event_reader import FAIL_AFTER_S, EventReader, status
from .event_steps import text_of
from .server_fixture import TOKEN, Served, served_runtime

pytestmark = pytest.mark.anyio

AGENTS = 6
# Long enough that every agent streams dozens of deltas, interleaved with the others'.
STREAMS = Turn(thinking="Let me think this through. " * 8, text="Here is what I found. " * 12)


def state_seqs(events: Iterable[Event]) -> list[int]:
    return [e.seq for e in events if not isinstance(e, TextDelta | ThinkingDelta)]


async def start_all(server: Served, client: RemoteClient) -> list[str]:
    return [await client.start(f"task {n}") for n in range(AGENTS)]


async def run_to_the_end(server: Served, client: RemoteClient) -> list[Event]:
    """Start the agents, wait until all completed; every event the runtime published."""
    everything = server.runtime.subscribe(maxsize=None)
    ids = await start_all(server, client)
    with anyio.fail_after(FAIL_AFTER_S):
        for agent_id in ids:
            await server.runtime.wait(agent_id)
    server.events.catch_up()
    return everything.drain()


async def read(
    client: RemoteClient, since: int, *, count: int | None = None, last: int | None = None
) -> list[Event]:
    """The events of one stream from `since` until `count` were read or the event with seq
    `last` came, whichever is first; then the connection is dropped."""
    stream = client.events(since)
    got: list[Event] = []
    with anyio.fail_after(FAIL_AFTER_S):
        async for event in stream:
            got.append(event)
            if len(got) == count or event.seq == last:
                break
    await stream.aclose()  # type: ignore[attr-defined]
    return got


async def test_history_then_live_and_since_skips_what_was_seen() -> None:
    async with (
        served_runtime(Turn(text="one"), Turn(text="two")) as server,
        server.client() as client,
    ):
        first = await client.start("first")
        reader = EventReader(client)
        done = await reader.until(status(first, "completed"))
        await reader.aclose()
        mark = done[0].seq
        later = EventReader(client, since=mark)
        second = await client.start("second")
        live = await later.until(status(second, "completed"))
        assert min(e.seq for e in later.events) == mark + 1
        assert live[0].seq == later.events[-1].seq
        await later.aclose()


@pytest.mark.parametrize("behind_after", [100_000, 4], ids=["one-by-one", "merged"])
async def test_a_forced_disconnect_loses_and_doubles_nothing(behind_after: int) -> None:
    async with (
        served_runtime(STREAMS, behind_after=behind_after) as server,
        server.client() as client,
    ):
        published = await run_to_the_end(server, client)
        # One client reads the whole run in one stream...
        end = published[-1].seq
        whole = await read(client, 0, last=end)
        assert text_of(whole) == text_of(published)
        assert sorted(state_seqs(whole)) == state_seqs(published)
        if behind_after == 4:
            assert len(whole) < len(published)  # its deltas were merged
        # ...another is cut off again and again, and each time resumes where it was.
        pieces: list[Event] = []
        cuts = 0
        async with server.client() as cut_off:
            while not pieces or pieces[-1].seq != end:
                pieces += await read(cut_off, cut_off.last_event_id, count=7, last=end)
                cuts += 1
        assert text_of(pieces) == text_of(published)
        assert sorted(state_seqs(pieces)) == state_seqs(published)
        assert len({e.seq for e in pieces}) == len(pieces)  # no event came twice
        assert cuts > 3


async def test_a_disconnect_while_agents_stream_resumes_exactly() -> None:
    async with served_runtime(STREAMS) as server, server.client() as client:
        everything = server.runtime.subscribe(maxsize=None)
        ids = await start_all(server, client)
        got = await read(client, 0, count=25)  # cut off mid-run
        got += await read(client, client.last_event_id, count=40)
        reader = EventReader(client, since=client.last_event_id)
        for agent_id in ids:
            if not any(status(agent_id, "completed")(e) for e in got):
                await reader.until(status(agent_id, "completed"))
        got += reader.events
        await reader.aclose()
        server.events.catch_up()
        published = [e for e in everything.drain() if e.seq <= got[-1].seq]
        assert text_of(got) == text_of(published)
        assert sorted(state_seqs(got)) == state_seqs(published)
        assert len({e.seq for e in got}) == len(got)


async def test_a_client_that_fell_behind_gets_deltas_merged_and_every_state_event() -> None:
    async with served_runtime(STREAMS) as server, server.client() as client:
        published = await run_to_the_end(server, client)
        assert len(published) > 512  # more than a client may fall behind before merging
        # It connects after the run: behind by all of it.
        caught_up = await read(client, 0, last=published[-1].seq)
        assert len(caught_up) < len(published) // 2
        assert text_of(caught_up) == text_of(published)
        assert sorted(state_seqs(caught_up)) == state_seqs(published)
        for agent_id in {e.agent_id for e in published}:
            mine = [e.seq for e in caught_up if e.agent_id == agent_id]
            assert mine == sorted(mine)  # each agent's order kept


async def test_heartbeats_keep_an_idle_stream_alive() -> None:
    async with served_runtime(heartbeat_s=0.05) as server:
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with (
            httpx2.AsyncClient(base_url=server.base_url, headers=headers) as http,
            http.stream("GET", "/events") as response,
        ):
            assert response.headers["content-type"].startswith("text/event-stream")
            comments = 0
            with anyio.fail_after(FAIL_AFTER_S):
                async for line in response.aiter_lines():
                    if line.startswith(":"):
                        comments += 1
                        if comments == 2:
                            break


async def test_each_message_is_the_events_json_with_a_watermark_id() -> None:
    async with served_runtime(Turn(text="hello")) as server, server.client() as client:
        agent_id = await client.start("greet")
        reader = EventReader(client)
        await reader.until(status(agent_id, "completed"))
        await reader.aclose()
        headers = {"Authorization": f"Bearer {TOKEN}"}
        async with httpx2.AsyncClient(base_url=server.base_url, headers=headers) as http:
            messages = []
            async with http.sse("/events", timeout=FAIL_AFTER_S) as source:
                async for message in source:
                    messages.append(message)
                    if parse_event(message.data).seq == reader.events[-1].seq:
                        break
        assert [int(m.id) for m in messages] == [e.seq for e in reader.events]
        assert [parse_event(m.data) for m in messages] == reader.events


async def test_a_client_that_takes_no_data_is_dropped() -> None:
    """The app's own side of it: a `send` that never completes (a client that stopped reading
    fills the socket, then every write waits) ends the response instead of waiting forever."""
    runtime = Runtime(ScriptedProvider(Script.for_all(Turn(text="x"))), clock=FrozenClock())
    log = EventLog([IterationStarted(seq=1, ts=0.0, agent_id="a1", iteration=1)])  # stays open
    app = create_app(runtime, log, ServerOptions(token=TOKEN, send_timeout_s=0.05))
    scope = {
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
    never = anyio.Event()
    sent: list[str] = []

    async def send(message: dict[str, Any]) -> None:
        sent.append(message["type"])
        if message["type"] == "http.response.body":
            await never.wait()  # the client reads nothing

    asked: list[int] = []

    async def receive() -> dict[str, Any]:
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await never.wait()  # nor does it leave
        raise AssertionError("unreachable")

    with anyio.fail_after(FAIL_AFTER_S):
        await app(scope, receive, send)  # type: ignore[arg-type]
    assert sent == ["http.response.start", "http.response.body"]
