"""A budget's gauge on its agent's row in the tree: the measure of the budget nearest its
limit, as `1.2k/5k tok`, and a short bar of how much of it is spent.

What each measure's spend is read from: tokens and dollars from the fold's subtree sums
(`subtree_tokens`, `subtree_usd`, kept as events come: nothing to add up); model calls, tool
calls and live subagents by the tree (agent_tree.py), each change added up its chain of
ancestors. Active minutes are not in the
fold: a minutes budget shows its limit, and its spend once it stopped the subtree (the stop says
it). At a stop, the measure that stopped it is the one shown.

The bar is Unicode eighth blocks on the theme's panel colour: the status colours say how near
the limit it is (running's below 80 %, paused's up to the limit, error's past it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from rich.style import Style
from rich.text import Text

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.agent.budget import Budget
    from agentui.core.state import AgentState

BAR_CELLS = 5
_EIGHTHS = " ▏▎▍▌▋▊▉"
NEAR = 0.8  # from this share of the limit on, the bar says so
# The measures the tree counts over a subtree itself (the fold keeps no subtree sum of them).
SUBTREE_COUNTED = ("model_calls", "tool_calls", "children")
# A measure's word after its amounts (tokens and dollars are said their own way).
_WORDS = {"minutes": "min", "tool_calls": "tools", "model_calls": "calls", "children": "live"}


class Gauge(NamedTuple):  # made before the first frame: see first_frame.py
    """One measure of a budget: its limit and what the subtree spent of it (None: not known
    here, a minutes budget's active time). `unpriced`: a dollar budget over tokens whose
    model has no price (counted in tokens only)."""

    measure: str
    limit: float
    spent: float | None
    unpriced_tokens: int = 0

    @property
    def share(self) -> float:
        return self.spent / self.limit if self.spent is not None else 0.0

    def words(self) -> str:
        """`1.2k/5k tok`, `$0.40/$2.00`, `3/8 tools`, `30 min`."""
        from agentui.core.agent.budget import short_count  # loaded with the fold

        if self.measure == "tokens":
            return f"{_tokens(self.spent or 0)}/{short_count(self.limit)} tok"
        if self.measure == "usd":
            if self.unpriced_tokens and not self.spent:
                return f"{_tokens(self.unpriced_tokens)} tok (tokens only)/${self.limit:.2f}"
            return f"${self.spent or 0:.2f}/${self.limit:.2f}"
        word = _WORDS[self.measure]
        limit = f"{self.limit:.3g}" if self.measure == "minutes" else short_count(self.limit)
        if self.spent is None:
            return f"{limit} {word}"
        spent = f"{self.spent:.3g}" if self.measure == "minutes" else short_count(self.spent)
        return f"{spent}/{limit} {word}"


def _tokens(tokens: float) -> str:
    return f"{tokens / 1000:.1f}k" if tokens >= 1000 else str(int(tokens))


def counts_needed(budget: Budget | None) -> bool:
    """The budget limits something the tree counts over the subtree."""
    return budget is not None and any(getattr(budget, m) is not None for m in SUBTREE_COUNTED)


def nearest_limit(agent: AgentState, counted: Mapping[str, float] | None = None) -> Gauge | None:
    """The gauge of the agent's budget's measure nearest its limit (the first in the budget's
    order on a tie; the measure that stopped it, at a stop); None without a budget. `counted`:
    the subtree's model calls, tool calls and live agents below it ("children"), for a budget
    that limits them (left out, those measures are passed over)."""
    budget = agent.budget
    if budget is None or budget.is_empty:
        return None
    stop = agent.budget_stop
    gauges = [_gauge(agent, measure, limit, counted) for measure, limit in budget.items()]
    if stop is not None:
        for gauge in gauges:
            if gauge.measure == stop.measure:
                spent = max(gauge.spent or 0.0, stop.spent)
                return Gauge(gauge.measure, gauge.limit, spent, gauge.unpriced_tokens)
    known = [g for g in gauges if g.spent is not None]
    if not known:
        return gauges[0]
    return max(known, key=lambda gauge: gauge.share)  # max keeps the first of equals


def _gauge(
    agent: AgentState, measure: str, limit: float, counted: Mapping[str, float] | None
) -> Gauge:
    if measure == "tokens":
        return Gauge(measure, limit, agent.subtree_tokens)
    if measure == "usd":
        unpriced = agent.subtree_tokens if not agent.subtree_usd else 0
        return Gauge(measure, limit, agent.subtree_usd, unpriced)
    if measure in SUBTREE_COUNTED and counted is not None:
        return Gauge(measure, limit, counted[measure])
    return Gauge(measure, limit, None)


def gauge_bar(share: float, palette: Mapping[str, str]) -> Text:
    """BAR_CELLS cells filled to `share` (0 to 1 and past it: full) in eighths of a cell."""
    # Down to the eighth below, so a full bar is a limit reached; a spend shows at least one.
    eighths = int(min(max(share, 0.0), 1.0) * BAR_CELLS * 8) or (1 if share > 0 else 0)
    full, part = divmod(eighths, 8)
    cells = "█" * full + (_EIGHTHS[part] if part else "")
    cells = cells.ljust(BAR_CELLS)
    if share >= 1:
        colour = palette.get("agent-error")
    elif share >= NEAR:
        colour = palette.get("agent-paused")
    else:
        colour = palette.get("agent-running")
    return Text(cells, style=Style(color=colour, bgcolor=palette.get("panel")))
