"""Budget: what a subtree of agents may spend, set on its root and shared down to its children.

Six measures, each optional (None: no limit of that kind): `tokens`, `usd` (from the price
table; a model with no price there is counted in tokens only, and its cost limit cannot hold),
`minutes` (active time: paused or waiting for the person does not count), `tool_calls`,
`model_calls`, and `children` (subagents live at once in the subtree, the root not counted).

How a child inherits (`share_for_child`), the one rule:

- Spending is charged up the chain: every token, dollar, model call and tool call an agent
  spends counts against its own budget and against every ancestor's. So a subtree can never
  spend more than its root's budget, whatever its children were given.
- A new child's own budget is a share of what its parent has left, so one child cannot starve
  its siblings: for tokens, usd, tool calls and model calls, the parent's remainder divided by
  (its live children + 1), the child counted; for minutes, the parent's remaining minutes
  whole (time passes for parent and children at once, so it is not divided); for children,
  the parent's limit less one (the child itself is one of the subtree's live agents).
- Never more than the parent has: each share is at most the remainder, and a child of a
  parent with no budget has none (its ancestors' budgets still hold through the chain).

    Budget.parse("tokens=50000,usd=2,minutes=30")  # as `--budget` and [budget] give it
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Annotated, Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from agentui.core.support.validation import describe_problem

Amount = Annotated[float, Field(allow_inf_nan=False)]

# The measures in the order they are said, with the word a label uses.
MEASURES = ("tokens", "usd", "minutes", "tool_calls", "model_calls", "children")
COUNTED = ("tokens", "usd", "tool_calls", "model_calls")  # charged up the chain


class Budget(BaseModel):
    """Limits of one agent's subtree; every field None means no budget at all."""

    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame needs none.
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    # Bounds well above real use: a number past one limits nothing and is a typo.
    tokens: int | None = Field(None, ge=1, le=10**11, description="Tokens the subtree may use.")
    usd: Amount | None = Field(
        None,
        gt=0,
        le=1_000_000,
        description="US dollars the subtree may spend, at the price table.",
    )
    minutes: Amount | None = Field(
        None, gt=0, le=7 * 24 * 60, description="Minutes the subtree may run."
    )
    tool_calls: int | None = Field(
        None, ge=0, le=10**7, description="Tool calls the subtree may make."
    )
    model_calls: int | None = Field(
        None, ge=0, le=10**7, description="Model calls the subtree may make."
    )
    children: int | None = Field(
        None, ge=0, le=10_000, description="Subagents the subtree may start."
    )

    @property
    def is_empty(self) -> bool:
        return all(getattr(self, name) is None for name in MEASURES)

    @classmethod
    def parse(cls, text: str) -> Budget:
        """`tokens=50000,usd=2,minutes=30,...` (the flag's form); ValueError in one sentence
        that names what is wrong."""
        fields: dict[str, Any] = {}
        for part in (p.strip() for p in text.split(",")):
            if not part:
                continue
            name, sep, value = part.partition("=")
            name = name.strip().replace("-", "_")
            if not sep or not value.strip():
                raise ValueError(f"budget {part!r}: give it as name=value, e.g. tokens=50000")
            if name not in MEASURES:
                raise ValueError(f"budget {name!r} is not one of {', '.join(MEASURES)}")
            if name in fields:
                raise ValueError(f"budget {name} is given twice")
            fields[name] = _with_suffix(value.strip().removeprefix("$"))
        return cls.from_limits(fields)

    @classmethod
    def from_limits(cls, limits: Mapping[str, Any]) -> Budget:
        """measure -> limit (as events and the HTTP API carry it); ValueError in one sentence."""
        try:
            return cls.model_validate(dict(limits))
        except ValidationError as exc:
            error = exc.errors()[0]
            where = ".".join(str(part) for part in error["loc"])
            if error["type"] == "extra_forbidden":
                raise ValueError(f"budget {where!r} is not one of {', '.join(MEASURES)}") from None
            raise ValueError(f"budget {where}: {describe_problem(error)}") from None

    def raised(self, other: Budget) -> Budget:
        """This budget with `other`'s limits where it sets one."""
        given = {name: value for name in MEASURES if (value := getattr(other, name)) is not None}
        return self.model_copy(update=given)

    def describe(self) -> str:
        """`50k tok, $2.00, 30 min`; "no budget" when empty."""
        parts = [describe_amount(name, value) for name, value in self.items()]
        return ", ".join(parts) if parts else "no budget"

    def items(self) -> list[tuple[str, float]]:
        """The limits set, in the order they are said."""
        return [(name, value) for name in MEASURES if (value := getattr(self, name)) is not None]

    def as_flag(self) -> str:
        """The flag's form of it: `tokens=50000,usd=2`."""
        return ",".join(f"{name}={value:g}" for name, value in self.items())


