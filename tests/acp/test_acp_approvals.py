"""`agentui acp`'s permission requests answered every way a client can: reject, allow always,
the client's own "cancelled", and answers that are no answer (an error, or one that does not
fit the protocol), which reject the call or decline the question and never stall the prompt."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .acp_client import CANCELLED as CLIENT_CANCELLED
from .acp_client import MALFORMED, RecordingClient, agentui_acp, forms

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio


def python(code: str) -> dict[str, Any]:
    return {"text": "", "tool_calls": [{"name": "python", "arguments": {"code": code}}]}


def json_script(home: Path, agents: dict[str, list[dict[str, Any]]]) -> str:
    home.mkdir(parents=True, exist_ok=True)
    path = home / "script.json"
    path.write_text(json.dumps({"agents": agents}), encoding="utf-8")
    return str(path)


def python_calls(client: RecordingClient) -> list[str]:
    return [u["toolCallId"] for u in client.of_kind("tool_call") if u["title"] == "python"]


async def test_reject_cancelled_and_always_are_the_persons_choices(tmp_path: Path) -> None:
    from acp import text_block

    plays = json_script(
        tmp_path,
        {
            "main": [
                python("print('first')"),
                python("print('second')"),
                python("print('third')"),
                python("print('fourth')"),
                {"text": "Done."},
            ]
        },
    )
    client = RecordingClient(choices=["reject", CLIENT_CANCELLED, "always"])
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", plays) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    assert response.stop_reason == "end_turn"
    first, second, third, fourth = python_calls(client)
    # Rejected, and rejected when the client cancelled the request: neither ran.
    assert client.statuses(first) == ["pending", "failed"]
    assert client.statuses(second) == ["pending", "failed"]
    # Allowed always: it ran, and the next call of the tool asked nothing.
    assert client.statuses(third)[-1] == "completed"
    assert client.statuses(fourth)[-1] == "completed"
    assert [asked.tool_call_id for asked, _ in client.permissions] == [first, second, third]
    assert "fourth" in client.call(fourth)[-1]["rawOutput"]


async def test_an_approval_shows_the_question_and_keeps_the_code_as_code(tmp_path: Path) -> None:
    from acp import text_block

    plays = json_script(tmp_path, {"main": [python("print(42)"), {"text": "Done."}]})
    client = RecordingClient(choices=["once"])
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", plays) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
    ((asked, _options),) = client.permissions
    assert asked.content is not None
    texts = [block.content.text for block in asked.content]  # type: ignore[union-attr]
    assert texts[0].startswith("Allow python to run?")
    assert texts[-1] == "```python\nprint(42)\n```"


async def test_answers_that_are_no_answer_reject_or_decline_and_the_session_goes_on(
    tmp_path: Path,
) -> None:
    from acp import text_block

    asks = {"tool_calls": [{"name": "ask_user", "arguments": {"question": "Which colour?"}}]}
    plays = json_script(
        tmp_path,
        {"main": [python("print(1)"), {"text": "Done."}, asks, {"text": "Done again."}]},
    )
    client = RecordingClient(choices=[MALFORMED], answers=[MALFORMED])
    async with agentui_acp(
        client, tmp_path, "--workflow", "plain", "--script", plays, capabilities=forms()
    ) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        first = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        second = await conn.prompt(session_id=session.session_id, prompt=[text_block("ask")])
    assert (first.stop_reason, second.stop_reason) == ("end_turn", "end_turn")
    (call,) = python_calls(client)
    assert client.statuses(call) == ["pending", "failed"], "a malformed answer rejects"
    (question,) = [u for u in client.of_kind("tool_call") if u["title"] == "ask_user"]
    output = client.call(question["toolCallId"])[-1]["rawOutput"]
    assert "declined" in output, "a malformed form answer declines the question"
    assert client.text().endswith("Done again.")
    stderr = (tmp_path / "stderr.log").read_text()
    assert stderr.count("the client gave no answer") == 2
