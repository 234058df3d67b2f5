"""A question with a safe and a risky answer, as a small modal (delete, quit while agents run).

It opens on the safe answer, and no letter answers it: a sentence typed by someone who did not
see the dialog open (y from "yes", n from "no") can never confirm a delete. The risky answer
needs its own button (tab to it, then enter, or a click) or, for quit, ctrl+q pressed again.
"""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Static


class ConfirmScreen(ModalScreen[bool]):
    BINDINGS: ClassVar[list[BindingType]] = [
        # The safe button says "(esc)" in its own word (Keep, Stay); the footer says what esc
        # does here as it does in the palette and help (closing is the safe answer).
        Binding("escape", "answer(False)", "Close"),
    ]

    def __init__(self, question: str, risky: str, safe: str, *, risky_key: str = "") -> None:
        super().__init__(classes="confirm")
        self._question = question
        self._risky = risky
        self._safe = safe
        self._risky_key = risky_key  # a modifier key that also confirms, shown on the button

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(self._question), id="question")
            with Horizontal(id="buttons"):
                yield Button(f"{self._safe} (esc)", variant="primary", id="safe")
                risky = f"{self._risky} ({self._risky_key})" if self._risky_key else self._risky
                yield Button(risky, variant="error", id="risky")
            hint = "tab, then enter, to choose " + self._risky if not self._risky_key else ""
            yield Static(Text(hint, style="dim"), id="hint")
        yield Footer()  # this dialog's keys, not the screen's below it

    def on_mount(self) -> None:
        self.query_one("#safe", Button).focus()

    def ask(self, question: str) -> None:
        """Say it again with new facts (how many agents are still running)."""
        self._question = question
        if self.is_mounted:
            self.query_one("#question", Static).update(Text(question))

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "risky")

    def action_answer(self, yes: bool) -> None:
        self.dismiss(yes)
