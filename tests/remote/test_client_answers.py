"""What the client makes of answers that are not a plain success: another program on the port,
a gateway's error page, a redirect, an older server's `/info`, a newer server's events, a
malformed event. Always RemoteError with the HTTP status and one sentence (or RemoteUnavailable
without an answer), never a parser's traceback."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
)

from agentui.core.remote.client import RemoteClient, RemoteError, UnreadableEvent
from agentui.core.support.errors import AgentUIError

from .answering_server import answering
from .event_reader import FAIL_AFTER_S
from .server_fixture import TOKEN, served_runtime

pytestmark = pytest.mark.anyio

GATEWAY = HTMLResponse("<html><body>502 Bad Gateway</body></html>", status_code=502)


def sse(*messages: tuple[str, dict[str, object] | str]) -> Response:
    body = "".join(
        f"id: {ident}\ndata: {data if isinstance(data, str) else json.dumps(data)}\n\n"
        for ident, data in messages
    )
    return Response(body, media_type="text/event-stream")


def delta(seq: int, text: str) -> dict[str, object]:
    return {
        "type": "text:delta",
        "seq": seq,
        "ts": 0.0,
        "agent_id": "a1",
        "iteration": 1,
        "delta": text,
    }


@contextmanager
def python_http_server(directory: Path) -> Iterator[str]:
    """`python -m http.server` on 127.0.0.1, in a thread: a real program that is not agentui."""
    handler = partial(SimpleHTTPRequestHandler, directory=str(directory))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()


async def read_all(client: RemoteClient) -> list[object]:
    return [event async for event in client.events(0)]


async def test_another_program_on_the_port_is_named_not_parsed(tmp_path: Path) -> None:
    (tmp_path / "info").write_text("<h1>not json</h1>")
    with python_http_server(tmp_path) as url:
        async with RemoteClient(url, TOKEN, timeout=FAIL_AFTER_S) as client:
            with pytest.raises(RemoteError) as found:
                await client.info()  # 200, but a file of text
            assert found.value.status == 200
            assert found.value.message.startswith(f"{url} is not an agentui server (HTTP 200, ")
            with pytest.raises(RemoteError) as missing:
                await read_all(client)
            assert missing.value.status == 404
            assert missing.value.message == f"{url} is not an agentui server (HTTP 404, text/html)"
            with pytest.raises(RemoteError) as posted:
                await client.pause("a1")
            assert posted.value.status == 501  # http.server has no POST


async def test_a_gateways_page_a_redirect_and_a_foreign_json_are_refusals_with_a_status() -> None:
    answers = {
        "/info": GATEWAY,
        "/events": RedirectResponse("https://elsewhere.example/events", status_code=302),
        "/agent/tree": JSONResponse([1, 2, 3]),
        "/tasks": JSONResponse({"id": 7}),
        "/agent/a1/pause": PlainTextResponse("Internal Server Error", status_code=500),
    }
    async with answering(answers) as url, RemoteClient(url, TOKEN) as client:
        with pytest.raises(RemoteError) as gateway:
            await client.info()
        assert (gateway.value.status, gateway.value.message) == (
            502,
            f"{url} is not an agentui server (HTTP 502, text/html)",
        )
        with pytest.raises(RemoteError) as redirect:
            await read_all(client)
        assert redirect.value.status == 302
        assert "a redirect to https://elsewhere.example/events" in redirect.value.message
        with pytest.raises(RemoteError, match="not an agentui server") as tree:
            await client.tree()
        assert tree.value.status == 200
        with pytest.raises(RemoteError, match="not an agentui server"):
            await client.start("x")
        with pytest.raises(RemoteError) as failed:
            await client.pause("a1")
        assert failed.value.status == 500


async def test_an_older_servers_info_reads_with_defaults() -> None:
    oldest = {"version": "0.1", "provider": "scripted", "model": "m", "last_seq": 4}
    newer = oldest | {"heartbeat_s": 5.0, "colour": "teal"}  # a field this agentui lacks
    async with answering({"/info": JSONResponse(oldest)}) as url, RemoteClient(url, TOKEN) as c:
        info = await c.info()
    assert (info.last_seq, info.heartbeat_s, info.narrator, info.session_id) == (
        4,
        15.0,
        False,
        None,
    )
    async with answering({"/info": JSONResponse(newer)}) as url, RemoteClient(url, TOKEN) as c:
        assert (await c.info()).heartbeat_s == 5.0


async def test_a_newer_servers_events_are_skipped_and_counted() -> None:
    stream = sse(
        ("1", delta(1, "a")),
        ("2", {"type": "hologram:shown", "seq": 2, "ts": 0.0, "agent_id": "a1"}),
        ("3", {"type": "hologram:shown", "seq": 3, "ts": 0.0, "agent_id": "a1", "x": [1]}),
        ("4", {"type": "sound:played", "seq": 4, "ts": 0.0, "agent_id": "a1"}),
        ("5", delta(5, "b")),
    )
    async with answering({"/events": stream}) as url, RemoteClient(url, TOKEN) as client:
        events = await read_all(client)
    assert [event.seq for event in events] == [1, 5]  # type: ignore[attr-defined]
    assert client.skipped_events == 3
    assert client.unknown_types == {"hologram:shown", "sound:played"}
    assert client.last_event_id == 5  # the skipped ones are behind the watermark too


@pytest.mark.parametrize(
    "data",
    [
        json.dumps({"type": "text:delta", "seq": 2, "ts": 0.0, "agent_id": "a1"}),  # no delta
        "{not json",
        json.dumps(["text:delta"]),
        json.dumps({"seq": 2}),
    ],
    ids=["known-type-missing-field", "not-json", "not-an-object", "no-type"],
)
async def test_a_malformed_event_is_an_error(data: str) -> None:
    stream = sse(("1", delta(1, "a")), ("2", data))
    async with answering({"/events": stream}) as url, RemoteClient(url, TOKEN) as client:
        received = []
        with pytest.raises(UnreadableEvent) as unreadable:
            async for event in client.events(0):
                received.append(event)
    assert len(received) == 1 and unreadable.value.status == 200
    assert unreadable.value.message.startswith(f"{url} sent ")
    assert "\n" not in unreadable.value.message


async def test_set_token_replaces_the_token() -> None:
    async with served_runtime() as server, server.client() as client:
        client.set_token("an-old-token-from-before-a-restart")
        with pytest.raises(RemoteError) as refused:
            await client.info()
        assert refused.value.status == 401
        client.set_token(server.token)
        assert (await client.info()).last_seq == 0
        with pytest.raises(AgentUIError, match="one word"):
            client.set_token("two words")


async def test_an_id_with_a_slash_names_nothing_and_sends_nothing() -> None:
    async with served_runtime() as server, server.client() as client:
        for bad in ("a1/pause", "..", ""):
            with pytest.raises(RemoteError) as refused:
                await client.pause(bad)
            assert (refused.value.status, refused.value.message) == (
                404,
                f"no agent with id {bad!r}",
            )
        with pytest.raises(RemoteError, match="no query with id 'q1/x'"):
            await client.answer("q1/x", "yes")
        with pytest.raises(RemoteError) as unknown:  # an odd id that is a segment goes as one
            await client.agent("a 1?%")
        assert (unknown.value.status, unknown.value.message) == (404, "Not found")
