"""Small helpers shared by the core tests."""

from __future__ import annotations

from collections.abc import Callable

from agentui.core.clock import FrozenClock
from agentui.core.events import Event, Subscription
from agentui.core.providers.script import Script, Turn
from agentui.core.providers.scripted import ScriptedProvider
from agentui.core.runtime import Runtime


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


def of_type(events: list[Event], *types: str) -> list[Event]:
    return [e for e in events if e.type in types]
