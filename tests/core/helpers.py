"""Small helpers shared by the core tests."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import anyio
import anyio.lowlevel

from agentui.core.bus import Subscription
from agentui.core.protocol.events import Event
from agentui.core.providers.base import ProviderRequest, StreamEvent
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.tool import Tool, tool


def scripted_runtime(
    *turns: Turn, script: Script | None = None, **runtime_options: object
) -> Runtime:
    """A runtime on the scripted provider with a frozen clock; every agent plays `turns`."""
    provider = ScriptedProvider(script if script is not None else Script.for_all(*turns))
    runtime_options.setdefault("clock", FrozenClock())
    return Runtime(provider, **runtime_options)  # type: ignore[arg-type]


async def events_until(subscription: Subscription, stop: Callable[[Event], bool]) -> list[Event]:
    """Read events until (and including) the first one for which `stop` is true."""
    seen: list[Event] = []
    async for event in subscription:
        seen.append(event)
        if stop(event):
            return seen
    return seen


def deploy_tool(runs: list[str]) -> Tool:
    """A tool `deploy(target)` that needs the person's approval; `runs` lists its targets."""

    @tool(needs_approval=True)
    async def deploy(target: str) -> str:
        """Deploy to a target."""
        runs.append(target)
        return f"deployed to {target}"

    return deploy


def of_type(events: list[Event], *types: str) -> list[Event]:
    return [e for e in events if e.type in types]


class Recorder:
    """Reads a lossless subscription and keeps every event read so far."""

    guard_s = 10.0  # how long a wait may take before the test fails (a safety net only)

    def __init__(self, runtime: Runtime) -> None:
        self.sub: Subscription = runtime.subscribe(maxsize=None)
        self.events: list[Event] = []

    async def wait_for(self, predicate: Callable[[Event], bool], count: int = 1) -> list[Event]:
        """Read until `count` events (read now or before) satisfy `predicate`."""
        matched = [e for e in self.events if predicate(e)]
        with anyio.fail_after(self.guard_s):
            while len(matched) < count:
                event = await self.sub.get()
                self.events.append(event)
                if predicate(event):
                    matched.append(event)
        return matched

    def sync(self) -> list[Event]:
        """Take in everything pending; return what was new."""
        new = self.sub.drain()
        self.events.extend(new)
        return new

    def of(self, *types: str, agent_id: str | None = None) -> list[Event]:
        return [
            e
            for e in self.events
            if e.type in types and (agent_id is None or e.agent_id == agent_id)
        ]


def is_type(type_: str, agent_id: str | None = None) -> Callable[[Event], bool]:
    return lambda e: e.type == type_ and (agent_id is None or e.agent_id == agent_id)


class ConnectedProvider:
    """A provider whose streams hold a (pretend) network connection, so a pause closes them.

    It plays `streams` in order, one per request; `None` in a stream makes it go silent there
    until it is closed, an exception is raised there. `closed` is set when a stream is closed
    before its end.
    """

    name = "connected"
    model = "connected-1"
    holds_connection = True

    def __init__(self, *streams: list[StreamEvent | Exception | None]) -> None:
        self._streams = list(streams)
        self.requests: list[ProviderRequest] = []
        self.closed_early = 0
        self.closed = anyio.Event()

    async def aclose(self) -> None:
        pass

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        self.requests.append(request)
        return self._play(self._streams[len(self.requests) - 1])

    async def _play(
        self, events: list[StreamEvent | Exception | None]
    ) -> AsyncIterator[StreamEvent]:
        finished = False
        try:
            for event in events:
                await anyio.lowlevel.checkpoint()
                if event is None:
                    await anyio.sleep_forever()
                elif isinstance(event, Exception):
                    finished = True  # a failure, not a close
                    raise event
                else:
                    yield event
            finished = True
        finally:
            if not finished:
                self.closed_early += 1
                self.closed.set()
