"""Set or raise the budget of an agent's subtree, as a small modal (the palette's "Set
budget…" / "Raise budget…"), and, at a budget stop, let it go on once.

The limits are typed as `--budget` takes them (`tokens=80000,usd=3`); a mistake is said under
the box in one sentence and the text stays as typed. Removing the budget is said on purpose,
`none`: an empty box is refused (a cleared field under its grey example looked like a value,
and enter let the agent run uncapped). Enter applies; esc closes and changes nothing. No
letter answers it: the box has the focus.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Input, Static

from agentui.core.agent.budget import MEASURES, Budget
from agentui.core.support.terminal_text import visible_controls

CONTINUE_ONCE: Literal["continue"] = "continue"
NO_BUDGET = "none"  # typed to remove the budget
EXAMPLE = "e.g. tokens=50000,usd=2"  # the empty box's placeholder: an example, not a value
EMPTY_REFUSED = (
    f"Type the limits ({EXAMPLE}), or {NO_BUDGET} to remove the budget; esc leaves it as it is."
)
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
        # Keys typed after the key that opened it, before it was up (a fast typist, a paste):
        # handed to its box once it has the focus, in order (see InboxScreen._typed_on).
        self.typed_ahead: list[events.Key | events.Paste] = []
        self.took_typed_ahead = False

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
            yield Input(flag, placeholder=EXAMPLE, id="limits")
            yield Static("", id="problem")
            with Horizontal(id="buttons"):
                yield Button("Set (enter)", variant="primary", id="set")
                if self._stop:
                    yield Button("Continue once", id="continue")
                yield Button("Close (esc)", id="close")
        yield Footer()

    def on_mount(self) -> None:
        box = self.query_one("#limits", Input)
        self.set_focus(box)
        self.took_typed_ahead = True
        for event in self.typed_ahead:
            self.post_typed(event)
        self.typed_ahead = []

    def post_typed(self, event: events.Key | events.Paste) -> None:
        """A key or paste typed before the window was up: to its box now, as if typed now."""
        again = (
            events.Paste(event.text)
            if isinstance(event, events.Paste)
            else events.Key(event.key, event.character)
        )
        # From the app, as a typed key is: made here, it would not bubble back up to this
        # screen (its sender), nor reach the app's bindings (enter would not submit).
        again.set_sender(self.app)
        self.app.post_message(again)

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
        problem = self.query_one("#problem", Static)
        if text.strip().lower() == NO_BUDGET:
            self.dismiss(Budget())  # no limit: the budget removed, as asked in words
            return
        try:
            budget = Budget.parse(text)
        except ValueError as exc:
            problem.update(Text(visible_controls(str(exc))))
            return
        if budget.is_empty:  # nothing typed (or only commas): no silent removal
            problem.update(Text(EMPTY_REFUSED))
            return
        self.dismiss(budget)
