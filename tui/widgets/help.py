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

from ..keymap import BUILT_IN_KEYS, KEYS, display_key


def keys_table() -> Table:
    table = Table(box=None, show_header=False, padding=(0, 2))
    table.add_column(style="bold", no_wrap=True)
    table.add_column()
    for key in KEYS:
        table.add_row(display_key(key.key), Text(key.description))
    for key_name, description in BUILT_IN_KEYS:
        table.add_row(key_name, Text(description))
    return table


class HelpScreen(ModalScreen[None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,question_mark,q,f1", "dismiss_help", "Close"),
    ]

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text("agentui keys", style="bold"), id="title")
            yield Static(keys_table())
            yield Static(Text("esc closes", style="dim"), id="hint")
        yield Footer()

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
