"""A steer or modify given to an agent paused mid-response is read on resume, on the scripted
model too: its held stream is given up and the call sent again with the person's words (an
agent making one call, a subagent or a plain root, would otherwise end without reading them).

Network providers close the stream at the pause itself: tests/core/test_pause_closes_stream.py
and the SDK tests in tests/e2e/test_*_provider.py.
"""

from __future__ import annotations

from dataclasses import replace

import anyio
import pytest

from agentui.core.agent.hooks import HookContext, HookManager, HookPoint, LLMCallDecision
from agentui.core.agent.loop import ABANDONED_FOR_STEER
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.conversation import TextBlock
from agentui.core.protocol.events import Event
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .helpers import Recorder, is_type

pytestmark = pytest.mark.anyio

ANSWER = "A long answer that streams piece by piece, long enough to be paused halfway. " * 4


def runtime_on(provider: ScriptedProvider) -> Runtime:
    return Runtime(provider, clock=FrozenClock())


def texts(request: ProviderRequest) -> list[str]:
    return [b.text for m in request.messages for b in m.content if isinstance(b, TextBlock)]


def model_events(events: list[Event]) -> list[str]:
    kinds = ("llm:request", "llm:abandoned", "llm:response", "note:delivered")
    return [e.type for e in events if e.type in kinds]


async def paused_mid_response(runtime: Runtime, rec: Recorder) -> str:
    agent_id = runtime.start("Answer.")
    await rec.wait_for(is_type("text:delta", agent_id), count=2)
    runtime.pause(agent_id)
    return agent_id


async def test_a_steer_given_while_paused_is_read_by_the_call_sent_again_on_resume() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER)))
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = await paused_mid_response(runtime, rec)
        runtime.steer(agent_id, "Be brief.")
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    first, second = provider.requests
    assert not any("Be brief." in t for t in texts(first))
    assert any("A message from the person: Be brief." in t for t in texts(second))
    assert second.sent_again and not first.sent_again
    assert node.status is AgentStatus.COMPLETED
    assert node.result == ANSWER, "the script's turn was played again, not the next one"
    assert model_events(rec.events) == [
        "llm:request",
        "llm:abandoned",
        "note:delivered",
        "llm:request",
        "llm:response",
    ]
    (abandoned,) = rec.of("llm:abandoned")
    assert abandoned.reason == ABANDONED_FOR_STEER  # type: ignore[attr-defined]
    assert abandoned.partial_text and ANSWER.startswith(abandoned.partial_text)  # type: ignore[attr-defined]
    assert rec.of("intervention:unused") == []
    assert "halfway" not in runtime.node(agent_id).conversation.messages[0].text


async def test_a_modify_given_while_paused_is_read_by_the_call_sent_again_on_resume() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER)))
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = await paused_mid_response(runtime, rec)
        runtime.modify(agent_id, content="A different task.")
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    first, second = provider.requests
    assert first.messages[0].text == "Answer."
    assert second.messages[0].text.startswith("A different task.")
    assert node.status is AgentStatus.COMPLETED
    (delivered,) = rec.of("note:delivered")
    assert delivered.modified == ["task"]  # type: ignore[attr-defined]
    assert rec.of("intervention:unused") == []


async def test_a_pause_without_a_steer_keeps_the_stream_it_held() -> None:
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER)))
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = await paused_mid_response(runtime, rec)
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    assert len(provider.requests) == 1
    assert provider.closed_early == 0
    assert rec.of("llm:abandoned") == []
    assert node.result == ANSWER


async def test_a_steer_given_before_the_pause_does_not_make_the_resume_start_again() -> None:
    """Sent while the agent ran, it waits for the next call, as a steer always does."""
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER), Turn(text="Shorter.")))
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await rec.wait_for(is_type("text:delta", agent_id), count=2)
        runtime.steer(agent_id, "Be brief.")
        runtime.pause(agent_id)
        runtime.resume(agent_id)
        await runtime.wait(agent_id)
        rec.sync()

    assert len(provider.requests) == 1
    assert rec.of("llm:abandoned") == []
    assert len(rec.of("intervention:unused")) == 1  # said, and offered as a continue


async def test_a_steer_while_paused_before_the_call_is_read_by_that_call() -> None:
    """Paused after the call was prepared (here: while a before:llm hook ran) but before it
    went: the call reads the steer."""
    hook_entered, hook_gate = anyio.Event(), anyio.Event()

    async def before_llm(context: HookContext) -> LLMCallDecision:
        hook_entered.set()
        await hook_gate.wait()
        return LLMCallDecision()

    hooks = HookManager()
    hooks.add(HookPoint.BEFORE_LLM, before_llm)
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER)))
    async with Runtime(provider, hooks=hooks, clock=FrozenClock()) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        with anyio.fail_after(10):  # safety net only
            await hook_entered.wait()
        runtime.pause(agent_id)
        runtime.steer(agent_id, "Be brief.")
        hook_gate.set()
        runtime.resume(agent_id)
        await runtime.wait(agent_id)
        rec.sync()

    (request,) = provider.requests
    assert any("Be brief." in t for t in texts(request))
    assert rec.of("intervention:unused") == []


async def test_a_steer_read_at_the_call_keeps_what_a_before_llm_hook_set() -> None:
    """The call reads the person's words and still goes as a hook prepared it (its model and
    limits): only the conversation and the instructions are taken again."""
    hook_entered, hook_gate = anyio.Event(), anyio.Event()

    async def before_llm(context: HookContext) -> LLMCallDecision:
        hook_entered.set()
        await hook_gate.wait()
        assert isinstance(context.request, ProviderRequest)
        return LLMCallDecision(request=replace(context.request, model="hooked", max_tokens=77))

    hooks = HookManager()
    hooks.add(HookPoint.BEFORE_LLM, before_llm)
    provider = ScriptedProvider(Script.for_all(Turn(text=ANSWER)))
    async with Runtime(provider, hooks=hooks, clock=FrozenClock()) as runtime:
        agent_id = runtime.start("Answer.")
        with anyio.fail_after(10):  # safety net only
            await hook_entered.wait()
        runtime.pause(agent_id)
        runtime.steer(agent_id, "Be brief.")
        hook_gate.set()
        runtime.resume(agent_id)
        await runtime.wait(agent_id)

    (request,) = provider.requests
    assert any("Be brief." in t for t in texts(request))
    assert (request.model, request.max_tokens) == ("hooked", 77)
