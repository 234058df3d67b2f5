"""`agentui acp` end to end: the real command in a child process, driven by the ACP SDK's own
client side over stdio, on the offline scripted model with zero pace."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anyio
import pytest

from .acp_client import RecordingClient, agentui_acp, forms, sessions_dir

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

TASK = "Plan a trip to Lisbon"
ROOT = "a1"  # agent ids are deterministic: the root is the first agent of a new session


def script(home: Path, text: str) -> str:
    path = home / "script.toml"
    home.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return str(path)


# A root that forks a subagent and waits for it; the subagent streams a little and hangs, so
# both are at work when the client cancels.
FORK_AND_HANG = """
[[agents.main]]
text = "Splitting the work."
tool_calls = [
    { name = "fork", arguments = { prompt = "Dig into the details" } },
    { name = "wait", arguments = { handle = "a2" } },
]

[[agents."main.1"]]
text = "digging through the details"
hang_after_chunks = 1
"""
WAIT_CALL = "toolu_0002"  # the scripted model numbers its calls: fork, then wait


def meta(update: dict[str, Any]) -> dict[str, Any]:
    return update["_meta"]["agentui"]


def final_plan(client: RecordingClient) -> list[dict[str, Any]]:
    return client.of_kind("plan")[-1]["entries"]


async def test_a_prompt_shows_its_subagents_its_approval_and_its_question(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    from acp import text_block

    client = RecordingClient(choices=["once"], answers=["museums"])
    async with agentui_acp(
        client, tmp_path, "--workflow", "six-step", capabilities=forms()
    ) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        assert session.modes is not None and session.modes.current_mode_id == "ask"
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block(TASK)])

    assert response.stop_reason == "end_turn"
    # The ACP session is the agentui session: same id, recorded as usual.
    assert (sessions_dir(tmp_path) / f"{session.session_id}.jsonl").is_file()
    assert client.of_kind("session_info_update")[0]["title"] == TASK

    # The root speaks for the session: its text and thinking, the workflow's steps.
    assert "museums" in client.text(), "the form's answer reached the agent"
    assert "[step 1 of 6: clarify]" in client.text("agent_thought_chunk")
    assert client.of_kind("user_message_chunk") == [], "live, the client shows its own prompt"

    # The clarifying question: a call of its own, answered through a form that points at it.
    ((message, form),) = client.forms
    question = client.call(form.tool_call_id or "")
    assert question[0]["sessionUpdate"] == "tool_call" and question[0]["kind"] == "think"
    assert message in question[0]["content"][0]["content"]["text"]
    assert client.statuses(form.tool_call_id or "") == ["pending", "completed"]
    assert form.requested_schema.required == ["answer"]

    # Each subagent is a tool call naming itself and its parent, its reply as content.
    subagents = [u for u in client.of_kind("tool_call") if u["toolCallId"].startswith("agent:")]
    assert [u["title"].split(":")[0] for u in subagents] == ["main.1", "main.2"]
    for start in subagents:
        assert start["kind"] == "think"
        assert meta(start)["parentId"] == ROOT
        assert start["toolCallId"] == f"agent:{meta(start)['agentId']}"
        assert client.statuses(start["toolCallId"]) == [
            "pending",
            "in_progress",
            "completed",
        ]
        ended = client.call(start["toolCallId"])[-1]
        assert "offline scripted model" in ended["content"][0]["content"]["text"]
    # The plan: one entry per subagent, all done, each naming its agent.
    entries = final_plan(client)
    assert [e["status"] for e in entries] == ["completed", "completed"]
    assert [meta(e)["agentId"] for e in entries] == [meta(s)["agentId"] for s in subagents]
    assert {e["status"] for u in client.of_kind("plan") for e in u["entries"]} == {
        "pending",
        "in_progress",
        "completed",
    }

    # The python call: pending with its code, a permission request with agentui's choices,
    # then it runs and completes with its output.
    ((asked, options),) = client.permissions
    assert [(o.option_id, o.kind) for o in options] == [
        ("once", "allow_once"),
        ("always", "allow_always"),
        ("reject", "reject_once"),
    ]
    python = client.call(asked.tool_call_id)
    assert python[0]["title"] == "python" and python[0]["kind"] == "execute"
    assert "```python" in python[0]["content"][0]["content"]["text"]
    assert meta(python[0])["agentId"] == ROOT and meta(python[0])["parentId"] is None
    assert client.statuses(asked.tool_call_id) == ["pending", "in_progress", "completed"]
    assert "words; the longest is" in python[-1]["rawOutput"]
    # Nothing but the protocol came over stdout.
    assert "Error parsing JSON-RPC message" not in caplog.text


async def test_without_forms_a_question_is_a_choice_and_yes_mode_asks_no_approval(
    tmp_path: Path,
) -> None:
    from acp import RequestError, text_block

    client = RecordingClient(choices=["proceed"])
    async with agentui_acp(client, tmp_path, "--workflow", "six-step") as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        await conn.set_session_mode(session_id=session.session_id, mode_id="yes")
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block(TASK)])
        with pytest.raises(RequestError):
            await conn.set_session_mode(session_id=session.session_id, mode_id="maybe")

    assert response.stop_reason == "end_turn"
    # The one request was the question (the python call ran without one, in "yes").
    ((asked, options),) = client.permissions
    assert asked.tool_call_id.startswith("question:")
    assert [o.option_id for o in options] == ["answer", "proceed", "stop"]
    # The request itself says what is asked: choices alone would not.
    question = client.call(asked.tool_call_id)[0]["rawInput"]["question"]
    assert asked.title is not None and asked.title.startswith("main asks: For")
    assert asked.content is not None
    assert asked.content[0].content.text == question  # type: ignore[union-attr]
    assert client.statuses(asked.tool_call_id)[-1] == "failed"  # declined: no answer
    assert "You left the focus to me" in client.text(), "the agent went on by itself"
    python = [u for u in client.of_kind("tool_call") if u["title"] == "python"]
    assert client.statuses(python[0]["toolCallId"])[-1] == "completed"


async def test_stop_the_task_at_a_question_cancels_the_prompt(tmp_path: Path) -> None:
    from acp import text_block

    client = RecordingClient(choices=["stop"])
    async with agentui_acp(client, tmp_path, "--workflow", "six-step") as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block(TASK)])
    assert response.stop_reason == "cancelled"
    ((asked, _options),) = client.permissions
    assert client.statuses(asked.tool_call_id) == ["pending", "failed"]
    assert client.of_kind("plan") == [], "it stopped before any subagent started"


async def test_cancel_stops_the_whole_tree_and_a_load_replays_and_continues(
    tmp_path: Path,
) -> None:
    from acp import RequestError, text_block
    from acp.schema import PromptResponse

    client = RecordingClient()
    hang = script(tmp_path / "first", FORK_AND_HANG)
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", hang) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        answer: dict[str, PromptResponse] = {}

        async def prompt() -> None:
            answer["response"] = await conn.prompt(
                session_id=session.session_id, prompt=[text_block("Research the venue")]
            )

        async with anyio.create_task_group() as running:
            running.start_soon(prompt)
            # Both at work: the subagent's call in progress, the root waiting for it.
            await client.wait_for(lambda c: "in_progress" in c.statuses("agent:a2"))
            await client.wait_for(lambda c: "in_progress" in c.statuses(f"{ROOT}:{WAIT_CALL}"))
            await conn.cancel(session_id=session.session_id)
        assert answer["response"].stop_reason == "cancelled"

    # The subagent's call failed, saying it was cancelled; its plan entry is done with; the
    # root's waiting call failed too.
    assert client.statuses("agent:a2")[-1] == "failed"
    assert "cancelled" in client.call("agent:a2")[-1]["content"][-1]["content"]["text"]
    assert [e["status"] for e in final_plan(client)] == ["completed"]
    assert client.statuses(f"{ROOT}:{WAIT_CALL}")[-1] == "failed"

    # A new agentui loads the session: everything replays, the person's prompt included ...
    replay = RecordingClient()
    goes_on = script(tmp_path / "second", '[[agents.main]]\ntext = "Picking up again."\n')
    async with agentui_acp(replay, tmp_path, "--workflow", "plain", "--script", goes_on) as conn:
        loaded = await conn.load_session(
            cwd=str(tmp_path), session_id=session.session_id, mcp_servers=[]
        )
        assert loaded is not None and loaded.modes is not None
        replayed = list(replay.updates)
        # ... and the next prompt continues the same root.
        response = await conn.prompt(
            session_id=session.session_id, prompt=[text_block("Go on, please")]
        )
        with pytest.raises(RequestError):
            await conn.load_session(cwd=str(tmp_path), session_id="no-such-id", mcp_servers=[])

    assert replayed[0] == {
        "sessionUpdate": "user_message_chunk",
        "content": {"type": "text", "text": "Research the venue"},
    }
    kinds = [u["sessionUpdate"] for u in replayed]
    assert {"tool_call", "tool_call_update", "plan", "agent_message_chunk"} <= set(kinds)
    assert replay.statuses("agent:a2")[-1] == "failed"
    assert replay.call("agent:a2")[0]["_meta"]["agentui"]["parentId"] == ROOT
    assert response.stop_reason == "end_turn"
    assert response.field_meta == {"agentui": {"rootId": ROOT, "status": "completed"}}
    assert replay.text().endswith("Picking up again.")
    assert replay.of_kind("plan")[-1]["entries"] == [], "the new turn's plan starts empty"


async def test_a_failed_root_answers_with_its_error(tmp_path: Path) -> None:
    from acp import RequestError, text_block

    client = RecordingClient()
    fails = script(tmp_path, '[[agents.main]]\nerror = { message = "the model is overloaded" }\n')
    async with agentui_acp(client, tmp_path, "--workflow", "plain", "--script", fails) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        with pytest.raises(RequestError) as failure:
            await conn.prompt(session_id=session.session_id, prompt=[text_block(TASK)])
        with pytest.raises(RequestError):  # nothing to work on
            await conn.prompt(session_id=session.session_id, prompt=[text_block("  ")])
    assert "overloaded" in str(failure.value)
    assert failure.value.data["kind"] == "provider"
