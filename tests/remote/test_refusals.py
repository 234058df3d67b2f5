"""What the server refuses: unknown ids 404, commands that do not apply now 409, bad bodies
400 or 422, bodies over 1 MiB 413; always `{"error": "<one sentence>"}`, never a 500. An
intervention is refused whole: nothing of a refused one is done."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import httpx2
import pytest

from agentui.core.providers.scripted.script import Turn
from agentui.core.remote.client import RemoteError

from .event_reader import EventReader, of_type, status
from .server_fixture import TOKEN, served_runtime

pytestmark = pytest.mark.anyio

JSON = {"Content-Type": "application/json"}

# (method, path, raw body, expected status); a1 has completed, a9 and q9 do not exist.
BAD_REQUESTS: list[tuple[str, str, str | None, int]] = [
    ("POST", "/tasks", "{not json", 400),
    ("POST", "/tasks", "[1, 2]", 422),
    ("POST", "/tasks", '{"task": 3}', 422),
    ("POST", "/tasks", '{"task": "   "}', 422),
    ("POST", "/tasks", '{"task": "x", "colour": "red"}', 422),
    ("POST", "/tasks", None, 422),
    ("POST", "/tasks", '{"task": "x", "profile": "no-such-profile"}', 422),
    ("POST", "/agent/a9/pause", None, 404),
    ("POST", "/agent/a9/resume", "{}", 404),
    ("POST", "/agent/a9/cancel", '{"reason": "x"}', 404),
    ("POST", "/agent/a9/delete", None, 404),
    ("POST", "/agent/a9/modify", '{"content": "x"}', 404),
    ("POST", "/agent/a9/steer", '{"text": "x"}', 404),
    ("POST", "/agent/a9/send", '{"text": "x"}', 404),
    ("POST", "/agent/a9/intervene", '{"userComment": "delete"}', 404),
    ("GET", "/agent/a9", None, 404),
    ("POST", "/queries/q9/answer", '{"text": "x"}', 404),
    ("POST", "/queries/q9/approval", '{"choice": "once"}', 404),
    ("POST", "/queries/q9/approval", '{"choice": "perhaps"}', 422),
    ("POST", "/queries/q9/answer", "{}", 422),
    ("POST", "/agent/a1/pause", None, 409),
    ("POST", "/agent/a1/pause", '{"subtree": "sometimes"}', 422),
    ("POST", "/agent/a1/resume", None, 409),
    ("POST", "/agent/a1/cancel", None, 409),
    ("POST", "/agent/a1/modify", "{}", 422),
    ("POST", "/agent/a1/modify", '{"content": "x"}', 409),
    ("POST", "/agent/a1/steer", '{"text": "x"}', 409),
    ("POST", "/agent/a1/steer", '{"text": 5}', 422),
    ("POST", "/agent/a1/intervene", '{"userComment": "modify"}', 422),
    ("POST", "/agent/a1/intervene", '{"status": "completed"}', 422),
    ("POST", "/agent/a1/intervene", '{"status": "paused"}', 409),
    ("POST", "/agent/a1/intervene", '{"userContent": "x"}', 422),
    ("POST", "/agent/a1/intervene", '{"userComment": "a note"}', 409),
    ("GET", "/events?since=-1", None, 422),
    ("GET", "/events?since=soon", None, 422),
    ("GET", "/agent/stream", None, 422),
    ("GET", "/agent/stream?prompt=", None, 422),
    ("GET", "/nowhere", None, 404),
    ("DELETE", "/tasks", None, 405),
]


@pytest.fixture
async def finished_server() -> Any:
    """A server whose one agent, a1, has completed."""
    async with served_runtime(Turn(text="done")) as server, server.client() as client:
        agent_id = await client.start("finish")
        reader = EventReader(client)
        await reader.until(status(agent_id, "completed"))
        await reader.aclose()
        yield server


async def test_bad_requests_get_a_clear_4xx(finished_server: Any) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx2.AsyncClient(base_url=finished_server.base_url, headers=headers) as http:
        for method, path, body, expected in BAD_REQUESTS:
            response = await http.request(method, path, content=body, headers=JSON)
            what = f"{method} {path} {body}"
            assert response.status_code == expected, (what, response.text)
            error = response.json()["error"]
            assert isinstance(error, str) and error.strip(), what
            assert "\n" not in error, what
        # A bad Last-Event-ID is the client's mistake too.
        response = await http.get("/events", headers={"Last-Event-ID": "yesterday"})
        assert response.status_code == 400
        assert "Last-Event-ID" in response.json()["error"]
    assert finished_server.runtime.node("a1").status == "completed"  # nothing was changed


async def test_the_client_raises_the_servers_reason(finished_server: Any) -> None:
    async with finished_server.client() as client:
        with pytest.raises(RemoteError) as refused:
            await client.pause("a1")
        assert refused.value.status == 409
        assert refused.value.message == "cannot pause main: it is completed"
        with pytest.raises(RemoteError) as unknown:
            await client.steer("a9", "hello")
        assert (unknown.value.status, unknown.value.message) == (404, "no agent with id 'a9'")
        with pytest.raises(RemoteError) as declined:
            await client.answer("q9", None)
        assert declined.value.status == 404


@pytest.mark.parametrize("body", ["[1, 2]", '"plan a party"', "3", "null"])
async def test_a_body_that_is_not_an_object_is_named_so(finished_server: Any, body: str) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"} | JSON
    async with httpx2.AsyncClient(base_url=finished_server.base_url, headers=headers) as http:
        for path in ("/tasks", "/agent/a1/steer", "/agent/a1/intervene"):
            response = await http.post(path, content=body)
            assert response.status_code == 422, (path, response.text)
            assert response.json() == {"error": "the body must be a JSON object"}, path


async def test_a_body_over_one_mebibyte_is_refused_unread(finished_server: Any) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"} | JSON
    task = '{"task": "' + "x" * (1 << 20) + '"}'

    async def in_chunks() -> AsyncIterator[bytes]:  # no Content-Length: counted as it comes
        for start in range(0, len(task), 1 << 16):
            yield task[start : start + (1 << 16)].encode()

    async with httpx2.AsyncClient(base_url=finished_server.base_url, headers=headers) as http:
        for content in (task, in_chunks()):
            response = await http.post("/tasks", content=content)
            assert response.status_code == 413
            assert response.json() == {"error": "the request body is too large (at most 1 MiB)"}
        fits = await http.post("/tasks", json={"task": "y" * 1000})
        assert fits.status_code == 200
    assert [node["task"][:1] for node in finished_server.runtime.snapshot()["agents"].values()] == [
        "f",
        "y",
    ]


HANGS = Turn(text="working on it", hang_after_chunks=1)
CONTRADICTIONS = [
    ({"userComment": "prefer trains", "status": "completed"}, "body status: Input should be"),
    ({"userComment": "delete", "status": "paused"}, "a delete ends the agent"),
    ({"userComment": "prefer trains", "status": "deleted"}, "status 'deleted' deletes the agent"),
    ({"userComment": "modify", "userContent": "new", "status": "sleeping"}, "body status"),
    ({"userComment": "prefer trains", "userContent": "new"}, "userContent goes with"),
    ({"userComment": "modify"}, "needs userContent"),
    ({"status": "modified"}, "status 'modified' goes with userComment 'modify'"),
    ({"userComment": "   ", "status": "paused"}, "userComment is empty"),
]


async def test_a_refused_intervention_changes_nothing() -> None:
    async with (
        served_runtime(HANGS) as server,
        server.client() as client,
        httpx2.AsyncClient(
            base_url=server.base_url, headers={"Authorization": f"Bearer {TOKEN}"}
        ) as http,
    ):
        agent_id = await client.start("work")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        server.events.catch_up()
        before = server.events.last_seq
        for body, reason in CONTRADICTIONS:
            response = await http.post(f"/agent/{agent_id}/intervene", json=body)
            assert response.status_code == 422, body
            assert reason in response.json()["error"], (body, response.text)
        server.events.catch_up()
        assert server.events.last_seq == before  # not one event: nothing was done
        agent = (await client.tree())[agent_id]
        assert (agent["status"], agent["userComment"], agent["userContent"]) == (
            "running",
            "unchanged",
            "work",
        )
        await reader.aclose()


async def test_an_intervention_on_an_ended_agent_is_refused_before_anything(
    finished_server: Any,
) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}"}
    async with httpx2.AsyncClient(base_url=finished_server.base_url, headers=headers) as http:
        finished_server.events.catch_up()
        before = finished_server.events.last_seq
        body = {"userComment": "modify", "userContent": "again", "status": "running"}
        response = await http.post("/agent/a1/intervene", json=body)
        assert response.status_code == 409
        assert response.json() == {"error": "cannot modify main: it is completed"}
        finished_server.events.catch_up()
        assert finished_server.events.last_seq == before
    assert finished_server.runtime.node("a1").user_content is None
