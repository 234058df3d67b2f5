"""Every command of the API through the real client against a real server: what it does to
the runtime, seen in the events every viewer gets."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.api_models import session_row
from agentui.core.runtime import Runtime
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.store import list_sessions
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from tests.core.helpers import deploy_tool

from .event_reader import EventReader, of_type, status
from .server_fixture import served_runtime

pytestmark = pytest.mark.anyio

HANGS = Turn(text="working on it", hang_after_chunks=1)


def call(name: str, **arguments: Any) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def runtime_with(script: Script, *tools: Any) -> Runtime:
    registry = ToolRegistry([ASK_USER, FORK, WAIT, *tools])
    return Runtime(ScriptedProvider(script), tools=registry, clock=FrozenClock())


async def test_info_names_the_provider_and_the_last_seq() -> None:
    async with served_runtime(Turn(text="done")) as server, server.client() as client:
        info = await client.info()
        assert (info.provider, info.model, info.session_id, info.last_seq) == (
            "scripted",
            "scripted-1",
            None,
            0,
        )
        agent_id = await client.start("say done")
        reader = EventReader(client)
        ended = await reader.until(status(agent_id, "completed"))
        assert (await client.info()).last_seq == ended[0].seq
        await reader.aclose()


async def test_a_started_task_runs_to_its_end_and_shows_in_the_snapshot() -> None:
    async with served_runtime(Turn(text="the answer")) as server, server.client() as client:
        agent_id = await client.start("what is it?")
        reader = EventReader(client)
        await reader.until(status(agent_id, "completed"))
        assert await client.snapshot() == server.runtime.snapshot()
        assert server.runtime.node(agent_id).result == "the answer"
        await reader.aclose()


async def test_pause_resume_and_cancel_an_agent() -> None:
    async with served_runtime(HANGS) as server, server.client() as client:
        agent_id = await client.start("work")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        await client.pause(agent_id)
        await reader.until(status(agent_id, "paused"))
        await client.resume(agent_id)
        await reader.until(status(agent_id, "running"))
        await client.cancel(agent_id, "not needed")
        cancelled = await reader.until(of_type("execution:cancelled", agent_id))
        assert cancelled[0].reason == "not needed"  # type: ignore[attr-defined]
        await reader.aclose()


async def test_pause_and_resume_a_whole_subtree() -> None:
    splits = Turn(tool_calls=[call("fork", prompt="dig"), call("wait", handle="a2")])
    script = Script(agents={"main": [splits, Turn(text="done")], "main.1": [HANGS]})
    async with served_runtime(runtime=runtime_with(script)) as server, server.client() as client:
        root = await client.start("split it")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", "a2"))
        await client.pause(root, subtree=True)
        await reader.until(status(root, "paused"))
        await reader.until(status("a2", "paused"))
        await client.resume(root, subtree=True)
        await reader.until(status("a2", "running"))
        await client.delete("a2")
        await reader.until(status("a2", "deleted"))
        await reader.until(status(root, "completed"))
        await reader.aclose()


async def test_modify_and_steer_reach_the_agent() -> None:
    async with served_runtime(HANGS) as server, server.client() as client:
        agent_id = await client.start("first task")
        reader = EventReader(client)
        await reader.until(of_type("text:delta", agent_id))
        await client.modify(agent_id, content="second task", instructions="be brief")
        applied = await reader.until(of_type("intervention:applied", agent_id))
        assert (applied[0].content, applied[0].instructions) == ("second task", "be brief")  # type: ignore[attr-defined]
        await client.steer(agent_id, "prefer trains")
        queued = await reader.until(of_type("note:queued", agent_id))
        assert (queued[0].text, queued[0].from_person) == ("prefer trains", True)  # type: ignore[attr-defined]
        assert server.runtime.node(agent_id).task == "second task"
        await client.cancel(agent_id)
        await reader.aclose()


async def test_send_continues_an_ended_agent() -> None:
    async with (
        served_runtime(Turn(text="one"), Turn(text="two")) as server,
        server.client() as client,
    ):
        agent_id = await client.start("count")
        reader = EventReader(client)
        await reader.until(status(agent_id, "completed"))
        await client.send(agent_id, "and then?")
        await reader.until(status(agent_id, "completed"), count=2)
        assert server.runtime.node(agent_id).result == "two"
        await reader.aclose()


async def test_answer_a_question_and_decline_the_next() -> None:
    asks = Turn(tool_calls=[call("ask_user", question="Which city?")])
    script = Script.for_all(asks, asks, Turn(text="fine"))
    async with served_runtime(runtime=runtime_with(script)) as server, server.client() as client:
        agent_id = await client.start("plan a trip")
        reader = EventReader(client)
        first = await reader.until(of_type("query:raised", agent_id))
        await client.answer(first[0].query_id, "Lyon")  # type: ignore[attr-defined]
        answered = await reader.until(of_type("query:answered", agent_id))
        assert answered[0].answer == "Lyon"  # type: ignore[attr-defined]
        second = await reader.until(of_type("query:raised", agent_id), count=2)
        await client.answer(second[1].query_id, None)  # type: ignore[attr-defined]
        await reader.until(of_type("query:declined", agent_id))
        await reader.until(status(agent_id, "completed"))
        await reader.aclose()


async def test_an_approval_decided_remotely() -> None:
    runs: list[str] = []
    script = Script.for_all(Turn(tool_calls=[call("deploy", target="prod")]), Turn(text="ok"))
    runtime = runtime_with(script, deploy_tool(runs))
    async with served_runtime(runtime=runtime) as server, server.client() as client:
        agent_id = await client.start("ship it")
        reader = EventReader(client)
        raised = await reader.until(of_type("query:raised", agent_id))
        await client.approve(raised[0].query_id, "once")  # type: ignore[attr-defined]
        decided = await reader.until(of_type("approval:decided", agent_id))
        assert decided[0].decision == "once"  # type: ignore[attr-defined]
        await reader.until(status(agent_id, "completed"))
        assert runs == ["prod"]
        await reader.aclose()


async def test_sessions_are_listed_as_the_sessions_command_lists_them() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text="saved")))
    writer = SessionWriter(NewSession(provider="scripted", model="scripted-1"))
    runtime = RecordingRuntime(provider, session=writer, clock=FrozenClock())
    async with served_runtime(runtime=runtime) as server, server.client() as client:
        agent_id = await client.start("keep me")
        reader = EventReader(client)
        ended = await reader.until(status(agent_id, "completed"))
        with anyio.fail_after(30):
            await writer.wait_written(ended[0].seq)
        rows = await client.sessions()
        assert rows == [session_row(info) for info in list_sessions()]
        assert writer.session_id in [row["id"] for row in rows]
        assert (await client.info()).session_id == writer.session_id
        await reader.aclose()
