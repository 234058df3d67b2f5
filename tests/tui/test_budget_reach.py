"""A budget stop waits for the person like a question does, and the keys that reach a question
reach it: ctrl+n goes to it, enter on it and r (resume) open its budget window (a plain resume
would stop at the budget again)."""

from __future__ import annotations

import pytest

from agentui.core.agent.budget import Budget
from agentui.tui.app.nudges import BELL
from agentui.tui.app.screens.budget import BudgetScreen

from .helpers import notifications, settle, toasts
from .test_budget import budget_app, stopped

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize("keys", [("ctrl+n",), ("enter",), ("r",)], ids=["ctrl+n", "enter", "r"])
async def test_the_keys_that_reach_a_question_reach_a_budget_stop(keys: tuple[str, ...]) -> None:
    app = budget_app()
    async with app.run_test() as pilot:
        await stopped(pilot, Budget(tokens=1000))
        app.main.tree_view.focus()
        await pilot.pause()
        assert app.check_action("next_question", ()), "ctrl+n offers it"
        await pilot.press(*keys)
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))


async def test_a_budget_stop_says_which_keys_reach_it_and_calls_the_person() -> None:
    app = budget_app()
    written: list[str] = []
    app.nudges.write = written.append
    async with app.run_test() as pilot:
        await stopped(pilot, Budget(tokens=1000))
        await settle(pilot, lambda: any("Budget reached" in t for t in toast_titles(app)))
        said = [t for t in toasts(app) if "stopped at a budget" in t]
        assert said == ["main stopped at a budget: ctrl+n goes there; enter or r opens the budget"]
        assert BELL in written  # the default nudge, as for a question


def toast_titles(app: object) -> list[str]:
    return [n.title for n in notifications(app)]  # type: ignore[arg-type]
