"""A border title set anew redraws the border's top line only (textual_compat.
BorderTitleRedrawingItsLine: the transcript pane's title names the agent shown), and the widget
draws what Textual draws with the same title; before it is laid out it is refreshed whole."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widgets import Static

from agentui.tui.app.textual_compat import BorderTitleRedrawingItsLine

pytestmark = [pytest.mark.anyio, pytest.mark.painted]  # lines drawn: what is tested


class Titled(Static):
    border_title = BorderTitleRedrawingItsLine()


class Panes(App[None]):
    CSS = "Static { border: round $primary; height: 8; padding: 0 1; }"

    def compose(self) -> ComposeResult:
        yield Titled("the same words", id="ours")
        yield Static("the same words", id="textual")


async def test_a_new_title_redraws_the_top_line_only_and_draws_as_textual_does() -> None:
    app = Panes()
    async with app.run_test(size=(50, 20)) as pilot:
        ours = app.query_one("#ours", Titled)
        textual = app.query_one("#textual", Static)
        await pilot.pause()
        ours._dirty_regions.clear()
        ours.border_title = Text.assemble("transcript · ", "main-2", " · task")
        textual.border_title = Text.assemble("transcript · ", "main-2", " · task")
        assert ours._dirty_regions == {Region(0, 0, ours.outer_size.width, 1)}
        assert ours.border_title == textual.border_title
        await pilot.pause()
        whole = Region(0, 0, ours.outer_size.width, ours.outer_size.height)
        lines = ours.render_lines(whole)
        assert "main-2" in lines[0].text
        assert [list(s) for s in lines] == [list(s) for s in textual.render_lines(whole)]
        ours.border_title = None
        textual.border_title = None
        await pilot.pause()
        assert "main-2" not in ours.render_lines(whole)[0].text
        assert [list(s) for s in ours.render_lines(whole)] == [
            list(s) for s in textual.render_lines(whole)
        ]


async def test_a_title_set_before_layout_is_drawn_with_the_widget() -> None:
    class Early(App[None]):
        CSS = Panes.CSS

        def compose(self) -> ComposeResult:
            pane = Titled("words")
            pane.border_title = "first title"
            yield pane

    app = Early()
    async with app.run_test(size=(50, 20)) as pilot:
        await pilot.pause()
        pane = app.query_one(Titled)
        assert "first title" in pane.render_lines(Region(0, 0, pane.outer_size.width, 1))[0].text
