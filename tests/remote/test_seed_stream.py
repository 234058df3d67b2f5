"""`GET /agent/stream?format=seed`: the seed's chunks (core/remote/seed_stream.py), read by a
client written only from the seed (seed_client.py)."""

from __future__ import annotations

import httpx2
import pytest

from .seed_client import read_seed_stream
from .server_fixture import TOKEN, served_runtime
from .test_seed_endpoints import forking_runtime

pytestmark = pytest.mark.anyio


async def test_a_client_written_from_the_seed_reads_a_task_with_its_subagent() -> None:
    async with served_runtime(runtime=forking_runtime()) as server:
        run = await read_seed_stream(server.base_url, TOKEN, "find it")
    # The subagent answers while its parent waits on it, then the parent answers.
    assert run.text == "found itall done"
    assert run.states["a1"]["status"] == "completed"
    assert run.states["a2"] == {
        "agentId": "a2",
        "parentId": "a1",
        "status": "completed",
        "previousStatus": "running",
        "name": "main.1",
        "userContent": "look it up",
        "reason": run.states["a2"]["reason"],
    }
    assert [(c["agentId"], c["toolName"]) for c in run.tool_calls] == [
        ("a1", "fork"),
        ("a1", "wait"),
    ]
    assert run.tool_calls[0]["args"] == {"prompt": "look it up"}
    results = [c for c in run.other if c["type"] == "tool-result"]
    assert [(c["toolCallId"], c["isError"]) for c in results] == [
        (call["toolCallId"], False) for call in run.tool_calls
    ]


async def test_a_seed_stream_resumed_after_a_drop_loses_and_doubles_nothing() -> None:
    async with served_runtime(runtime=forking_runtime()) as server:
        first = await read_seed_stream(server.base_url, TOKEN, "find it", stop_after=3)
        rest = await read_seed_stream(
            server.base_url, TOKEN, "find it", last_event_id=first.ids[-1]
        )
    assert first.text + rest.text == "found itall done"
    assert [c["toolName"] for c in first.tool_calls + rest.tool_calls] == ["fork", "wait"]
    ids = first.ids + rest.ids
    assert len(set(ids)) == len(ids)  # no message twice
    assert rest.states["a1"]["status"] == "completed"


async def test_an_unknown_stream_format_is_refused_in_one_sentence() -> None:
    async with (
        served_runtime(runtime=forking_runtime()) as server,
        httpx2.AsyncClient(base_url=server.base_url) as http,
    ):
        response = await http.get(
            "/agent/stream",
            params={"prompt": "find it", "format": "ai-sdk"},
            headers={"Authorization": f"Bearer {TOKEN}"},
        )
    assert response.status_code == 422
    assert response.json()["error"].startswith("query format:")
