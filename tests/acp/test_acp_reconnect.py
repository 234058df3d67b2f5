"""A client that leaves after every turn and comes back with `session/load` (acpx does): a
question open when it left is still open, shown again, and its next prompt answers it; a
session created but never prompted loads in a new process; `session/list`, `session/resume`
and `session/close` as ACP defines them."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from .acp_client import RecordingClient, agentui_acp
from .test_acp_approvals import json_script, python

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

Agents = dict[str, list[dict[str, Any]]]

ASKS: dict[str, Any] = {
    "tool_calls": [{"name": "ask_user", "arguments": {"question": "Where, and what budget?"}}]
}
# The scripted model counts each agent's replies from the first in every process: the second
# process plays what comes after the question.
ASKING: Agents = {"main": [ASKS, {"text": "never reached in this process"}]}
AFTER_THE_ANSWER: Agents = {"main": [{"text": "Booked the offsite."}]}
RESOURCE_NOT_FOUND = -32002


def plain(tmp_path: Path, agents: Agents, name: str) -> list[str]:
    plays = json_script(tmp_path / name, agents)
    return ["--workflow", "plain", "--script", plays]


async def test_a_question_open_when_the_client_left_is_answered_by_its_next_prompt(
    tmp_path: Path,
) -> None:
    from acp import text_block

    first = RecordingClient(choices=["answer"])
    async with agentui_acp(first, tmp_path, *plain(tmp_path, ASKING, "one")) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        parked = await conn.prompt(session_id=session_id, prompt=[text_block("Plan an offsite")])
    assert parked.stop_reason == "end_turn"  # the client leaves with the question open

    again = RecordingClient()
    async with agentui_acp(again, tmp_path, *plain(tmp_path, AFTER_THE_ANSWER, "two")) as conn:
        await conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
        shown = again.text()
        assert "**main asks:** Where, and what budget?" in shown
        assert "still open when you left; your next prompt is the answer" in shown
        answered = await conn.prompt(session_id=session_id, prompt=[text_block("Lisbon, 2000")])
    assert answered.stop_reason == "end_turn"
    assert again.permissions == [], "the prompt answered it: nothing is asked again"
    said = again.text().removeprefix(shown)
    assert said.startswith("*(Your prompt answers main's open question.)*")
    assert said.endswith("Booked the offsite.")
    outputs = [u.get("rawOutput") for u in again.of_kind("tool_call_update")]
    assert "Lisbon, 2000" in outputs


async def test_a_session_never_prompted_loads_in_a_new_process(tmp_path: Path) -> None:
    from acp import RequestError, text_block

    args = plain(tmp_path, {"main": [{"text": "Hello."}]}, "s")
    async with agentui_acp(RecordingClient(), tmp_path, *args) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
    client = RecordingClient()
    async with agentui_acp(client, tmp_path, *args) as conn:
        await conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
        assert client.updates == [], "nothing to replay"
        response = await conn.prompt(session_id=session_id, prompt=[text_block("hi")])
        with pytest.raises(RequestError) as unknown:
            await conn.load_session(cwd=str(tmp_path), session_id="20990101T000000Z-0000")
    assert response.stop_reason == "end_turn"
    assert client.text() == "Hello."
    assert unknown.value.code == RESOURCE_NOT_FOUND
    assert (tmp_path / "data" / "sessions" / f"{session_id}.jsonl").is_file()


async def test_list_resume_and_close_as_acp_defines_them(tmp_path: Path) -> None:
    from acp import RequestError, text_block

    elsewhere = tmp_path / "elsewhere"
    args = plain(tmp_path, {"*": [python("print(1)"), {"text": "Done."}]}, "s")
    client = RecordingClient(choices=["once", "once"])
    async with agentui_acp(client, tmp_path, *args) as conn:
        worked = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        await conn.prompt(session_id=worked, prompt=[text_block("Count to one")])
        idle = (await conn.new_session(cwd=str(elsewhere), mcp_servers=[])).session_id
        here = (await conn.list_sessions(cwd=str(tmp_path))).sessions
        everywhere = (await conn.list_sessions()).sessions
        await conn.close_session(session_id=idle)
        with pytest.raises(RequestError) as closed:
            await conn.prompt(session_id=idle, prompt=[text_block("anyone?")])
    assert [(s.session_id, s.cwd, s.title) for s in here] == [
        (worked, str(tmp_path), "Count to one")
    ]
    assert {s.session_id for s in everywhere} == {worked, idle}
    assert all(s.updated_at and s.updated_at.endswith("Z") for s in everywhere)
    assert closed.value.code == RESOURCE_NOT_FOUND

    resumed = RecordingClient(choices=["once"])
    async with agentui_acp(resumed, tmp_path, *args) as conn:
        await conn.resume_session(cwd=str(tmp_path), session_id=worked, mcp_servers=[])
        assert resumed.updates == [], "session/resume replays nothing"
        response = await conn.prompt(session_id=worked, prompt=[text_block("again")])
    assert response.stop_reason == "end_turn"
    assert resumed.text() == "Done."


async def test_an_approval_open_when_the_client_left_is_asked_at_its_next_prompt(
    tmp_path: Path,
) -> None:
    from acp import text_block

    first = RecordingClient()  # holds the approval: the client leaves while it waits
    asking = plain(tmp_path, {"main": [python("print(6 * 7)"), {"text": "not here"}]}, "one")
    async with agentui_acp(first, tmp_path, *asking) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        async with anyio.create_task_group() as group:
            group.start_soon(conn.prompt, session_id, [text_block("Multiply")])
            await first.wait_for(lambda c: len(c.permissions) == 1)
            group.cancel_scope.cancel()

    again = RecordingClient(choices=["once"])
    async with agentui_acp(again, tmp_path, *plain(tmp_path, AFTER_THE_ANSWER, "two")) as conn:
        await conn.load_session(cwd=str(tmp_path), session_id=session_id, mcp_servers=[])
        assert again.permissions == [], "asked once a prompt runs"
        response = await conn.prompt(session_id=session_id, prompt=[text_block("go on")])
    assert response.stop_reason == "end_turn"
    ((asked, _),) = again.permissions
    assert asked.title == "python"
    assert "42\n" in [u.get("rawOutput") for u in again.of_kind("tool_call_update")]
    assert again.text().endswith("Booked the offsite.")
