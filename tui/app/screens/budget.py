"""Set or raise the budget of an agent's subtree, as a small modal (the palette's "Set
budget…" / "Raise budget…"), and, at a budget stop, let it go on once.

The limits are typed as `--budget` takes them (`tokens=80000,usd=3`); a mistake is said under
the box in one sentence and the text stays as typed. Enter applies; esc closes and changes
nothing. No letter answers it: the box has the focus.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Static

from agentui.core.agent.budget import MEASURES, Budget
from agentui.core.support.terminal_text import visible_controls

CONTINUE_ONCE: Literal["continue"] = "continue"
# What the modal gives back: the new budget, one more step past the stop, or nothing.
BudgetChoice = Budget | Literal["continue"] | None


class BudgetScreen(ModalScreen[BudgetChoice]):
    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "close", "Close")]

    DEFAULT_CSS = """
    BudgetScreen { align: center middle; }
    BudgetScreen #dialog {
        width: 72; height: auto; border: round $primary; padding: 0 1; background: $surface;
    }
    BudgetScreen #problem { color: $error; height: auto; }
    BudgetScreen #buttons { height: auto; }
    BudgetScreen Button { margin: 0 1 0 0; }
    """

    def __init__(self, agent_name: str, budget: Budget | None, spent: str, stop: str) -> None:
        """`spent`: what its subtree spent, in words; `stop`: its budget stop's words, "" when
        it is not stopped (then there is nothing to continue past)."""
        super().__init__(classes="budget")
        self._agent_name = agent_name
        self._budget = budget
        self._spent = spent
        self._stop = stop

    def compose(self) -> ComposeResult:
        name = visible_controls(self._agent_name)
        now = self._budget.describe() if self._budget is not None else "no budget"
        with Vertical(id="dialog"):
            yield Static(Text(f"Budget of {name}'s subtree: {now}", style="bold"), id="title")
            yield Static(Text(f"Spent: {self._spent}"), id="spent")
            if self._stop:
                yield Static(Text(self._stop, style="bold"), id="stop")
            yield Static(
                Text(f"Limits as name=value, comma-separated: {', '.join(MEASURES)}", style="dim")
            )
            flag = self._budget.as_flag() if self._budget is not None else ""
            yield Input(flag, placeholder="tokens=50000,usd=2,minutes=30", id="limits")
            yield Static("", id="problem")
            with Horizontal(id="buttons"):
                yield Button("Set (enter)", variant="primary", id="set")
                if self._stop:
                    yield Button("Continue once", id="continue")
                yield Button("Close (esc)", id="close")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#limits", Input).focus()

    @on(Input.Submitted)
    def _submitted(self) -> None:
        self._apply()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "set":
            self._apply()
        elif event.button.id == "continue":
            self.dismiss(CONTINUE_ONCE)
        else:
            self.dismiss(None)

    def action_close(self) -> None:
        self.dismiss(None)

    def _apply(self) -> None:
        text = self.query_one("#limits", Input).value
        try:
            budget = Budget.parse(text)
        except ValueError as exc:
            self.query_one("#problem", Static).update(Text(visible_controls(str(exc))))
            return
        self.dismiss(budget)
