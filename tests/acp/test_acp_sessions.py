"""`agentui acp` with more than one prompt or session at a time, and what a client asks at the
edges: two sessions run side by side, a session runs one prompt at a time (and is not reloaded
under it), the protocol version, a prompt with no text, and tool-call ids that stay unique when
a loaded session goes on in a new process."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from .acp_client import RecordingClient, agentui_acp
from .test_acp_approvals import json_script, python, python_calls

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

INVALID_REQUEST, INVALID_PARAMS = -32600, -32602


async def test_two_sessions_run_at_once_and_each_runs_one_prompt_at_a_time(
    tmp_path: Path,
) -> None:
    from acp import RequestError, text_block
    from acp.schema import PromptResponse

    plays = json_script(tmp_path, {"*": [python("print('ran')"), {"text": "Finished."}]})
    client = RecordingClient()  # holds every permission request
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", plays) as conn:
        first = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        second = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        assert first != second
        answers: dict[str, PromptResponse] = {}
        answered = {first: anyio.Event(), second: anyio.Event()}

        async def prompt(session_id: str) -> None:
            answers[session_id] = await conn.prompt(
                session_id=session_id, prompt=[text_block("go")]
            )
            answered[session_id].set()

        async with anyio.create_task_group() as group:
            group.start_soon(prompt, first)
            group.start_soon(prompt, second)
            await client.wait_for(lambda c: len(c.permissions) == 2)  # both at work
            with pytest.raises(RequestError) as busy:
                await conn.prompt(session_id=first, prompt=[text_block("and this")])
            assert busy.value.code == INVALID_REQUEST
            with pytest.raises(RequestError) as reloaded:
                await conn.load_session(cwd=str(tmp_path), session_id=first, mcp_servers=[])
            assert reloaded.value.code == INVALID_REQUEST
            assert "running a prompt" in str(reloaded.value.data)

            await conn.cancel(session_id=first)
            await answered[first].wait()
            assert second not in answers, "a cancel is its session's alone"
            # Both requests are still held here (the first one's question is withdrawn).
            client.answer_held("once", "once")
        assert answers[first].stop_reason == "cancelled"
        assert answers[second].stop_reason == "end_turn"

    by_session = {
        session_id: [
            u["status"]
            for u, of in zip(client.updates, client.session_ids, strict=True)
            if of == session_id and u.get("toolCallId") == "a1:toolu_0001" and "status" in u
        ]
        for session_id in (first, second)
    }
    assert by_session[first][-1] == "failed"
    assert by_session[second][-1] == "completed"


async def test_the_protocol_version_and_a_prompt_with_nothing_to_read(tmp_path: Path) -> None:
    from acp import RequestError, image_block

    client = RecordingClient()
    async with agentui_acp(client, tmp_path, "--workflow", "plain") as conn:
        # ACP: the client's version when the agent has it, else the agent's latest.
        for asked in (1, 99, 0):
            assert (await conn.initialize(protocol_version=asked)).protocol_version == 1
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        with pytest.raises(RequestError) as imageless:
            await conn.prompt(
                session_id=session.session_id, prompt=[image_block("aGk=", "image/png")]
            )
        assert imageless.value.code == INVALID_PARAMS
    assert client.updates == [], "no agent started"


async def test_calls_of_a_loaded_session_keep_unique_ids_in_a_new_process(tmp_path: Path) -> None:
    # The scripted model numbers its calls from 1 in every process.
    from acp import text_block

    plays = json_script(tmp_path, {"*": [python("print(1)"), {"text": "Done."}]})
    args = ("--workflow", "plain", "--yes", "--script", plays)
    first = RecordingClient()
    async with agentui_acp(first, tmp_path, *args) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        await conn.prompt(session_id=session_id, prompt=[text_block("one")])
    loaded = RecordingClient()  # fails the test on a call created twice
    async with agentui_acp(loaded, tmp_path, *args) as conn:
        await conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
        response = await conn.prompt(session_id=session_id, prompt=[text_block("two")])
    assert response.stop_reason == "end_turn"
    assert python_calls(loaded) == ["a1:toolu_0001", "a1:toolu_0001~2"]
    assert loaded.statuses("a1:toolu_0001~2")[-1] == "completed"