SUFFIXES = {"k": 1_000, "m": 1_000_000}  # as the labels write amounts: `5k tok`, `1.2M tok`


def _with_suffix(value: str) -> str:
    """`5k` -> `5000`, `1.5M` -> `1500000` (the labels' own forms); anything else as given."""
    multiplier = SUFFIXES.get(value[-1:].lower())
    if multiplier is None:
        return value
    try:
        number = float(value[:-1]) * multiplier
    except ValueError:
        return value
    return str(int(number)) if number.is_integer() else str(number)


def share_for_child(limit: Budget | None, left: dict[str, float], live_children: int) -> Budget:
    """A new child's budget from its parent's `limit` and what of it is `left` (per measure, as
    `BudgetAccount.left` gives it), the parent having `live_children` already: the rule in the
    module's docstring. An empty Budget when the parent has none."""
    if limit is None or limit.is_empty:
        return Budget()
    sharing = live_children + 1
    fields: dict[str, Any] = {}
    for name, _ in limit.items():
        remaining = max(left.get(name, 0.0), 0.0)
        if name == "minutes":
            fields[name] = max(remaining, 1 / 60)  # a pydantic > 0: a second at least
        elif name == "children":
            fields[name] = max(int(remaining) - 1, 0)
        elif name == "usd":
            fields[name] = max(remaining / sharing, 1e-9)
        elif name == "tokens":
            fields[name] = max(math.floor(remaining / sharing), 1)
        else:
            fields[name] = math.floor(remaining / sharing)
    return Budget.model_validate(fields)


def describe_amount(measure: str, value: float) -> str:
    """One measure's amount as a label says it: `1.2k tok`, `$0.40`, `12 min`, `30 tool calls`."""
    if measure == "tokens":
        return f"{short_count(value)} tok"
    if measure == "usd":
        return f"${value:,.2f}"
    if measure == "minutes":
        return f"{value:.3g} min"
    words = {"tool_calls": "tool calls", "model_calls": "model calls", "children": "children"}
    return f"{short_count(value)} {words[measure]}"


def short_count(value: float) -> str:
    """1234 -> 1.2k, 5000 -> 5k, 2_500_000 -> 2.5M."""
    for size, suffix in ((1_000_000_000, "G"), (1_000_000, "M"), (1_000, "k")):
        if abs(value) >= size:
            return f"{value / size:.1f}".rstrip("0").rstrip(".") + suffix
    return f"{value:g}" if value != int(value) else str(int(value))


# What the person can do about a budget stop, as every front end says it.
STOP_CHOICES = "raise the budget, continue once, or cancel"


def stop_words(measure: str, limit: float, spent: float, over: float) -> str:
    """A budget stop as a person reads it (after "budget reached: "): what was spent of the
    limit, and the call in flight's part."""
    said = f"{describe_amount(measure, spent)} spent of {describe_amount(measure, limit)}"
    if over > 0:
        if measure in ("tokens", "usd"):
            said += (
                f"; the model call in flight when it was reached went "
                f"{describe_amount(measure, over)} past it"
            )
        elif measure == "minutes":
            said += f"; the call in flight went {describe_amount(measure, over)} past it"
    return said
