"""Helpers for the session tests: runtimes that record into a temporary directory."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import anyio

from agentui.core.bus import Subscription
from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import ResumePlan
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, tool

SAFETY_NET_S = 10  # bounds a hung test; nothing here waits for time to pass


def recorded_runtime(
    directory: Path,
    *turns: Turn,
    script: Script | None = None,
    tools: list[Tool] | None = None,
    flush_interval_s: float = 0.1,
    **options: object,
) -> RecordingRuntime:
    """A scripted runtime on a frozen clock that writes its session into `directory`."""
    writer = SessionWriter(
        NewSession(provider="scripted", model="scripted-1", directory=directory),
        flush_interval_s=flush_interval_s,
    )
    provider = ScriptedProvider(script if script is not None else Script.for_all(*turns))
    options.setdefault("clock", FrozenClock())
    return RecordingRuntime(
        provider,
        session=writer,
        tools=ToolRegistry([ASK_USER, *(tools or [])]),
        **options,  # type: ignore[arg-type]
    )


def resumed_runtime(plan: ResumePlan, script: Script | None) -> RecordingRuntime:
    """A runtime carrying on a resume plan as `agentui --resume` does (frozen clock); no
    script: the offline demo."""
    runtime = RecordingRuntime(
        ScriptedProvider(script),
        session=SessionWriter(plan.continued_session()),
        clock=FrozenClock(),
        last_seq=plan.last_seq,
        ids=plan.id_source(),
    )
    plan.adopt_into(runtime)
    return runtime


def gate_tool(release: anyio.Event, name: str = "gate") -> Tool:
    """A tool that holds its agent until `release` is set."""

    async def gate() -> str:
        await release.wait()
        return "released"

    gate.__name__ = name
    gate.__doc__ = "Wait for the test."
    return tool(no_timeout=True)(gate)


def echo_tool() -> Tool:
    @tool
    async def echo(text: str) -> str:
        """Say it back."""
        return f"echo: {text}"

    return echo


async def next_event(events: Subscription, kind: str, agent_id: str | None = None) -> Event:
    """Read until the first event of `kind` (of `agent_id`, when given)."""
    with anyio.fail_after(SAFETY_NET_S):
        async for event in events:
            if event.type == kind and (agent_id is None or event.agent_id == agent_id):
                return event
    raise AssertionError(f"the stream ended before a {kind} event")


@asynccontextmanager
async def session_being_written(directory: Path) -> AsyncIterator[RecordingRuntime]:
    """A recording runtime whose agent waits at a gate, with what it did so far on disk.

    When the block ends the gate opens and the agent completes before the runtime closes.
    """
    release = anyio.Event()
    runtime = recorded_runtime(
        directory,
        Turn(tool_calls=[ScriptedToolCall(name="gate")]),
        Turn(text="done"),
        tools=[gate_tool(release)],
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("hold")
        started = await next_event(events, "tool:start", root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(started.seq)
        try:
            yield runtime
        finally:
            release.set()
        await runtime.wait(root)
