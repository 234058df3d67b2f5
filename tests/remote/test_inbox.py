"""`GET /inbox` and the client's `inbox()`: the rows the server lists are the rows a client
folding the event stream lists (so attached screens, the app and ACP agree), with how long each
has waited by the server's clock; a grouped question is answered for all its askers by
answering each of its queries."""

from __future__ import annotations

from typing import Any

import pytest

from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.api_models import InboxEntry
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.state.inbox import inbox
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry

from .event_reader import EventReader, of_type, status
from .server_fixture import served_runtime

pytestmark = pytest.mark.anyio

START = 1_767_225_600.0


def call(name: str, **arguments: Any) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def two_askers(clock: FrozenClock) -> Runtime:
    """main forks two children; each asks the person "Which city?" and then answers."""
    asks = Turn(tool_calls=[call("ask_user", question="Which city?")])
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[call("fork", prompt="north"), call("fork", prompt="south")]),
                Turn(tool_calls=[call("wait", handle="a2"), call("wait", handle="a3")]),
                Turn(text="both done"),
            ],
            "main.1": [asks, Turn(text="north done")],
            "main.2": [asks, Turn(text="south done")],
        }
    )
    tools = ToolRegistry([ASK_USER, FORK, WAIT])
    return Runtime(ScriptedProvider(script), tools=tools, clock=clock)


def without_wait(entry: InboxEntry) -> dict[str, Any]:
    return entry.model_dump(exclude={"waited_s"})


async def test_the_servers_rows_are_the_rows_of_the_folded_stream() -> None:
    clock = FrozenClock(START)
    async with (
        served_runtime(runtime=two_askers(clock)) as server,
        server.client() as client,
    ):
        root = await client.start("two trips")
        reader = EventReader(client)
        raised = await reader.until(of_type("query:raised"), count=2)
        clock.advance(42)
        rows = await client.inbox()
        folded = RunState(transcripts=False)
        folded.apply_all(reader.events)
        assert [without_wait(row) for row in rows] == [
            without_wait(InboxEntry.of(row, 0)) for row in inbox(folded)
        ]
        [row] = rows
        assert (row.kind, row.text, row.path) == ("question", "Which city?", "main › main.1")
        assert row.query_ids == [e.query_id for e in raised]  # type: ignore[attr-defined]
        assert row.waiting == 2
        assert row.waited_s == 42
        # For all askers: each of its queries answered the same.
        await client.answer_all(row.query_ids, "Oslo")
        await reader.until(of_type("query:answered"), count=2)
        assert await client.inbox() == []
        await reader.until(status(root, "completed"))
        await reader.aclose()


async def test_a_resumed_sessions_rows_stand_from_its_history() -> None:
    """The saved events fold into the server's inbox before anything new happens."""
    history = (
        ev.AgentSpawned(seq=1, ts=START, agent_id="a1", parent_id=None, name="main", task="t"),
        ev.StatusChanged(seq=2, ts=START, agent_id="a1", old="pending", new="running", reason=""),
        ev.AgentStalled(seq=3, ts=START + 300, agent_id="a1", since=START, after_s=300),
    )
    clock = FrozenClock(START + 400)
    runtime = Runtime(ScriptedProvider(Script.for_all(Turn(text="hi"))), clock=clock)
    async with (
        served_runtime(runtime=runtime, history=history) as server,
        server.client() as client,
    ):
        [row] = await client.inbox()
        assert (row.id, row.kind, row.since, row.waited_s) == ("stalled:a1", "stalled", START, 400)


async def test_the_inbox_is_in_the_api_description() -> None:
    async with served_runtime(Turn(text="hi")) as server, server.client() as client:
        response = await client._http.get("/openapi.json")
        schema = response.json()
        assert "/inbox" in schema["paths"]
        assert "InboxEntry" in schema["components"]["schemas"]
