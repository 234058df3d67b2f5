"""Subagents as ACP child sessions, for a client that declares `subagents` at initialize
(the fields of @agentclientprotocol/sdk 2.4.0's schema, which the Python SDK has no model for):
each subagent is announced on its parent's session, speaks (text, tool calls, approvals) in its
own, reports its state there, exchanges its task and result with its parent as session
messages, and a `session/cancel` of its session cancels it alone. A client that does not
declare them still sees tool calls and a plan (test_acp_agent.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from ..forks import FORKS
from .acp_client import TIMEOUT_S, RecordingClient, child_env
from .test_acp_approvals import json_script, python

if TYPE_CHECKING:
    from acp.client.connection import ClientSideConnection
    from acp.connection import StreamEvent

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

ROOT, CHILD = "a1", "a2"
FORK_AND_WAIT = [
    {"name": "fork", "arguments": {"prompt": "Size it"}},
    {"name": "wait", "arguments": {"handle": CHILD}},
]


class Wire:
    """Every `session/update` the agent sent, as JSON, in order: those the SDK's client
    models refuse (subagent_update, session_message) too."""

    def __init__(self) -> None:
        self.updates: list[tuple[str, dict[str, Any]]] = []
        self.changed = anyio.Event()

    def observe(self, event: StreamEvent) -> None:
        from acp.connection import StreamDirection

        message = event.message
        if (
            event.direction is StreamDirection.INCOMING
            and message.get("method") == "session/update"
        ):
            params = message["params"]
            self.updates.append((params["sessionId"], params["update"]))
            self.changed.set()
            self.changed = anyio.Event()

    def of_kind(self, kind: str) -> list[tuple[str, dict[str, Any]]]:
        return [(sid, u) for sid, u in self.updates if u["sessionUpdate"] == kind]

    def states(self, child: str) -> list[str]:
        return [
            u["state"]["state"]
            + (f":{u['state']['stopReason']}" if "stopReason" in u["state"] else "")
            for _, u in self.of_kind("subagent_update")
            if u["sessionId"] == child and "state" in u
        ]


@asynccontextmanager
async def with_child_sessions(
    client: RecordingClient, wire: Wire, home: Path, *args: str
) -> AsyncIterator[ClientSideConnection]:
    from acp import PROTOCOL_VERSION, spawn_agent_process

    home.mkdir(parents=True, exist_ok=True)
    with (home / "stderr.log").open("ab") as stderr, anyio.fail_after(TIMEOUT_S):
        async with spawn_agent_process(
            client,
            *FORKS.command("module", "agentui.tui.cli.main", "acp", *args),
            env=child_env(home),
            cwd=home,
            transport_kwargs={"stderr": stderr},
            use_unstable_protocol=True,
            observers=[wire.observe],
        ) as (conn, _):
            # The SDK's ClientCapabilities drops `subagents`: initialize as it goes on the wire.
            await conn._conn.send_request(
                "initialize",
                {"protocolVersion": PROTOCOL_VERSION, "clientCapabilities": {"subagents": {}}},
            )
            yield conn
    assert client.problems == [], client.problems


async def test_a_subagent_speaks_and_asks_in_its_own_child_session(tmp_path: Path) -> None:
    from acp import text_block

    plays = json_script(
        tmp_path,
        {
            "main": [{"tool_calls": FORK_AND_WAIT}, {"text": "All done."}],
            "main.1": [python("print(3)"), {"text": "Sized."}],
        },
    )
    client, wire = RecordingClient(choices=["once"]), Wire()
    async with with_child_sessions(
        client, wire, tmp_path, "--workflow", "plain", "--script", plays
    ) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        response = await conn.prompt(session_id=session_id, prompt=[text_block("Paint it")])
    assert response.stop_reason == "end_turn"
    child = f"{session_id}~{CHILD}"
    (announced, *_) = [
        (sid, u) for sid, u in wire.of_kind("subagent_update") if u["sessionId"] == child
    ]
    assert announced == (
        session_id,
        {
            "sessionUpdate": "subagent_update",
            "sessionId": child,
            "title": "main.1",
            "description": "Size it",
            "capabilities": {"cancel": {}},
        },
    )
    first_of_child = next(i for i, (sid, _) in enumerate(wire.updates) if sid == child)
    assert wire.updates.index(announced) < first_of_child, "announced before its traffic"
    assert wire.states(child) == ["running", "requires_action", "running", "idle:end_turn"]
    # Its task from the parent, in its session; its result to the parent, in the parent's.
    messages = [
        (sid, u["senderSessionId"], u["content"][0]["text"])
        for sid, u in wire.of_kind("session_message")
    ]
    assert messages == [(child, session_id, "Size it"), (session_id, child, "Sized.")]
    # Its stream and its approval are its own session's; the root's session has no call for it.
    assert (
        "".join(
            u["content"]["text"] for sid, u in wire.of_kind("agent_message_chunk") if sid == child
        )
        == "Sized."
    )
    ((asked, _),) = client.permissions
    assert client.session_ids[client.updates.index(client.call(asked.tool_call_id)[0])] == child
    assert not [u for u in client.of_kind("tool_call") if u["toolCallId"].startswith("agent:")]
    assert client.of_kind("plan") == []
    assert client.text().endswith("All done.")


async def test_a_cancel_of_a_child_session_cancels_that_subagent_alone(tmp_path: Path) -> None:
    from acp import text_block

    asks = {"tool_calls": [{"name": "ask_user", "arguments": {"question": "Which size?"}}]}
    plays = json_script(
        tmp_path,
        {
            "main": [{"tool_calls": FORK_AND_WAIT}, {"text": "Went on without it."}],
            "main.1": [asks, {"text": "never reached"}],
        },
    )
    client, wire = RecordingClient(), Wire()  # holds the question's request
    async with with_child_sessions(
        client, wire, tmp_path, "--workflow", "plain", "--script", plays
    ) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        child = f"{session_id}~{CHILD}"
        async with anyio.create_task_group() as group:
            answers: list[Any] = []

            async def prompt() -> None:
                answers.append(await conn.prompt(session_id=session_id, prompt=[text_block("go")]))

            group.start_soon(prompt)
            await client.wait_for(lambda c: len(c.permissions) == 1)
            await conn.cancel(session_id=child)
            client.answer_held()  # the client ends its request, as one does on a cancel
    (response,) = answers
    assert response.stop_reason == "end_turn", "the root went on"
    assert wire.states(child)[-1] == "idle:cancelled"
    assert "requires_action" in wire.states(child)
    assert client.text().endswith("Went on without it.")


async def test_a_subagents_own_subagent_is_announced_on_its_parents_child_session(
    tmp_path: Path,
) -> None:
    from acp import text_block

    grandchild = "a3"
    plays = json_script(
        tmp_path,
        {
            "main": [{"tool_calls": FORK_AND_WAIT}, {"text": "All done."}],
            "main.1": [
                {
                    "tool_calls": [
                        {"name": "fork", "arguments": {"prompt": "Measure it"}},
                        {"name": "wait", "arguments": {"handle": grandchild}},
                    ]
                },
                {"text": "Sized."},
            ],
            "main.1.1": [{"text": "Measured."}],
        },
    )
    client, wire = RecordingClient(), Wire()
    async with with_child_sessions(
        client, wire, tmp_path, "--workflow", "plain", "--script", plays
    ) as conn:
        session_id = (await conn.new_session(cwd=str(tmp_path), mcp_servers=[])).session_id
        response = await conn.prompt(session_id=session_id, prompt=[text_block("Paint it")])
    assert response.stop_reason == "end_turn"
    child, deeper = f"{session_id}~{CHILD}", f"{session_id}~{grandchild}"
    announced = [
        (sid, u["sessionId"], u["title"])
        for sid, u in wire.of_kind("subagent_update")
        if "title" in u
    ]
    assert announced == [(session_id, child, "main.1"), (child, deeper, "main.1.1")]
    assert wire.states(deeper)[-1] == "idle:end_turn"
    said = "".join(
        u["content"]["text"] for sid, u in wire.of_kind("agent_message_chunk") if sid == deeper
    )
    assert said == "Measured."
