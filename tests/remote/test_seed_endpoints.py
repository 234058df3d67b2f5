"""The seed's four endpoints at the seed's paths, with its shapes: `GET /agent/stream?prompt=`,
`GET /agent/tree`, `GET /agent/{id}` (`{"error": "Not found"}` when unknown) and
`POST /agent/{id}/intervene` (`{"success": true}`)."""

from __future__ import annotations

from typing import Any

import httpx2
import pytest

from agentui.core.protocol.events import parse_event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry

from .event_reader import FAIL_AFTER_S, EventReader, of_type, status
from .server_fixture import TOKEN, served_runtime

pytestmark = pytest.mark.anyio

AUTH = {"Authorization": f"Bearer {TOKEN}"}
SEED_AGENT_KEYS = {
    "agentId", "parentId", "userContent", "userComment", "status", "subagents", "name", "task",
    "profile", "result", "error", "usage", "costUsd", "createdAt", "startedAt", "endedAt", "runs",
}  # fmt: skip
HANGS = Turn(text="working on it", hang_after_chunks=1)


def forking_runtime(root: str = "main", child: str = "a2") -> Runtime:
    """The root forks a subagent, waits for it, and answers; the subagent answers at once;
    an agent named "other" works until it is stopped."""
    fork = ScriptedToolCall(name="fork", arguments={"prompt": "look it up"})
    wait = ScriptedToolCall(name="wait", arguments={"handle": child})
    script = Script(
        agents={
            root: [Turn(tool_calls=[fork, wait]), Turn(text="all done")],
            f"{root}.1": [Turn(text="found it")],
            "other": [HANGS],
        }
    )
    tools = ToolRegistry([FORK, WAIT])
    return Runtime(ScriptedProvider(script), tools=tools, clock=FrozenClock())


async def test_agent_stream_starts_a_task_and_streams_its_subtree_to_the_end() -> None:
    runtime = forking_runtime("main-2", "a3")  # the second root is main-2
    async with served_runtime(runtime=runtime) as server:
        runtime.start("unrelated", name="other")  # a1: its events are not the stream's
        async with httpx2.AsyncClient(base_url=server.base_url, headers=AUTH) as http:
            events = []
            async with http.sse(
                "/agent/stream", params={"prompt": "find it"}, timeout=FAIL_AFTER_S
            ) as source:
                async for message in source:
                    events.append(parse_event(message.data))
        agents = {event.agent_id for event in events}
        assert agents == {"a2", "a3"}  # main-2 (a2) and its subagent main-2.1 (a3)
        assert events[0].type == "agent:spawned" and events[0].agent_id == "a2"
        last = events[-1]
        assert (last.type, last.agent_id, last.new) == ("agent:status", "a2", "completed")  # type: ignore[attr-defined]
        text = "".join(e.delta for e in events if e.type == "text:delta" and e.agent_id == "a3")  # type: ignore[attr-defined]
        assert text == "found it"
        assert [e.seq for e in events] == sorted(e.seq for e in events)


async def test_agent_tree_and_agent_have_the_seeds_shapes() -> None:
    async with served_runtime(runtime=forking_runtime()) as server, server.client() as client:
        root = await client.start("find it")
        reader = EventReader(client)
        await reader.until(status(root, "completed"))
        tree = await client.tree()
        assert set(tree) == {"a1", "a2"}
        for agent_id, agent in tree.items():
            assert set(agent) == SEED_AGENT_KEYS
            assert agent["agentId"] == agent_id
        assert tree["a1"]["subagents"] == ["a2"] and tree["a2"]["parentId"] == "a1"
        assert (tree["a1"]["userContent"], tree["a1"]["userComment"]) == ("find it", "unchanged")
        assert tree["a1"]["status"] == "completed"
        one = await client.agent("a2")
        assert set(one) == SEED_AGENT_KEYS | {"instructions", "messages"}
        assert [m["role"] for m in one["messages"]] == ["user", "assistant"]
        assert one["messages"][1]["content"][0]["text"] == "found it"
        async with httpx2.AsyncClient(base_url=server.base_url, headers=AUTH) as http:
            unknown = await http.get("/agent/a77")
        assert (unknown.status_code, unknown.json()) == (404, {"error": "Not found"})
        await reader.aclose()


