"""`POST /agent/{id}/modify` with new content while the agent waits on its clarification
withdraws the question (core: tests/core/test_modify_withdraws_question.py): the inbox row
goes, answering it is 404, and every viewer sees it declined as withdrawn."""

from __future__ import annotations

import json

import pytest

from agentui.core.agent.agent_run import TASK_CHANGED
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.remote.client import RemoteError
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .event_reader import EventReader, of_type, status
from .server_fixture import served_runtime

pytestmark = pytest.mark.anyio


async def test_a_modify_over_http_withdraws_the_clarification_waiting() -> None:
    clarify = Turn(text=json.dumps({"ambiguous": True, "question": "Which season?"}))
    script = Script(
        agents={"main": [Turn(text="Porto, in spring.")]},
        decisions={"main": {"clarify": [clarify]}},
    )
    runtime = Runtime(ScriptedProvider(script), clock=FrozenClock(), workflow="six-step")
    async with served_runtime(runtime=runtime) as server, server.client() as client:
        agent_id = await client.start("Plan a weekend in Lisbon")
        reader = EventReader(client)
        (raised,) = await reader.until(of_type("query:raised"))
        assert [row.kind for row in await client.inbox()] == ["question"]
        await client.modify(agent_id, content="Plan a weekend in Porto")
        (declined,) = await reader.until(of_type("query:declined"))
        assert (declined.query_id, declined.reason) == (raised.query_id, TASK_CHANGED)  # type: ignore[attr-defined]
        assert await client.inbox() == []
        with pytest.raises(RemoteError) as refused:
            await client.answer(raised.query_id, "spring")  # type: ignore[attr-defined]
        assert refused.value.status == 404
        await reader.until(status(agent_id, "completed"))
        await reader.aclose()
        assert runtime.node(agent_id).task == "Plan a weekend in Porto"
