"""Budgets in the app: the tree shows a subtree's spend against its budget, a budget stop
stands out like a question, the palette's "Raise budget…" opens the modal, whose new limits let
the agents go on; a mistake in them is said and the text kept; "Continue once" lets one step
through."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot
from textual.widgets import Input, Static

from agentui.core.agent.budget import Budget
from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.tools.tool import tool
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.budget import BudgetScreen
from agentui.tui.app.widgets.agent_tree import agent_label

from .helpers import has_status, make_app, runtime_of, settle

pytestmark = pytest.mark.anyio


@tool()
async def note(text: str) -> str:
    """Write a note."""
    return f"noted {text}"


def spends(tokens: int, *, calls: int = 1, text: str = "") -> Turn:
    tool_calls = [ScriptedToolCall(name="note", arguments={"text": "x"}) for _ in range(calls)]
    return Turn(text=text, tool_calls=tool_calls, usage=Usage(output_tokens=tokens))


SCRIPT = Script.for_all(spends(800), spends(800), spends(300, calls=0, text="All done."))


def budget_app() -> AgentUIApp:
    return make_app(None, SCRIPT, tools=[note])


async def stopped(pilot: Pilot[int], budget: Budget) -> AgentUIApp:
    """The app once its first agent, started with `budget`, is paused by it."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    runtime = await runtime_of(pilot)
    runtime.budget = budget  # as [budget] or --budget give every root agent
    runtime.start("Plan a product launch")
    await settle(pilot, has_status(app, "a1", S.PAUSED))
    await settle(pilot, lambda: app.main.model.agents["a1"].budget_stop is not None)
    return app


async def test_the_tree_shows_the_spend_against_the_budget_and_the_stop_stands_out() -> None:
    async with budget_app().run_test(size=(110, 30)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        agent = app.main.model.agents["a1"]
        label = agent_label(agent, 0.0, {})
        assert "1.6k/1k tok" in label.plain
        assert any(span.style.reverse for span in label.spans)  # like a question waiting
        notices = [e.text for e in agent.entries if e.kind == "notice" and e.title == "budget"]
        assert notices == ["1k tok"]
        [stop] = [e for e in agent.entries if e.title == "budget reached"]
        assert stop.text.startswith("1.6k tok spent of 1k tok; the model call in flight")


async def test_raising_the_budget_from_the_palette_s_modal_lets_it_finish() -> None:
    async with budget_app().run_test(size=(110, 30)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        app.main.tree_view.focus()
        titles = [c.title for c in app.commands.palette([])]
        assert "Raise budget…" in titles and "Continue once past the budget" in titles
        app.commands.open_budget()
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        box = app.screen.query_one("#limits", Input)
        assert box.value == "tokens=1000"
        box.value = "tokens=1000, usd=seven"
        await pilot.press("enter")
        problem = app.screen.query_one("#problem", Static)
        assert "budget usd: Input should be a valid number" in str(problem.render())
        assert box.value == "tokens=1000, usd=seven"  # kept as typed
        box.value = "tokens=50000"
        await pilot.press("enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert app.main.model.agents["a1"].budget == Budget(tokens=50000)


async def test_continue_once_from_the_modal_lets_one_step_through() -> None:
    async with budget_app().run_test(size=(110, 30)) as pilot:
        app = await stopped(pilot, Budget(model_calls=1))
        app.commands.open_budget()
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        await pilot.click("#continue")
        model = app.main.model
        await settle(pilot, lambda: model.agents["a1"].model_calls == 2)
        await settle(pilot, lambda: model.agents["a1"].budget_stop is not None)
        assert model.agents["a1"].status is S.PAUSED
