"""A budget stop as a person sees it: the tree's row with the subtree's spend against its
budget, standing out like a question; the transcript saying what was reached and what the
call in flight spent past it; the status bar's burn rate."""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from agentui.core.agent.budget import Budget

from .test_budget import budget_app, stopped

SIZE = (110, 30)


def test_a_budget_stop(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await stopped(pilot, Budget(tokens=1000))
        app.main.tree_view.focus()
        await pilot.pause()

    assert snap_compare(budget_app(), run_before=run_before, terminal_size=SIZE)


def test_the_budget_modal_at_a_stop(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        from agentui.tui.app.screens.budget import BudgetScreen

        from .helpers import notifications, settle

        app = await stopped(pilot, Budget(tokens=1000))
        await settle(pilot, lambda: bool(notifications(app)))  # the stop's toast, then
        app.clear_notifications()  # out of the picture: the modal's is what this shows
        app.commands.open_budget()
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))

    assert snap_compare(budget_app(), run_before=run_before, terminal_size=SIZE)
