"""Pausing an agent whose provider holds a connection closes the stream; resume asks again.

The fake provider declares `holds_connection`; its first stream goes silent after one piece of
text, so only the pause itself (not a next chunk) can close it.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.events import Event
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    Provider,
    StreamEnd,
    StreamEvent,
    TextChunk,
    UsageReport,
    holds_connection,
)
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import ProviderError

from .helpers import ConnectedProvider, Recorder, is_type

pytestmark = pytest.mark.anyio

CUT_USAGE = Usage(input_tokens=10, output_tokens=1)
WHOLE_USAGE = Usage(input_tokens=10, output_tokens=4)
SILENT_AFTER_HALF: list[StreamEvent | Exception | None] = [
    UsageReport(CUT_USAGE),
    TextChunk("Half "),
    None,
]
WHOLE: list[StreamEvent | Exception | None] = [
    UsageReport(CUT_USAGE),
    TextChunk("A whole "),
    TextChunk("answer."),
    UsageReport(WHOLE_USAGE),
    StreamEnd("end_turn"),
]


def runtime_on(provider: Provider, **limits: Any) -> Runtime:
    return Runtime(provider, limits=Limits(retry_backoff_s=0, **limits), clock=FrozenClock())


async def pause_at_first_text(runtime: Runtime, rec: Recorder, agent_id: str) -> None:
    await rec.wait_for(is_type("text:delta", agent_id))
    runtime.pause(agent_id)


def model_events(rec: Recorder) -> list[str]:
    kinds = ("llm:request", "text:delta", "llm:error", "llm:abandoned", "llm:response")
    return [e.type for e in rec.events if e.type in kinds]


async def test_pause_closes_a_silent_stream_at_once_and_resume_sends_the_request_again() -> None:
    provider = ConnectedProvider(SILENT_AFTER_HALF, WHOLE)
    async with runtime_on(provider, llm_retries=0) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        with anyio.fail_after(10):  # safety net only
            await provider.closed.wait()
        assert len(provider.requests) == 1, "not asked again while paused"
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()
        conversation = runtime.node(agent_id).conversation

    first, second = provider.requests
    assert second == replace(first, sent_again=True), "the same request, marked as sent again"
    assert provider.closed_early == 1
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "A whole answer."
    assert model_events(rec) == [
        "llm:request",
        "text:delta",
        "llm:abandoned",
        "llm:request",
        "text:delta",
        "text:delta",
        "llm:response",
    ], "no llm:error: with llm_retries=0 a retry would have failed the agent"
    (abandoned,) = rec.of("llm:abandoned")
    assert abandoned.partial_text == "Half "  # type: ignore[attr-defined]
    assert abandoned.iteration == 1  # type: ignore[attr-defined]
    assert "Half" not in conversation.model_dump_json()
    assert [u.delta for u in rec.of("usage:updated")] == [CUT_USAGE, WHOLE_USAGE]  # type: ignore[attr-defined]
    assert node.usage == CUT_USAGE + WHOLE_USAGE


async def test_a_steer_given_while_paused_is_read_by_the_request_sent_again() -> None:
    """An agent that makes one model call (a scene's character) would otherwise never read it."""
    provider = ConnectedProvider(SILENT_AFTER_HALF, WHOLE)
    async with runtime_on(provider, llm_retries=0) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        with anyio.fail_after(10):  # safety net only
            await provider.closed.wait()
        runtime.steer(agent_id, "Be brief.")
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    first, second = provider.requests
    assert first.messages[-1].text == "Answer."
    assert "Be brief." in second.messages[-1].text, "the note went with the call sent again"
    assert node.status is AgentStatus.COMPLETED
    assert len(rec.of("note:delivered")) == 1 and rec.of("intervention:unused") == []


async def test_the_abandoned_attempt_is_reported_only_on_resume() -> None:
    provider = ConnectedProvider(SILENT_AFTER_HALF, WHOLE)
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        with anyio.fail_after(10):
            await provider.closed.wait()
        paused = rec.sync()
        runtime.resume(agent_id)
        await runtime.wait(agent_id)
        rec.sync()

    assert not [e for e in paused if e.type in ("llm:abandoned", "usage:updated")]
    resumed = next(e for e in rec.events if e.type == "execution:resumed")
    (abandoned,) = rec.of("llm:abandoned")
    assert abandoned.seq > resumed.seq


async def test_a_retry_after_a_pause_still_has_the_whole_budget() -> None:
    provider = ConnectedProvider(
        SILENT_AFTER_HALF,
        [TextChunk("Fla"), ProviderError("flaky", retryable=True)],
        WHOLE,
    )
    async with runtime_on(provider, llm_retries=1) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        with anyio.fail_after(10):
            await provider.closed.wait()
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    assert node.status is AgentStatus.COMPLETED
    assert [e.retryable for e in rec.of("llm:error")] == [True]  # type: ignore[attr-defined]
    assert len(provider.requests) == 3


async def test_cancel_while_paused_keeps_the_cut_text_as_interrupted() -> None:
    provider = ConnectedProvider(SILENT_AFTER_HALF)
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        with anyio.fail_after(10):
            await provider.closed.wait()
        runtime.cancel(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()
        last = runtime.node(agent_id).conversation.messages[-1]

    assert node.status is AgentStatus.CANCELLED
    assert [e.partial_text for e in rec.of("execution:cancelled")] == ["Half "]  # type: ignore[attr-defined]
    assert (last.role, last.text, last.interrupted) == ("assistant", "Half ", True)
    assert not rec.of("llm:abandoned"), "cancelled before resume: nothing is sent again"
    # The cut attempt was billed: its tokens count, once, though the pause held their report.
    assert [e.delta for e in rec.of("usage:updated")] == [CUT_USAGE]  # type: ignore[attr-defined]
    assert node.usage == CUT_USAGE


async def test_a_provider_without_a_connection_holds_its_stream_through_a_pause() -> None:
    provider = ConnectedProvider(WHOLE)
    provider.holds_connection = False  # type: ignore[misc]
    async with runtime_on(provider) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        await rec.wait_for(is_type("agent:status", agent_id), count=2)  # running, paused
        runtime.resume(agent_id)
        node = await runtime.wait(agent_id)
        rec.sync()

    assert node.result == "A whole answer."
    assert (len(provider.requests), provider.closed_early) == (1, 0)
    assert not rec.of("llm:abandoned")


def test_the_capability_is_declared_not_guessed_from_names() -> None:
    assert holds_connection(ConnectedProvider())
    assert not holds_connection(ScriptedProvider())
    assert not holds_connection(object())


async def test_a_recorded_pause_replays_as_the_request_sent_again(tmp_path: Path) -> None:
    recorder = RecordingProvider(ConnectedProvider(SILENT_AFTER_HALF, WHOLE), tmp_path)
    assert holds_connection(recorder)
    async with runtime_on(recorder) as runtime:
        rec = Recorder(runtime)
        agent_id = runtime.start("Answer.")
        await pause_at_first_text(runtime, rec, agent_id)
        await rec.wait_for(is_type("agent:status", agent_id), count=2)
        runtime.resume(agent_id)
        await runtime.wait(agent_id)

    replay = ReplayProvider(tmp_path)
    assert not holds_connection(replay)
    async with runtime_on(replay) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Answer.")
        with anyio.fail_after(10):
            node = await runtime.wait(agent_id)
        replayed: list[Event] = events.drain()

    assert node.result == "A whole answer."
    assert [e.delta for e in replayed if e.type == "text:delta"] == ["A whole ", "answer."]  # type: ignore[attr-defined]
    assert [u.delta for u in replayed if u.type == "usage:updated"] == [WHOLE_USAGE]  # type: ignore[attr-defined]
