"""A modify that changes an agent's task while it waits on a question withdraws the question:
it was about the old task. The question is declined ("withdrawn: the person changed the
task"), its id answers nothing more, and the agent's next model call reads the new task with
a line naming the question withdrawn. A modify of the instructions alone keeps the question."""

from __future__ import annotations

import json
from typing import Any

import anyio
import pytest

from agentui.core.agent.agent_run import TASK_CHANGED
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import QueryDeclined, QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import UnknownQueryError

from .helpers import Recorder, is_type

pytestmark = pytest.mark.anyio

QUESTION = "Which season?"


def decide(**value: Any) -> Turn:
    return Turn(text=json.dumps(value))


def clarifying_runtime() -> tuple[Runtime, ScriptedProvider]:
    """A six-step root whose clarification asks QUESTION, then answers plainly."""
    script = Script(
        agents={"main": [Turn(text="Porto, in spring.")]},
        decisions={"main": {"clarify": [decide(ambiguous=True, question=QUESTION)]}},
    )
    provider = ScriptedProvider(script)
    return Runtime(provider, clock=FrozenClock(), workflow="six-step"), provider


def user_texts_after_the_question(provider: ScriptedProvider) -> str:
    """The user messages of the root's first model call after its clarification."""
    request = [r for r in provider.requests if r.agent_id == "a1"][1]
    return "\n".join(m.text for m in request.messages if m.role == "user")


async def test_a_modify_of_the_task_withdraws_the_question_waiting_on_the_old_one() -> None:
    runtime, provider = clarifying_runtime()
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a weekend in Lisbon")
        (raised,) = await recorder.wait_for(is_type("query:raised"))
        assert isinstance(raised, QueryRaised)
        runtime.modify(root, content="Plan a weekend in Porto")
        assert runtime.open_queries() == []  # the inbox has nothing to answer
        with pytest.raises(UnknownQueryError):
            runtime.answer(raised.query_id, "spring")  # too late: the task it asked about is gone
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    (declined,) = recorder.of("query:declined")
    assert isinstance(declined, QueryDeclined)
    assert (declined.query_id, declined.reason) == (raised.query_id, TASK_CHANGED)
    assert not recorder.of("query:answered")
    texts = user_texts_after_the_question(provider)
    assert "The person modified your instructions or task" in texts
    assert (
        f"Your question was withdrawn unanswered, since it was about the task as it was: {QUESTION}"
        in texts
    )
    assert "Plan a weekend in Porto" in texts and "Lisbon" not in texts
    assert runtime.node(root).status is AgentStatus.COMPLETED


async def test_a_modify_of_the_instructions_alone_keeps_the_question() -> None:
    runtime, provider = clarifying_runtime()
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("Plan a weekend in Lisbon")
        (raised,) = await recorder.wait_for(is_type("query:raised"))
        assert isinstance(raised, QueryRaised)
        runtime.modify(root, instructions="Be brief.")
        runtime.answer(raised.query_id, "spring")
        with anyio.fail_after(10):
            await runtime.wait(root)
        recorder.sync()
    assert not recorder.of("query:declined")
    texts = user_texts_after_the_question(provider)
    assert "spring" in texts and "withdrawn" not in texts
