"""Where the keys go when an overlay closes: back where they were, if that place still takes
them; else the question they were in, a question that arrived meanwhile, or the prompt.

Never the tree when the place they were in is gone (the approval decided or the answer box
answered from the inbox, a block rebuilt): its letters are commands, and the person did not
choose it. What they type next is words, as after answering inline."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.widgets import TextArea

from agentui.tui.app.block_checks import query_block_around

if TYPE_CHECKING:
    from textual.widget import Widget

    from agentui.tui.app.screens.main import MainScreen


class OverlayFocus:
    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        # Where the keys were when an overlay opened (and the query it was in, if any).
        self._before: tuple[Widget | None, str | None] = (None, None)
        self._arrived_under_overlay: str | None = None  # a question that came while one was open

    def question_arrived(self, query_id: str) -> None:
        """A question came while an overlay was open: it takes the cursor once it closes."""
        self._arrived_under_overlay = self._arrived_under_overlay or query_id

    def remember(self) -> None:
        """An overlay opens: where the keys were (and the question they were in)."""
        self._before = (self.screen.agent_app.focused, self.screen.focused_query())

    def restore(self) -> None:
        """Back where the keys were before the overlay, if that place still takes them; else
        the question it was in (its block may have been rebuilt), the selected agent's
        waiting question, or the prompt (the tree only where there is no prompt: a replay)."""
        screen = self.screen
        app = screen.agent_app
        if len(app.screen_stack) != 1:
            return
        before, query_id = self._before
        self._before = (None, None)
        arrived, self._arrived_under_overlay = self._arrived_under_overlay, None
        writing = isinstance(before, TextArea) and _takes_keys(before)
        if arrived in screen.model.open_queries and not writing and query_id is None:
            # It came while the dialog was open: it takes the cursor now, as it would have.
            screen.focus_question(arrived, switch=False)
            if screen.focused_query() == arrived:
                return
        if before is not None and _takes_keys(before):
            app.screen.set_focus(before)
            return
        if query_id is not None and query_id in screen.model.open_queries:
            screen.focus_question(query_id, switch=False)
            if screen.focused_query() == query_id:
                return
        if app.focused is not None and _takes_keys(app.focused) and before is None:
            return
        waiting = screen.model.agents.get(screen.selected_id or "")
        if waiting is not None and waiting.open_queries:
            screen.focus_question(waiting.open_queries[0], switch=False)
            if screen.focused_query() is not None:
                return
        screen.keys.to_words()


def _takes_keys(widget: Widget) -> bool:
    """Still on screen, shown, and not part of a question that was settled meanwhile."""
    if not widget.is_attached or not widget.display or not widget.focusable:
        return False
    block = query_block_around(widget)
    return block is None or block.entry.open
