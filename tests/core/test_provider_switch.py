"""Runtime.set_provider: new root agents run on the new provider; agents that exist keep
theirs, for the subagents they start too; every provider given is closed once at shutdown."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

pytestmark = pytest.mark.anyio

SAFETY_S = 10  # a safety net against a hang, never a measurement


class CountingProvider(ScriptedProvider):
    def __init__(self, script: Script, model: str) -> None:
        super().__init__(script, model=model)
        self.closes = 0

    async def aclose(self) -> None:
        self.closes += 1


def asks_then_answers() -> Script:
    question = ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})
    return Script(
        agents={
            "main": [Turn(text="Let me ask.", tool_calls=[question]), Turn(text="Lisbon it is.")],
            "*": [Turn(text="Done.")],
        }
    )


async def test_new_roots_use_the_new_provider_and_old_agents_keep_theirs() -> None:
    first = CountingProvider(asks_then_answers(), "first-1")
    second = CountingProvider(Script.for_all(Turn(text="On the second.")), "second-1")
    async with Runtime(first, clock=FrozenClock()) as runtime:
        events = runtime.subscribe(maxsize=None)
        old = runtime.start("Plan a trip")
        with anyio.fail_after(SAFETY_S):
            async for event in events:
                if event.type == "query:raised":
                    break
        runtime.set_provider(second)
        assert (runtime.provider.name, runtime.provider.model) == ("scripted", "second-1")
        new = runtime.start("Another task")
        child = runtime.fork(old, "A part of the trip")
        with anyio.fail_after(SAFETY_S):
            await runtime.wait(new)
            await runtime.wait(child)
            (query,) = runtime.open_queries()
            runtime.answer(query.id, "Lisbon")
            await runtime.wait(old)
        models = {
            runtime.node(e.agent_id).name: e.model
            for e in events.drain()
            if e.type == "llm:request"
        }

    assert runtime.node(old).status is AgentStatus.COMPLETED
    assert runtime.node(old).result == "Lisbon it is."
    assert models == {"main": "first-1", "main-2": "second-1", "main.1": "first-1"}
    assert runtime.node(new).result == "On the second."
    assert (first.closes, second.closes) == (1, 1), "each closed once, at shutdown"


async def test_setting_the_same_provider_again_changes_nothing() -> None:
    provider = CountingProvider(Script.for_all(Turn(text="Hi.")), "only-1")
    async with Runtime(provider, clock=FrozenClock()) as runtime:
        runtime.set_provider(provider)
        with anyio.fail_after(SAFETY_S):
            await runtime.wait(runtime.start("Hello"))

    assert provider.closes == 1
