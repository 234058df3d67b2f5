"""The budget window of one agent (screens/budget.py), made from the fold, and what its answer
does through the runtime's port: a new budget, one more step past the stop, or nothing.

The palette's "Raise budget…" and the inbox's budget row both open it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentui.core.protocol.commands import Command
from agentui.tui.app.checked_command import run_checked

if TYPE_CHECKING:
    from agentui.core.state import AgentState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.budget import BudgetChoice, BudgetScreen


def budget_window(agent: AgentState) -> BudgetScreen:
    """The window for `agent`: its budget, its subtree's spend, and its stop if it has one."""
    from agentui.core.agent.budget import STOP_CHOICES, describe_amount, stop_words
    from agentui.tui.app.screens.budget import BudgetScreen

    spent = describe_amount("tokens", agent.subtree_tokens)
    if agent.subtree_usd:
        spent += f", {describe_amount('usd', agent.subtree_usd)}"
    stop = agent.budget_stop
    said = ""
    if stop is not None:
        words = stop_words(stop.measure, stop.limit, stop.spent, stop.over)
        said = f"Budget reached: {words}. Paused: {STOP_CHOICES}."
    return BudgetScreen(agent.name, agent.budget, spent, said)


def apply_budget_choice(app: AgentUIApp, agent_id: str, choice: BudgetChoice) -> None:
    """Do what the window answered, if the table allows it now (it may have changed while the
    window was open); a refusal is said in a toast."""
    from agentui.tui.app.screens.budget import CONTINUE_ONCE

    runtime = app.host.runtime
    if choice is None or runtime is None:
        return
    if choice == CONTINUE_ONCE:
        run_checked(
            app,
            "continue past the budget",
            agent_id,
            Command.PAST_BUDGET,
            lambda: runtime.continue_past_budget(agent_id),
        )
        return
    limits = dict(choice.items())
    run_checked(
        app, "budget", agent_id, Command.BUDGET, lambda: runtime.set_budget(agent_id, limits)
    )
