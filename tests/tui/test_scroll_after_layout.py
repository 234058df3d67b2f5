"""A scroll right after a layout repaints what the scroll moved, not the whole screen
(textual_compat.scroll_after_layout_repaints_what_moved): after a pane beside the tree grew
and then scrolled, the frame repaints the pane, not the tree."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

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


class TreeBesideAScroll(App[None]):
    CSS = "Tree { width: 30; } VerticalScroll { width: 1fr; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            tree: Tree[None] = Tree("root")
            for n in range(60):
                tree.root.add_leaf(f"row {n}")
            tree.root.expand()
            yield tree
            with VerticalScroll():
                yield Static(numbered(200), id="lines")


@pytest.fixture(autouse=True)
def installed() -> Iterator[None]:
    """Installed for these tests, then Textual's own again (the app installs it at start)."""
    before = Compositor.reflow_visible
    scroll_after_layout_repaints_what_moved()
    yield
    Compositor.reflow_visible = before  # type: ignore[method-assign]


async def drawn_since(pilot: Pilot[None], frames: list[object]) -> list[object]:
    """The frames drawn from now until the screen has nothing left to draw (bounded)."""
    seen = len(frames)
    for _ in range(50):
        before = len(frames)
        await pilot.pause()
        if len(frames) == before and before > seen:
            return frames[seen:]
    raise AssertionError("the screen did not settle")


async def test_a_scroll_after_a_layout_repaints_the_scroll_not_the_tree() -> None:
    app = TreeBesideAScroll()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree = app.query_one(Tree)
        pane = app.query_one(VerticalScroll)
        # Each frame: the regions it repainted (None: the whole screen).
        frames: list[Any] = []
        compositor = app.screen._compositor
        partial, full = compositor.render_partial_update, compositor.render_full_update

        def render_partial_update() -> object:
            frames.append(list(compositor._dirty_regions))
            return partial()

        def render_full_update(simplify: bool = False) -> object:
            frames.append(None)
            return full(simplify)

        compositor.render_partial_update = render_partial_update  # type: ignore[method-assign]
        compositor.render_full_update = render_full_update  # type: ignore[method-assign]
        for grown in (300, 400):
            app.query_one("#lines", Static).update(numbered(grown))  # a layout of the screen
            await drawn_since(pilot, frames)
            assert pane.virtual_size.height == grown
            pane.scroll_to(y=grown // 2, animate=False)  # the first scroll after it
            after = await drawn_since(pilot, frames)
            assert pane.scroll_y == grown // 2
            assert None not in after, "the whole screen was drawn again"
            repainted = [region for frame in after for region in frame]
            assert Region.from_union(repainted).contains_region(pane.content_region)
            assert not any(region.overlaps(tree.region) for region in repainted)
