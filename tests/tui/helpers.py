"""Driving the app in tests without waiting on wall-clock timers."""

from __future__ import annotations

import itertools
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

from textual.notifications import Notification
from textual.pilot import Pilot
from textual.widgets import TextArea

from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool
from agentui.tui.app.app import AgentUIApp

from .idle_slices import idle_slice, short_idle_slices
from .ready_work import until_nothing_is_ready
from .settled import settled

SLOW_TURN_S = 0.01  # a turn's slice once the quick turns are spent
SETTLE_GUARD_S = 60.0


def make_app(
    task: str | None = None,
    script: Script | None = None,
    *,
    tools: list[Tool] | None = None,
    **options: object,
) -> AgentUIApp:
    """The app on a zero-delay scripted model with a frozen clock: every run draws the same."""
    clock = FrozenClock()

    def runtime() -> Runtime:
        registry = ToolRegistry([ASK_USER, *(tools or [])])
        # Pace 0 said here, not left to the default: the app's own default paces like a model.
        return Runtime(ScriptedProvider(script, pace_s=0), tools=registry, clock=clock)

    options.setdefault("remember_theme", False)
    # The narrator runs beside the agents at its own pace; screens that show it wait for it.
    options.setdefault("monologue", MonologueConfig(enabled=False))
    return AgentUIApp(runtime, initial_task=task, clock=clock, **options)  # type: ignore[arg-type]


async def write(pilot: Pilot[int], text: str) -> None:
    """Put `text` into the focused text box at its cursor, as typing it would, in one step:
    for tests whose subject is what happens to the words, not the keys that typed them
    (each key pressed costs the pilot two idle waits)."""
    box = pilot.app.focused
    assert isinstance(box, TextArea), f"no text box has the keys: {box!r}"
    box.insert(text)
    await pilot.pause()


def notifications(app: AgentUIApp) -> list[Notification]:
    """The toasts on screen now, oldest first (the one place tests read Textual's private list)."""
    return list(app._notifications)


def toasts(app: AgentUIApp) -> list[str]:
    """What the toasts on screen now say, oldest first."""
    return [n.message for n in notifications(app)]


def provider_of(app: AgentUIApp) -> ScriptedProvider:
    assert app.host.runtime is not None and isinstance(app.host.runtime.provider, ScriptedProvider)
    return app.host.runtime.provider


async def settle(pilot: Pilot[int], until: Callable[[], bool], *, turns: int = 500) -> None:
    """Let agents and the app run, flushing events each turn, until `until()` holds.

    Each turn lets run what is ready, then waits for the app to idle in a short slice (`until`
    says when it is done, not the idle wait); once it holds, the app is let settle
    (settled.py). Work in a thread or a child process (a search, a session read) does not keep the
    app busy in Textual's eyes: past `turns` quick turns, the wait goes on in short sleeps
    until SETTLE_GUARD_S, a bound against a hang on a loaded machine, never a measurement."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)

    def holds() -> bool:
        app.main.flush_events()
        done = until()
        if callable(done):  # `lambda: has_status(...)`: always true, the wait never waited
            raise TypeError("settle's condition returned a function: pass the function itself")
        return bool(done)

    deadline: float | None = None
    for turn in itertools.count():
        if turn < turns:
            # What is ready to run first (most of what a key or an agent's step starts), then
            # a short idle slice for what waits on a timer, a thread or a child process.
            await until_nothing_is_ready()
            if holds():
                break
            with short_idle_slices():
                await idle_slice(pilot)
        else:
            await pilot.pause(SLOW_TURN_S)
        if holds():
            break
        if turn >= turns:
            deadline = deadline if deadline is not None else time.monotonic() + SETTLE_GUARD_S
            if time.monotonic() > deadline:
                raise AssertionError("the app did not reach the expected state")
    await settled(pilot)


async def runtime_of(pilot: Pilot[int]) -> Runtime:
    """The app's runtime once it has started (the app starts it just after its first frame)."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    await settle(pilot, lambda: app.host.started)
    assert app.host.runtime is not None
    return app.host.runtime


def status_of(app: AgentUIApp, agent_id: str) -> Callable[[], AgentStatus | None]:
    def read() -> AgentStatus | None:
        agent = app.main.model.agents.get(agent_id)
        return agent.status if agent is not None else None

    return read


def has_status(app: AgentUIApp, agent_id: str, status: AgentStatus) -> Callable[[], bool]:
    return lambda: status_of(app, agent_id)() is status


def kinds(app: AgentUIApp, agent_id: str) -> list[str]:
    """The kinds of an agent's transcript entries so far ([] before it appears)."""
    agent = app.main.model.agents.get(agent_id)
    return [e.kind for e in agent.entries] if agent is not None else []


def a1_is(status: AgentStatus) -> Callable[[AgentUIApp], bool]:
    """The first agent has `status` on screen."""
    return lambda app: status_of(app, "a1")() is status


@asynccontextmanager
async def app_when(
    until: Callable[[AgentUIApp], bool],
    task: str | None = None,
    script: Script | None = None,
    size: tuple[int, int] = (80, 24),
    **options: object,
) -> AsyncIterator[tuple[AgentUIApp, Pilot[int]]]:
    """The app (as `make_app` builds it) once `until(app)` holds, with the keys on the agent
    tree (where the agent commands are) unless a question or approval holds the cursor. (The
    app itself keeps the cursor in the prompt after a task starts.)"""
    app = make_app(task, script, **options)  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        await settle(pilot, lambda: until(app))
        if app.main.focused_query() is None:
            app.main.tree_view.focus()
            await pilot.pause()
        yield app, pilot
