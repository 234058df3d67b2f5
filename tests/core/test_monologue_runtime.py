"""The monologue attached to a runtime: entries on the bus, the final flush on every way an
agent ends, failure isolation, separate usage, and opting agents in or out."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.monologue import MonologueConfig, attach_monologue
from agentui.core.protocol.events import (
    Event,
    MonologueFailed,
    MonologueGenerated,
    QueryRaised,
    UsageUpdated,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.errors import AgentUIError, ProviderError
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import events_until, of_type, scripted_runtime
from .test_monologue_fakes import NARRATOR_USAGE, FakeNarrator, Gate

pytestmark = pytest.mark.anyio


@tool
async def lookup(query: str) -> str:
    """Look something up."""
    return f"found: {query}"


def lookup_call(query: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="lookup", arguments={"query": query})


THREE_STEPS = (
    Turn(thinking="Where is the port?", text="Looking.", tool_calls=[lookup_call("port")]),
    Turn(thinking="And the host.", tool_calls=[lookup_call("host")]),
    Turn(text="The port is 8080 on localhost."),
)


def three_step_runtime() -> Runtime:
    return scripted_runtime(*THREE_STEPS, tools=ToolRegistry([lookup]))


async def run_once(
    runtime: Runtime,
    narrator: FakeNarrator | None,
    config: MonologueConfig | None = None,
) -> tuple[str, list[Event]]:
    """Start one task with the monologue attached (unless narrator is None); every event."""
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator, config) if narrator else None
        agent = runtime.start("find the port")
        with anyio.fail_after(5):
            await runtime.wait(agent)
            if monologue is not None:
                await monologue.wait_idle()
        return agent, events.drain()


def agent_events(events: list[Event]) -> list[str]:
    """The agent's own events, as (type, details) text, without the monologue's."""
    return [
        e.model_dump_json(exclude={"seq"})
        for e in events
        if not isinstance(e, MonologueGenerated | MonologueFailed)
    ]


async def test_narratives_are_published_as_monologue_events() -> None:
    narrator = FakeNarrator(default="I'm on it.")
    agent, events = await run_once(three_step_runtime(), narrator)
    entries = [e for e in events if isinstance(e, MonologueGenerated)]
    assert entries, "the agent did enough to be narrated"
    assert {e.agent_id for e in entries} == {agent}
    assert all(e.entry.agent_name == "main" and e.entry.task_id == agent for e in entries)
    assert entries[-1].entry.metadata.is_final
    assert not any(e.entry.metadata.is_final for e in entries[:-1])
    assert entries[-1].seq > max(e.seq for e in events if e.type == "agent:status")
    narrated = sum(e.entry.metadata.event_count for e in entries)
    # Every action of the run is in exactly one narrative: 2 thoughts, 2 calls, 2 results,
    # 2 texts ("Looking." and the answer).
    assert narrated == 8
    first = narrator.user_prompt(0)
    assert "thought: Where is the port?" in first
    assert 'called lookup {"query": "port"}' in first
    assert "lookup returned: found: port" in first


async def test_the_agent_is_unchanged_by_a_narrator_that_always_fails() -> None:
    _, baseline = await run_once(three_step_runtime(), None)
    narrator = FakeNarrator(default=ProviderError("narrator overloaded"))
    agent, events = await run_once(three_step_runtime(), narrator)
    assert agent_events(events) == agent_events(baseline), "no agent event lost or changed"
    failures = of_type(events, "monologue:error")
    assert failures and all(e.agent_id == agent for e in failures)
    assert failures[0].error == "the narrator failed: narrator overloaded"  # type: ignore[attr-defined]
    assert of_type(events, "monologue") == []


async def test_a_hung_narrator_never_holds_the_agent_up() -> None:
    gate = Gate()  # never opened
    narrator = FakeNarrator([gate])
    _, baseline = await run_once(three_step_runtime(), None)
    runtime = three_step_runtime()
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        attach_monologue(runtime, narrator, MonologueConfig(timeout_s=600))
        agent = runtime.start("find the port")
        with anyio.fail_after(5):
            await runtime.wait(agent)
            await gate.entered.wait()
        assert runtime.node(agent).status.value == "completed"
        assert len(narrator.requests) == 1, "at most one narrator call in flight per agent"
    # Shutdown cancelled the hung call, quietly.
    assert agent_events(events.drain()) == agent_events(baseline)


async def test_a_narrator_past_its_timeout_is_reported_as_failed() -> None:
    narrator = FakeNarrator([Gate()], default="Back again.")
    runtime = three_step_runtime()
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        attach_monologue(runtime, narrator, MonologueConfig(timeout_s=0.01))
        agent = runtime.start("find the port")
        with anyio.fail_after(5):
            seen = await events_until(events, lambda e: e.type == "monologue:error")
            await runtime.wait(agent)
    assert "did not answer within 0.01 s" in seen[-1].error  # type: ignore[attr-defined]


async def test_narrator_tokens_are_counted_apart_from_the_agent() -> None:
    baseline_runtime = three_step_runtime()
    agent, _ = await run_once(baseline_runtime, None)
    runtime = three_step_runtime()
    narrator = FakeNarrator()
    agent, events = await run_once(runtime, narrator)
    assert runtime.node(agent).usage == baseline_runtime.node(agent).usage
    agent_total = Usage()
    for update in of_type(events, "usage:updated"):
        assert isinstance(update, UsageUpdated)
        agent_total = agent_total + update.delta
    assert agent_total == runtime.node(agent).usage
    entries = [e for e in events if isinstance(e, MonologueGenerated)]
    narrator_total = Usage()
    for entry in entries:
        narrator_total = narrator_total + entry.usage
    calls = len(narrator.requests)
    assert narrator_total.input_tokens == NARRATOR_USAGE.input_tokens * calls


async def test_a_cancelled_agent_gets_a_final_narrative() -> None:
    runtime = scripted_runtime(
        Turn(thinking="Let me think.", text="Partial answ", hang_after_chunks=1)
    )
    narrator = FakeNarrator(default="I was cut off mid-answer.")
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator)
        agent = runtime.start("think")
        with anyio.fail_after(5):
            await events_until(events, lambda e: e.type == "text:delta")
            runtime.cancel(agent)
            await runtime.wait(agent)
            await monologue.wait_idle()
        entries = [e for e in events.drain() if isinstance(e, MonologueGenerated)]
    [entry] = [e.entry for e in entries]
    assert entry.metadata.is_final and entry.metadata.event_count == 2
    prompt = narrator.user_prompt(0)
    assert "thought: Let me think." in prompt and "[interrupted]" in prompt
    assert "the run has ended (cancelled)" in prompt


async def test_an_agent_waiting_for_the_person_is_a_natural_point() -> None:
    runtime = scripted_runtime(
        Turn(
            thinking="I need to know more.",
            tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which port?"})],
        ),
        Turn(text="Using 8080."),
        tools=ToolRegistry([ASK_USER]),
    )
    narrator = FakeNarrator(default="I'm asking which port to use.")
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator)
        agent = runtime.start("pick a port")
        with anyio.fail_after(5):
            seen = await events_until(events, lambda e: isinstance(e, QueryRaised))
            await monologue.wait_idle()
            assert len(narrator.requests) == 1, "narrated while the agent waits for the answer"
            assert "called ask_user" in narrator.user_prompt(0)
            runtime.answer(seen[-1].query_id, "8080")  # type: ignore[attr-defined]
            await runtime.wait(agent)
            await monologue.wait_idle()
    # Then the answer (ask_user's result), then the closing line with the final text.
    assert len(narrator.requests) == 3
    assert "ask_user returned: 8080" in narrator.user_prompt(1)
    assert "the run has ended (completed)" in narrator.user_prompt(2)


async def test_agents_can_be_left_out_and_the_monologue_turned_off() -> None:
    narrator = FakeNarrator()
    runtime = three_step_runtime()
    async with runtime:
        monologue = attach_monologue(runtime, narrator, enabled=lambda node: node.name != "quiet")
        loud = runtime.start("find the port", name="loud")
        quiet = runtime.start("find the port", name="quiet")
        with anyio.fail_after(5):
            await runtime.wait(loud)
            await runtime.wait(quiet)
            await monologue.wait_idle()
    assert {r.agent_id for r in narrator.requests} == {loud}
    assert monologue.service(quiet) is None and monologue.service(loud) is not None

    off = FakeNarrator()
    runtime = three_step_runtime()
    async with runtime:
        disabled = attach_monologue(runtime, off, MonologueConfig(enabled=False))
        agent = runtime.start("find the port")
        with anyio.fail_after(5):
            await runtime.wait(agent)
            await disabled.wait_idle()
    assert off.requests == [] and disabled.services == {}


async def test_each_agent_has_its_own_service_and_history() -> None:
    narrator = FakeNarrator(default=lambda request: f"{request.agent_name} narrates.")
    runtime = three_step_runtime()
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        monologue = attach_monologue(runtime, narrator)
        first = runtime.start("find the port", name="first")
        second = runtime.start("find the port", name="second")
        with anyio.fail_after(5):
            await runtime.wait(first)
            await runtime.wait(second)
            await monologue.wait_idle()
    entries = [e for e in events.drain() if isinstance(e, MonologueGenerated)]
    for agent, name in ((first, "first"), (second, "second")):
        own = [e.entry for e in entries if e.agent_id == agent]
        assert own and all(e.text == f"{name} narrates." for e in own)
        assert [e.metadata.history_length for e in own] == list(range(len(own)))
    assert monologue.calls == len(narrator.requests)


async def test_attach_needs_a_running_runtime() -> None:
    runtime = three_step_runtime()
    with pytest.raises(AgentUIError):
        attach_monologue(runtime, FakeNarrator())
