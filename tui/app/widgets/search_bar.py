"""The transcript search's bar: one line under the panes, a box for the words and a count.

The box is a text box (a TextArea, as every place the person types): it takes every printable
key, so nothing typed into it is ever a command. Enter or down goes to the next match,
shift+enter (where the terminal tells it apart) or up to the previous one, esc closes the search.
What it does with them is its owner's (tui/app/transcript_search.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static, TextArea

from agentui.tui.app.widgets.composer import NEWLINE_KEYS

NEXT_KEYS = frozenset({"enter", "down"})
PREVIOUS_KEYS = frozenset({"shift+enter", "up"})


class SearchBox(TextArea):
    # For the footer (and a click on it): the keys themselves are read in _on_key, before
    # TextArea's own handling would put a newline in the box or move in it.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "step(1)", "Next"),
        Binding("shift+enter", "step(-1)", "Previous"),
        Binding("escape", "close", "Close"),
    ]

    def __init__(self, step: Callable[[int], None], close: Callable[[], None]) -> None:
        super().__init__(
            "",
            soft_wrap=False,
            tab_behavior="focus",
            show_line_numbers=False,
            compact=True,
            highlight_cursor_line=False,
            placeholder="search the transcript",
            id="search-box",
        )
        self._step = step
        self._close = close

    async def _on_key(self, event: events.Key) -> None:
        key = event.key
        if key in NEXT_KEYS:
            self.action_step(1)
        elif key in PREVIOUS_KEYS:
            self.action_step(-1)
        elif key == "escape":
            self.action_close()
        elif key not in NEWLINE_KEYS:  # one line: a new line means nothing here
            await super()._on_key(event)
            return
        event.stop()
        event.prevent_default()

    def action_step(self, direction: int) -> None:
        self._step(direction)

    def action_close(self) -> None:
        self._close()


class SearchBar(Horizontal):
    DEFAULT_CSS = """
    SearchBar { height: 1; display: none; }
    SearchBar > Static { width: auto; height: 1; }
    """

    def __init__(
        self,
        query: Callable[[str], None],
        step: Callable[[int], None],
        close: Callable[[], None],
    ) -> None:
        super().__init__(id="search-bar")
        self._query = query
        self.box = SearchBox(step, close)
        self.scope = Static("", id="search-scope")
        self.count = Static("", id="search-count")

    def compose(self) -> ComposeResult:
        yield self.scope
        yield self.box
        yield self.count

    def say(self, scope: str, count: str) -> None:
        """Where it searches (an agent's name, or all agents) and where it is in the matches."""
        self.scope.update(Text(f"search {scope}: ", style="bold"))  # a name is never markup
        self.count.update(Text(f" {count} " if count else ""))

    @on(TextArea.Changed, "#search-box")
    def _changed(self, event: TextArea.Changed) -> None:
        event.stop()
        text = self.box.text
        if "\n" in text:  # a paste of several lines: one line of words
            self.box.load_text(" ".join(text.split("\n")))
            self.box.move_cursor(self.box.document.end)
            return  # its own Changed follows
        self._query(text)
