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
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static, TextArea

from agentui.tui.app.widgets.composer import NEWLINE_KEYS


class SearchBox(TextArea):
    # Priority bindings: they come before TextArea's own handling of the keys, which would put
    # a newline in the box or move in it. A new line means nothing in a one-line search.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "step(1)", "Next", priority=True),
        Binding("up", "step(-1)", "Previous", priority=True),
        Binding("down", "step(1)", "Next", show=False, priority=True),
        # shift+enter where the terminal tells it from enter; most send enter for both.
        Binding("shift+enter", "step(-1)", "Previous", show=False, priority=True),
        Binding("escape", "close", "Close", priority=True),
        *(
            Binding(key, "nothing", show=False, priority=True)
            for key in sorted(NEWLINE_KEYS - {"enter", "shift+enter"})
        ),
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

    def action_step(self, direction: int) -> None:
        self._step(direction)

    def action_close(self) -> None:
        self._close()

    def action_nothing(self) -> None:
        """A new line's key: the search is one line."""


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
