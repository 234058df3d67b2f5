"""The inbox over ACP (core/acp/inbox.py): `_agentui/inbox` notifications as the rows change,
the `_agentui/inbox` request, the capability that says so; and what a client that knows no
extension is shown of a budget's stop and of a stalled agent (core/acp/updates.py)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.acp.inbox import METHOD
from agentui.core.protocol import events as ev
from agentui.core.support.clock import FrozenClock

from .acp_client import TIMEOUT_S, RecordingClient, agentui_acp
from .test_acp_session import runtime_for

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

START = 1_767_225_600.0
ASKS = {"text": "", "tool_calls": [{"name": "ask_user", "arguments": {"question": "Which city?"}}]}


def inbox_notes(client: RecordingClient) -> list[list[dict[str, Any]]]:
    return [params["rows"] for method, params in client.notifications if method == METHOD]


async def test_the_client_is_told_each_change_of_the_inbox_and_can_read_it() -> None:
    from acp import text_block

    from agentui.core.acp.agent import AgentuiAgent
    from agentui.core.acp.modes import ASK
    from agentui.core.acp.session import AcpSession

    runtime = runtime_for({"main": [ASKS, {"text": "Oslo then."}]})
    assert isinstance(runtime.clock, FrozenClock)
    client = RecordingClient()  # holds the permission request: the question stays open
    agent = AgentuiAgent(lambda **_: runtime, None, mode=ASK)  # type: ignore[arg-type]
    session = AcpSession("s1", runtime, client, mode=ASK, forms=False)  # type: ignore[arg-type]
    agent._sessions["s1"] = session
    with anyio.fail_after(TIMEOUT_S):  # a failure guard only
        async with anyio.create_task_group() as group:
            await group.start(session.host)
            group.start_soon(session.prompt, [text_block("plan a trip")])
            await client.wait_for(lambda c: len(inbox_notes(c)) == 1)
            [[row]] = inbox_notes(client)
            assert (row["kind"], row["path"], row["text"]) == ("question", "main", "Which city?")
            assert client.notifications[0][1]["sessionId"] == "s1"
            runtime.clock.advance(30)
            read = await agent.ext_method(METHOD, {"sessionId": "s1"})
            assert read["rows"] == [{**row, "waited_s": 30.0}]
            runtime.answer(row["query_ids"][0], "Oslo")
            await client.wait_for(lambda c: len(inbox_notes(c)) == 2)
            assert inbox_notes(client)[-1] == []
            assert (await agent.ext_method(METHOD, {"sessionId": "s1"})) == {"rows": []}
            await session.close()
            group.cancel_scope.cancel()


async def test_the_extension_is_advertised_and_other_names_are_not_found() -> None:
    from acp import PROTOCOL_VERSION, RequestError

    from agentui.core.acp.agent import AgentuiAgent
    from agentui.core.acp.modes import ASK

    agent = AgentuiAgent(lambda **_: None, None, mode=ASK)  # type: ignore[arg-type]
    response = await agent.initialize(protocol_version=PROTOCOL_VERSION)
    wire = response.model_dump(mode="json", by_alias=True, exclude_none=True)
    assert wire["agentCapabilities"]["_meta"] == {"agentui": {"inbox": "_agentui/inbox"}}
    with pytest.raises(RequestError) as unknown:
        await agent.ext_method("agentui/elsewhere", {})
    assert unknown.value.code == -32601  # method not found
    with pytest.raises(RequestError) as no_session:
        await agent.ext_method(METHOD, {"sessionId": "nope"})
    assert no_session.value.code != -32601
    with pytest.raises(RequestError):
        await agent.ext_method(METHOD, {})


def translated(*events: ev.Event) -> list[dict[str, Any]]:
    from agentui.core.acp.updates import UpdateTranslator

    translator = UpdateTranslator()
    spawned = ev.AgentSpawned(seq=0, ts=START, agent_id="a1", parent_id=None, name="main", task="t")
    running = ev.StatusChanged(
        seq=0, ts=START, agent_id="a1", old="pending", new="running", reason=""
    )
    translator.apply(spawned)
    translator.apply(running)
    updates = [update for event in events for update in translator.apply(event)]
    assert translator.unfolded == set()
    return [u.model_dump(mode="json", by_alias=True, exclude_none=True) for u in updates]


def test_a_budget_stop_is_said_in_the_conversation() -> None:
    stop = ev.BudgetReached(
        seq=1,
        ts=START,
        agent_id="a1",
        measure="tokens",
        limit=5000,
        spent=5210,
        stopped_agent="a1",
        paused=["a1"],
    )
    [said] = translated(stop)
    assert said["sessionUpdate"] == "agent_message_chunk"
    text = said["content"]["text"]
    assert "**Budget reached** (main): 5.2k tok spent of 5k tok" in text
    assert "main is paused until its budget is raised or continued once" in text
    [went_on] = translated(ev.BudgetContinued(seq=2, ts=START, agent_id="a1"))
    assert went_on["sessionUpdate"] == "agent_thought_chunk"
    assert "goes on for one more step past its budget" in went_on["content"]["text"]


def test_a_stalled_agent_is_a_thought_line() -> None:
    stalled = ev.AgentStalled(seq=1, ts=START + 300, agent_id="a1", since=START, after_s=300)
    [said] = translated(stalled)
    assert said["sessionUpdate"] == "agent_thought_chunk"
    assert said["content"]["text"].strip() == "(main has said nothing for 5 min)"


async def test_an_editor_gets_the_inbox_over_stdio(tmp_path: Path) -> None:
    """`agentui acp` in a child process: the notification as the client's SDK hands it over
    (its name without the underscore), and the request the client sends."""
    from acp import text_block

    tmp_path.mkdir(parents=True, exist_ok=True)
    script = tmp_path / "script.json"
    script.write_text(json.dumps({"agents": {"main": [ASKS, {"text": "Done."}]}}))
    client = RecordingClient(choices=["answer"])  # "answer in my next prompt": the turn parks
    async with agentui_acp(
        client, tmp_path, "--workflow", "plain", "--script", str(script)
    ) as conn:
        session = await conn.new_session(cwd=str(tmp_path), mcp_servers=[])
        response = await conn.prompt(session_id=session.session_id, prompt=[text_block("go")])
        assert response.stop_reason == "end_turn"  # parked: the question waits for a prompt
        await client.wait_for(lambda c: len(inbox_notes(c)) >= 1)
        [row] = inbox_notes(client)[-1]
        assert (row["kind"], row["text"]) == ("question", "Which city?")
        read = await conn.ext_method(METHOD, {"sessionId": session.session_id})
        assert [r["id"] for r in read["rows"]] == [row["id"]]
        await conn.prompt(session_id=session.session_id, prompt=[text_block("Oslo")])
        await client.wait_for(lambda c: inbox_notes(c)[-1] == [])
