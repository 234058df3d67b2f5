"""A scroll right after a layout repaints what the scroll moved, not the whole screen
(textual_compat.scroll_after_layout_repaints_what_moved): after a pane beside the tree grew
and then scrolled, the frame repaints the pane, not the tree; and what the terminal shows
(the cells each frame repainted) is what the screen holds, even when a widget off screen
was looked up between the scroll and its frame."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual._compositor import Compositor
from textual.app import App, ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.geometry import Region
from textual.pilot import Pilot
from textual.widgets import Static, Tree

from agentui.tui.app.textual_compat import scroll_after_layout_repaints_what_moved

pytestmark = [pytest.mark.anyio, pytest.mark.painted]  # what each frame repaints is the test


def numbered(count: int) -> str:
    return "\n".join(f"line {n}" for n in range(count))


class Pane(VerticalScroll):
    looks_up_while_scrolling = False

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self.looks_up_while_scrolling:  # as the transcript's stale blocks are looked up
            _ = self.query_one("#above").virtual_region


class TreeBesideAPane(App[None]):
    CSS = "Tree { width: 30; } Pane { width: 1fr; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            tree: Tree[None] = Tree("root")
            tree.root.add_leaf("one leaf")
            tree.root.expand()
            yield tree
            with Pane():
                yield Static("ABOVE", id="above")
                yield Static(numbered(200), id="lines")


class Terminal:
    """What a terminal shows of the app's screen: each frame's repainted cells copied from
    what the screen holds then; `frames` says what each repainted (None: all of it)."""

    def __init__(self, app: App[None]) -> None:
        self.compositor = compositor = app.screen._compositor
        self.rows = self.held()
        self.frames: list[list[Region] | None] = []
        partial, full = compositor.render_partial_update, compositor.render_full_update

        def render_partial_update() -> object:
            regions = list(compositor._dirty_regions)
            self.frames.append(regions)
            held = self.held()
            for x, y, width, height in regions:
                for row in range(y, min(y + height, len(held))):
                    line = self.rows[row]
                    self.rows[row] = line[:x] + held[row][x : x + width] + line[x + width :]
            return partial()

        def render_full_update(simplify: bool = False) -> object:
            self.frames.append(None)
            self.rows = self.held()
            return full(simplify)

        compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
        compositor.render_full_update = render_full_update  # type: ignore[method-assign]

    def held(self) -> list[str]:
        return [strip.text for strip in self.compositor.render_strips()]

    async def drawn_since(self, pilot: Pilot[None]) -> list[list[Region] | None]:
        """The frames drawn from now until the screen has nothing left to draw (bounded)."""
        seen = len(self.frames)
        for _ in range(50):
            before = len(self.frames)
            await pilot.pause()
            if len(self.frames) == before and before > seen:
                return self.frames[seen:]
        raise AssertionError("the screen did not settle")


@pytest.fixture(autouse=True)
def installed() -> Iterator[None]:
    """Installed for these tests, then Textual's own again (the app installs it at start)."""
    before = Compositor.reflow, Compositor.reflow_visible
    scroll_after_layout_repaints_what_moved()
    yield
    Compositor.reflow, Compositor.reflow_visible = before  # type: ignore[method-assign]


async def test_a_scroll_after_a_layout_repaints_the_pane_not_the_tree() -> None:
    app = TreeBesideAPane()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree, pane = app.query_one(Tree), app.query_one(Pane)
        terminal = Terminal(app)
        for grown in (300, 400):
            app.query_one("#lines", Static).update(numbered(grown))  # a layout of the screen
            await terminal.drawn_since(pilot)
            pane.scroll_to(y=grown // 2, animate=False)  # the first scroll after it
            after = await terminal.drawn_since(pilot)
            assert pane.scroll_y == grown // 2
            assert None not in after, "the whole screen was drawn again"
            assert not any(region.overlaps(tree.region) for frame in after for region in frame)
            assert terminal.rows == terminal.held()
            assert f"line {grown // 2 - 1}" in terminal.rows[0]


async def test_a_widget_looked_up_between_a_scroll_and_its_frame_leaves_nothing_stale() -> None:
    """Textual builds its full map anew, at the new scroll position, for a widget off screen
    looked up after a scroll: that map is not what the last frame painted (compared with it,
    the scroll would repaint nothing), so the scroll repaints the screen as Textual does."""
    app = TreeBesideAPane()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        pane = app.query_one(Pane)
        terminal = Terminal(app)
        pane.scroll_to(y=10, animate=False)  # "ABOVE" goes off screen
        await terminal.drawn_since(pilot)
        pane.looks_up_while_scrolling = True
        pane.scroll_to(y=150, animate=False)
        await terminal.drawn_since(pilot)
        assert pane.scroll_y == 150
        assert terminal.rows == terminal.held()
        assert "line 149" in terminal.rows[0]