async def intervene(http: httpx2.AsyncClient, agent_id: str, **body: Any) -> dict[str, Any]:
    response = await http.post(f"/agent/{agent_id}/intervene", json=body)
    assert response.status_code == 200, response.text
    result: dict[str, Any] = response.json()
    return result


async def test_intervene_pauses_comments_modifies_resumes_and_deletes() -> None:
    async with (
        served_runtime(HANGS) as server,
        server.client() as client,
        httpx2.AsyncClient(base_url=server.base_url, headers=AUTH) as http,
    ):
        agent_id = await client.start("first")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        assert await intervene(http, agent_id, status="paused") == {"success": True}
        await reader.until(status(agent_id, "paused"))
        await intervene(http, agent_id, userComment="prefer trains")
        steered = await reader.until(of_type("note:queued", agent_id))
        assert steered[0].text == "prefer trains"  # type: ignore[attr-defined]
        assert (await client.tree())[agent_id]["userComment"] == "prefer trains"
        await intervene(
            http, agent_id, userComment="modify", userContent="second", status="running"
        )
        modified = await reader.until(
            lambda e: e.type == "intervention:applied" and e.kind == "modify"  # type: ignore[attr-defined]
        )
        assert modified[0].content == "second"  # type: ignore[attr-defined]
        await reader.until(status(agent_id, "running"))
        tree = await client.tree()
        assert (tree[agent_id]["userContent"], tree[agent_id]["userComment"]) == (
            "second",
            "modify",
        )
        await intervene(http, agent_id, userComment="delete")
        await reader.until(status(agent_id, "deleted"))
        assert (await client.tree())[agent_id]["userComment"] == "delete"
        await reader.aclose()


async def test_intervene_cancels() -> None:
    async with served_runtime(HANGS) as server, server.client() as client:
        agent_id = await client.start("work")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        await client.intervene(agent_id, status="cancelled")
        await reader.until(status(agent_id, "cancelled"))
        await reader.aclose()


async def stream_messages(http: httpx2.AsyncClient, **headers: str) -> tuple[int, list[Any]]:
    """The status and every message of one `GET /agent/stream?prompt=find it`."""
    messages = []
    async with http.stream(
        "GET", "/agent/stream", params={"prompt": "find it"}, headers=headers, timeout=FAIL_AFTER_S
    ) as response:
        if response.status_code == 200:
            async for message in httpx2.EventSource(response):
                messages.append(message)
    return response.status_code, messages


async def test_a_reconnecting_event_source_resumes_the_stream_and_starts_nothing() -> None:
    async with (
        served_runtime(runtime=forking_runtime()) as server,
        httpx2.AsyncClient(base_url=server.base_url, headers=AUTH) as http,
    ):
        code, whole = await stream_messages(http)
        assert code == 200 and whole
        assert all(message.id.startswith("a1@") for message in whole)  # the agent it started
        # The stream ended; EventSource reconnects with the last id: told to stop.
        code, after_end = await stream_messages(http, **{"Last-Event-ID": whole[-1].id})
        assert (code, after_end) == (204, [])
        # A drop in the middle: the rest, each event once, up to the same end.
        middle = len(whole) // 2
        code, rest = await stream_messages(http, **{"Last-Event-ID": whole[middle].id})
        assert code == 200
        assert [(m.id, m.data) for m in rest] == [(m.id, m.data) for m in whole[middle + 1 :]]
        code, _ = await stream_messages(http, **{"Last-Event-ID": "12"})
        assert code == 400
        assert set(server.runtime.snapshot()["agents"]) == {"a1", "a2"}  # one task, started once


async def test_intervene_status_deleted_deletes() -> None:
    async with served_runtime(HANGS) as server, server.client() as client:
        agent_id = await client.start("work")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        await client.intervene(agent_id, user_comment="unchanged", status="deleted")
        await reader.until(status(agent_id, "deleted"))
        await reader.aclose()
