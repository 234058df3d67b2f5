"""The help screen: every key, from the one key table."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from agentui.tui.app.keymap import help_rows


def keys_table() -> Table:
    """Key, where it works, what it does: one row each, as the README's key table has them."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for keys, where, description in help_rows():
        table.add_row(keys, where, Text(description))
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "dismiss_help", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text("agentui keys", style="bold"), id="title")
            yield Static(keys_table())
            yield Static(Text("↑↓ scroll · esc closes", style="dim"), id="hint")
        yield Footer()

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
