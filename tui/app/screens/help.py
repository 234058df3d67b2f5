"""The help screen: every key, from the one key table, as remapped in config.toml's [keys]: the
main screen's, then the keys of each window over it."""

from __future__ import annotations

from typing import ClassVar

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Footer, Static

from agentui.tui.app.keymap import DEFAULT_KEY_MAP, WINDOWS, KeyMap


def keys_table(key_map: KeyMap = DEFAULT_KEY_MAP, *, windows: bool = False) -> Table:
    """Key, where it works, what it does: one row each, as the manual's key reference has them.
    The main screen's keys, or (`windows`) the windows' keys: a table each, so the windows'
    long names do not narrow the main keys' descriptions."""
    table = Table(box=None, show_header=False, padding=(0, 1))
    table.add_column(style="bold", no_wrap=True)
    table.add_column(style="dim", no_wrap=True)
    table.add_column()
    for keys, where, description in key_map.help_rows():
        if (where in WINDOWS) == windows:
            table.add_row(keys, where, Text(description))
    return table


class HelpScreen(ModalScreen[None]):
    # The keys that open help (and quit's) close it; their ids follow a remap.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "dismiss_help", "Close"),
        Binding("question_mark", "dismiss_help", "Close", show=False, id="help"),
        Binding("q", "dismiss_help", "Close", show=False, id="quit"),
        Binding("f1", "dismiss_help", "Close", show=False, id="help_anywhere"),
    ]

    def __init__(self, key_map: KeyMap = DEFAULT_KEY_MAP) -> None:
        super().__init__()
        self._key_map = key_map

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="dialog"):
            yield Static(Text("agentui keys", style="bold"), id="title")
            yield Static(keys_table(self._key_map))
            yield Static(Text("\nIn the windows", style="bold"), id="windows-title")
            yield Static(keys_table(self._key_map, windows=True))
            yield Static(Text("↑↓ scroll · esc closes", style="dim"), id="hint")
        yield Footer()

    def on_mount(self) -> None:
        # The app focuses nothing by itself (AUTO_FOCUS): without the cursor, the arrows and
        # page keys scrolled nothing until a tab.
        self.set_focus(self.query_one("#dialog", VerticalScroll))

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
