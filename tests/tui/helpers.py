"""Driving the app in tests without waiting on wall-clock timers."""

from __future__ import annotations

from collections.abc import Callable

from agentui.core.clock import FrozenClock
from agentui.core.providers.script import Script
from agentui.core.providers.scripted import ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.tui.app import AgentUIApp
from textual.pilot import Pilot


def make_app(task: str | None = None, script: Script | None = None) -> AgentUIApp:
    """The app on a zero-delay scripted model with a frozen clock: every run draws the same."""
    clock = FrozenClock()

    def runtime() -> Runtime:
        return Runtime(ScriptedProvider(script), clock=clock)

    return AgentUIApp(runtime, initial_task=task, clock=clock)


async def settle(pilot: Pilot[int], until: Callable[[], bool], *, turns: int = 500) -> None:
    """Let agents and the app run, flushing events each turn, until `until()` holds."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    for _ in range(turns):
        await pilot.pause()
        app.flush_events()
        if until():
            await pilot.pause()
            return
    raise AssertionError("the app did not reach the expected state")
