"""A Runtime closes its provider once, after its last task ended, however it ends."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import anyio
import anyio.lowlevel
import pytest

from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    ProviderRequest,
    StreamEnd,
    StreamEvent,
    TextChunk,
    UsageReport,
)
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock

from .helpers import events_until, is_type

pytestmark = pytest.mark.anyio

SAFETY_S = 10  # a safety net against a hang, never a measurement


class ClosingProvider:
    """Streams "Hello" (then hangs, if told to); counts its closes and the streams still open
    at each."""

    name = "closing"
    model = "closing-1"

    def __init__(self, *, hang: bool = False) -> None:
        self.hang = hang
        self.closes = 0
        self.open_streams = 0
        self.open_at_close: list[int] = []
        self.streaming = anyio.Event()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        return self._stream()

    async def _stream(self) -> AsyncIterator[StreamEvent]:
        self.open_streams += 1
        try:
            yield TextChunk("Hello")
            self.streaming.set()
            if self.hang:
                await anyio.sleep_forever()
            yield UsageReport(Usage(output_tokens=1))
            yield StreamEnd("end_turn")
        finally:
            self.open_streams -= 1

    async def aclose(self) -> None:
        self.open_at_close.append(self.open_streams)
        # A real close awaits (an HTTP client's): a cancelled exit must not cut it short.
        await anyio.lowlevel.checkpoint()
        self.closes += 1


async def test_a_normal_exit_closes_the_provider_once_after_the_agents_ended() -> None:
    provider = ClosingProvider()
    async with Runtime(provider, clock=FrozenClock()) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Say hello.")
        with anyio.fail_after(SAFETY_S):
            await events_until(events, is_type("execution:complete", agent_id))
        assert provider.closes == 0  # not while the runtime runs

    assert provider.closes == 1
    assert provider.open_at_close == [0]
    await runtime.aclose()  # closing again is a no-op, and does not close the provider again
    assert provider.closes == 1


async def test_a_cancelled_exit_closes_the_provider_once_after_the_agents_ended() -> None:
    provider = ClosingProvider(hang=True)
    with anyio.CancelScope() as outer:
        async with Runtime(provider, clock=FrozenClock()) as runtime:
            agent_id = runtime.start("Say hello, then hang.")
            with anyio.fail_after(SAFETY_S):
                await provider.streaming.wait()
            outer.cancel()
            await anyio.lowlevel.checkpoint()  # the cancellation lands here
    assert outer.cancelled_caught

    assert runtime.node(agent_id).status.is_final
    assert provider.closes == 1
    assert provider.open_at_close == [0]  # the hanging stream was closed first


async def test_the_recorder_closes_the_provider_it_records(tmp_path: Path) -> None:
    inner = ClosingProvider()
    async with Runtime(RecordingProvider(inner, tmp_path), clock=FrozenClock()) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start("Say hello.")
        with anyio.fail_after(SAFETY_S):
            await events_until(events, is_type("execution:complete", agent_id))

    assert inner.closes == 1
