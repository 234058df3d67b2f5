"""A run with one row of each kind in the inbox, made step by step on a frozen clock so that
every wait and every order is the same at each run (for the inbox's pilot tests and pictures)."""

from __future__ import annotations

from textual.pilot import Pilot

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.inbox import InboxScreen
from agentui.tui.app.widgets.inbox_actions import RowActions
from agentui.tui.app.widgets.inbox_rows import InboxList

from ..core.helpers import deploy_tool
from .helpers import has_status, make_app, runtime_of, settle
from .test_budget import note, spends

HOLD = Turn(text="Working through the plan now.", hang_after_chunks=1)
ASK_CITY = Turn(
    tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})]
)
DEPLOY = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
SCRIPT = Script(
    agents={
        "main": [HOLD],
        "main.1": [ASK_CITY, Turn(text="Noted.")],  # main.1 and main.2 ask the same words
        "main.2": [ASK_CITY, Turn(text="Noted.")],
        "main.3": [DEPLOY, Turn(text="Shipped.")],
        "main.4": [HOLD, Turn(text="Metric it is.")],  # paused, then steered
        "main.5": [spends(800), spends(800), spends(300, calls=0, text="All done.")],
    }
)
ORDER = ["stalled:a1", "q1", "q3", "steer:a5", "budget:a6"]  # what unblocks most, then oldest


def mixed_app(runs: list[str] | None = None) -> AgentUIApp:
    return make_app(
        "Plan the offsite", SCRIPT, tools=[deploy_tool(runs if runs is not None else []), note]
    )


def clock_of(app: AgentUIApp) -> FrozenClock:
    clock = app.clock
    assert isinstance(clock, FrozenClock)
    return clock


async def every_kind(pilot: Pilot[int]) -> AgentUIApp:
    """main (a1) runs and has said nothing for 3 minutes; under it main.1 and main.2 ask
    "Which city?", main.3 wants to deploy, main.4 is paused with a steer not read, main.5 is
    stopped by its budget. 30 s of the clock between each."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    clock = clock_of(app)
    runtime = await runtime_of(pilot)
    await settle(pilot, has_status(app, "a1", S.RUNNING))
    for city in ("Find a venue", "Find a caterer"):
        runtime.start(city, parent_id="a1")
    await settle(pilot, lambda: len(app.main.model.open_queries) == 2)
    clock.advance(30)
    runtime.start("Deploy the sign-up page", parent_id="a1")
    await settle(pilot, lambda: len(app.main.model.open_queries) == 3)
    clock.advance(30)
    runtime.start("Book the rooms", parent_id="a1")
    await settle(pilot, has_status(app, "a5", S.RUNNING))
    runtime.pause("a5")
    await settle(pilot, has_status(app, "a5", S.PAUSED))
    runtime.steer("a5", "Use metric units")
    await settle(pilot, lambda: bool(app.main.model.agents["a5"].queued_notes))
    clock.advance(30)
    runtime.start("Order the badges", parent_id="a1")
    runtime.set_budget("a6", {"tokens": 1000})
    await settle(pilot, lambda: app.main.model.agents.get("a6") is not None)
    await settle(pilot, lambda: app.main.model.agents["a6"].budget_stop is not None)
    clock.advance(30)
    runtime.publish(ev.AgentStalled, "a1", since=clock.now() - 120, after_s=120)
    clock.advance(60)
    await settle(pilot, lambda: [row.id for row in app.inbox.rows] == ORDER)
    return app


async def open_inbox(pilot: Pilot[int]) -> InboxScreen:
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    await pilot.press("f4")
    await settle(pilot, lambda: isinstance(app.screen, InboxScreen))
    screen = app.screen
    assert isinstance(screen, InboxScreen)
    return screen


def highlight(screen: InboxScreen, row_id: str) -> None:
    listing = screen.query_one(InboxList)
    listing.highlighted = listing._ids.index(row_id)


def actions_of(screen: InboxScreen) -> RowActions:
    return screen.query_one(RowActions)
