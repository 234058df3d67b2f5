"""BudgetAccount: one agent's budget (its limit, if any) and what its subtree has spent of it.

Every agent has an account, with a limit or without; spending is charged to the agent's account
and every ancestor's (`charge_*`), so an ancestor's limit holds over all its descendants (the
rule is written in budget.py). Before a model call or a tool call the agent asks `check`: the
first account up the chain whose limit that step would go past is the budget stop. Only a step
not yet taken is stopped: a model call already in flight when a limit is crossed is paid for,
and the stop says how far past the limit it went (`BudgetStop.over`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Literal

from agentui.core.agent.budget import Budget, describe_amount

Step = Literal["model", "tool"]

# What each step is stopped by: a tool call only by its own count (a model call's tokens are
# spent already when its tools run; they stop the next model call).
_STOPS: dict[Step, tuple[str, ...]] = {
    "model": ("tokens", "usd", "minutes", "model_calls"),
    "tool": ("minutes", "tool_calls"),
}


@dataclass(slots=True)
class Spent:
    """What a subtree has spent (the agent's own and its descendants')."""

    tokens: int = 0
    usd: float = 0.0
    unpriced_tokens: int = 0  # of models with no price: counted in tokens only
    tool_calls: int = 0
    model_calls: int = 0


@dataclass(frozen=True, slots=True)
class BudgetStop:
    """A limit reached: whose budget (`owner`), which measure, the limit and what was spent;
    `over`: how far the step in flight when it was crossed went past it (0 when none did)."""

    owner: str
    owner_name: str
    measure: str
    limit: float
    spent: float

    @property
    def over(self) -> float:
        return max(self.spent - self.limit, 0.0)

    def reason(self) -> str:
        """`the budget of main is spent: 50.3k tok of 50k tok` (an agent:status's reason)."""
        return (
            f"the budget of {self.owner_name} is spent: "
            f"{describe_amount(self.measure, self.spent)} of "
            f"{describe_amount(self.measure, self.limit)}"
        )


@dataclass(slots=True)
class BudgetAccount:
    agent_id: str
    agent_name: str
    parent: BudgetAccount | None
    # This agent's active time (its budget's minutes) and its live descendants (its children).
    active_seconds: Callable[[], float]
    live_descendants: Callable[[], int]
    limit: Budget | None = None
    spent: Spent = field(default_factory=Spent)
    stopped: BudgetStop | None = None  # while its subtree is paused by it
    allowance: int = 0  # steps allowed past the limit ("continue once")
    paused: list[str] = field(default_factory=list)  # the agents its stop paused

    def chain(self) -> Iterator[BudgetAccount]:
        """This account, then its parent's, up to the root's."""
        account: BudgetAccount | None = self
        while account is not None:
            yield account
            account = account.parent

    # -- spending ------------------------------------------------------------------------

    def charge_usage(self, tokens: int, usd: float | None) -> None:
        for account in self.chain():
            account.spent.tokens += tokens
            if usd is None:
                account.spent.unpriced_tokens += tokens
            else:
                account.spent.usd += usd

    def charge_step(self, step: Step) -> None:
        for account in self.chain():
            if step == "model":
                account.spent.model_calls += 1
            else:
                account.spent.tool_calls += 1

    def charge_calls(self, model_calls: int, tool_calls: int) -> None:
        """Calls made before (a resumed session's), charged at once."""
        for account in self.chain():
            account.spent.model_calls += model_calls
            account.spent.tool_calls += tool_calls

    def used(self, measure: str) -> float:
        if measure == "minutes":
            return self.active_seconds() / 60
        if measure == "children":
            return float(self.live_descendants())
        return float(getattr(self.spent, measure))

    def left(self) -> dict[str, float]:
        """What is left of each limit set (never below 0)."""
        if self.limit is None:
            return {}
        return {name: max(value - self.used(name), 0.0) for name, value in self.limit.items()}

    # -- stopping ------------------------------------------------------------------------

    def reached(self, step: Step) -> BudgetStop | None:
        """This account's limit that `step` would go past, if any."""
        if self.limit is None:
            return None
        for measure in _STOPS[step]:
            limit = getattr(self.limit, measure)
            if limit is not None and (spent := self.used(measure)) >= limit:
                return BudgetStop(self.agent_id, self.agent_name, measure, limit, spent)
        return None

    def check(self, step: Step) -> BudgetStop | None:
        """The stop for `step` up the chain; an account its person let go on once ("continue
        once") lets this one step through and is stopped at the next."""
        for account in self.chain():
            stop = account.reached(step)
            if stop is None:
                continue
            if account.allowance > 0:
                account.allowance -= 1
                continue
            return stop
        return None

    def fork_refusal(self) -> str | None:
        """Why a new subagent of this agent would go past a `children` limit up the chain."""
        for account in self.chain():
            limit = account.limit.children if account.limit is not None else None
            if limit is not None and (live := account.live_descendants()) >= limit:
                return (
                    f"cannot fork: the budget of {account.agent_name} allows {limit} live "
                    f"subagents under it and {live} are running; wait for one to finish first"
                )
        return None


@dataclass(frozen=True, slots=True)
class ForkForecast:
    """What a new subagent is likely to spend, against what is left where it runs out first."""

    owner_name: str
    measure: str
    expected: float
    left: float
    based_on: int  # how many finished subagents the mean is of

    def describe(self) -> str:
        return (
            f"a subagent is likely to spend {describe_amount(self.measure, self.expected)} "
            f"(the mean of the {self.based_on} that ended before it), and "
            f"{self.owner_name}'s budget has {describe_amount(self.measure, self.left)} left"
        )


def forecast_fork(account: BudgetAccount, finished: list[Spent]) -> ForkForecast | None:
    """The forecast of a fork under `account` that would go past what is left of a budget up
    the chain (tokens or usd), from the mean spend of `finished` (each a subagent of the same
    agent that ended: its whole subtree's spend); None when it fits or none ended to go by."""
    if not finished:
        return None
    for holder in account.chain():
        if holder.limit is None:
            continue
        left = holder.left()
        for measure in ("tokens", "usd"):
            if measure not in left:
                continue
            expected = sum(float(getattr(spent, measure)) for spent in finished) / len(finished)
            if expected > left[measure]:
                return ForkForecast(
                    holder.agent_name, measure, expected, left[measure], len(finished)
                )
    return None
