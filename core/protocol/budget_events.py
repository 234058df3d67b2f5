"""The events of an agent's budget (core/agent/budget.py): set, reached, continued past.

Apart from events.py because a folded agent holds its pending stop (`AgentState.budget_stop`):
a resumed session's first frame unpickles its agents without loading every event's model.
"""

from __future__ import annotations

from typing import Literal

from pydantic import Field

from agentui.core.protocol.event_base import Event


class BudgetSet(Event):
    """The agent's budget (its subtree's limits; see core/agent/budget.py), as given: by a flag
    or config for a root ("start"), shared from its parent ("inherited"), or by the person on
    a running agent ("person"). An empty `budget` removes it."""

    type: Literal["budget:set"] = "budget:set"
    budget: dict[str, float] = Field(default_factory=dict)  # measure -> limit, those set
    source: Literal["start", "inherited", "person"] = "start"


class BudgetReached(Event):
    """A limit of the agent's budget was reached: its live subtree pauses until the person
    raises the budget, lets it go on for one more step, or cancels it. `agent_id` is the
    budget's owner; `stopped_agent` the agent whose next step it stopped. `over` is how far
    past the limit the step in flight when it was crossed went (a model call is paid for once
    sent): 0 when none did."""

    type: Literal["budget:stop"] = "budget:stop"
    measure: str  # tokens, usd, minutes, tool_calls, model_calls
    limit: float
    spent: float
    over: float = 0.0
    stopped_agent: str
    paused: list[str] = Field(default_factory=list)  # the agents it paused


class BudgetContinued(Event):
    """The person let a stopped budget's subtree take one more step past its limit."""

    type: Literal["budget:continue"] = "budget:continue"
