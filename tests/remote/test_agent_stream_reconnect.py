"""`GET /agent/stream` across a network that drops, as a browser's EventSource meets it: a
reconnect with `Last-Event-ID` resumes the task's stream (no task started again, no text lost
or doubled), and one that saw no id yet, given the same `request_id`, streams the same task."""

from __future__ import annotations

from typing import Any

import anyio
import httpx2
import pytest

from agentui.core.protocol.events import Event, TextDelta, parse_event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .cuttable_proxy import CuttableProxy
from .event_reader import FAIL_AFTER_S
from .server_fixture import TOKEN, served_runtime

pytestmark = pytest.mark.anyio

AUTH = {"Authorization": f"Bearer {TOKEN}"}
TEXT = "Every word of this answer must arrive once, in order, across the drop. " * 4
CHUNKS = 40  # the agent streams this many chunks of TEXT, then works on until cancelled


def hanging_runtime() -> Runtime:
    script = Script.for_all(Turn(text=TEXT, hang_after_chunks=CHUNKS))
    return Runtime(ScriptedProvider(script), clock=FrozenClock())


def text_of(events: list[Event], agent_id: str) -> str:
    return "".join(e.delta for e in events if isinstance(e, TextDelta) and e.agent_id == agent_id)


async def read_until_cut(
    http: httpx2.AsyncClient, proxy: CuttableProxy, params: dict[str, str], cut_after: int
) -> list[Any]:
    """The messages of one `/agent/stream` until the proxy drops the connection, which it does
    once `cut_after` text deltas have come: what an EventSource saw before its reconnect."""
    seen: list[Any] = []
    with anyio.fail_after(FAIL_AFTER_S):
        try:
            async with http.sse("/agent/stream", params=params) as source:
                async for message in source:
                    seen.append(message)
                    if sum('"text:delta"' in m.data for m in seen) == cut_after:
                        proxy.cut()
        except httpx2.TransportError:
            pass  # the drop
    proxy.restore()
    return seen


async def read_to_the_end(
    http: httpx2.AsyncClient, params: dict[str, str], **headers: str
) -> tuple[int, list[Any]]:
    messages = []
    with anyio.fail_after(FAIL_AFTER_S):
        async with http.stream("GET", "/agent/stream", params=params, headers=headers) as answer:
            if answer.status_code == 200:
                async for message in httpx2.EventSource(answer):
                    messages.append(message)
    return answer.status_code, messages


async def test_a_reconnect_with_last_event_id_after_a_drop_starts_nothing_and_loses_no_text() -> (
    None
):
    runtime = hanging_runtime()
    async with served_runtime(runtime=runtime) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        published = runtime.subscribe(maxsize=None)
        async with (
            CuttableProxy(port) as proxy,
            httpx2.AsyncClient(base_url=proxy.url, headers=AUTH, timeout=FAIL_AFTER_S) as http,
        ):
            params = {"prompt": "explain"}
            before = await read_until_cut(http, proxy, params, cut_after=5)
            assert before[0].id.startswith("a1@") and '"agent:spawned"' in before[0].data

            async def cancel_once_streamed() -> None:
                # The agent has streamed all it will: cancelling ends its run, and the stream.
                with anyio.fail_after(FAIL_AFTER_S):
                    chunks = 0
                    while chunks < CHUNKS:
                        batch = await published.next_batch()
                        chunks += sum(isinstance(e, TextDelta) for e in batch)
                runtime.cancel("a1")

            async with anyio.create_task_group() as group:
                group.start_soon(cancel_once_streamed)
                code, after = await read_to_the_end(
                    http, params, **{"Last-Event-ID": before[-1].id}
                )
        assert code == 200
        received = [parse_event(m.data) for m in before + after]
        server.events.catch_up()
        logged = server.events.entries(0, len(server.events))  # what the agent did
        streamed = "".join(e.delta.text for e in logged if e.delta is not None)
        assert streamed == TEXT[: len(streamed)] and len(streamed) > 10
        assert text_of(received, "a1") == streamed  # every piece once, in order
        assert [e.seq for e in received] == [e.seq for e in logged]  # every event once
        assert received[-1].type == "agent:status" and received[-1].new == "cancelled"  # type: ignore[attr-defined]
        assert set(runtime.snapshot()["agents"]) == {"a1"}  # the task was started once


async def test_a_reconnect_that_saw_no_id_streams_the_task_its_request_id_started() -> None:
    script = Script.for_all(Turn(text=TEXT))
    runtime = Runtime(ScriptedProvider(script), clock=FrozenClock())
    async with served_runtime(runtime=runtime) as server:
        port = int(server.base_url.rsplit(":", 1)[1])
        async with (
            CuttableProxy(port) as proxy,
            httpx2.AsyncClient(base_url=proxy.url, headers=AUTH, timeout=FAIL_AFTER_S) as http,
        ):
            params = {"prompt": "explain", "request_id": "9b1d2c4e"}
            with anyio.fail_after(FAIL_AFTER_S):
                async with http.stream("GET", "/agent/stream", params=params) as answer:
                    assert answer.status_code == 200
                    proxy.cut()  # dropped before the client read any message
            proxy.restore()
            code, again = await read_to_the_end(http, params)  # EventSource: no id to send
            assert code == 200
            events = [parse_event(m.data) for m in again]
            assert events[0].type == "agent:spawned" and events[0].agent_id == "a1"
            assert all(m.id.startswith("a1@") for m in again)
            assert text_of(events, "a1") == TEXT
            assert events[-1].type == "agent:status" and events[-1].new == "completed"  # type: ignore[attr-defined]
            # Once more after the end, without an id: the whole stream again, nothing started.
            code, third = await read_to_the_end(http, params)
            assert [m.data for m in third] == [m.data for m in again]
            other = await http.get("/agent/stream", params={**params, "prompt": "another"})
            assert other.status_code == 409 and "started another task" in other.json()["error"]
        assert set(runtime.snapshot()["agents"]) == {"a1"}


def test_only_the_newest_requests_are_remembered_and_prompts_by_digest() -> None:
    from agentui.core.remote.request_starts import RequestStarts

    starts = RequestStarts(remembered=2)
    starts.remember("r1", "a1", "explain")
    starts.remember("r2", "a2", "summarise")
    assert starts.started("r1", "explain") == ("a1", True)
    assert starts.started("r1", "something else") == ("a1", False)
    starts.remember("r3", "a3", "x" * 100_000)
    assert starts.started("r1", "explain") is None, "the oldest is forgotten"
    assert starts.started("r3", "x" * 100_000) == ("a3", True)
