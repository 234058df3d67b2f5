"""A ScrollView (the agent tree) updates its scrollbars when it is sized anew, not at every
layout of the screen (textual_compat.scroll_views_update_scrollbars_when_sized_anew): a
layout elsewhere leaves the tree's scrollbar alone, and the tree's growth, a resize and a
change of its overflow still reach it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from textual.app import App, ComposeResult
from textual.containers import Horizontal
from textual.scroll_view import ScrollView
from textual.widgets import Static, Tree

from agentui.tui.app.textual_compat import scroll_views_update_scrollbars_when_sized_anew

pytestmark = pytest.mark.anyio


class TreeBeside(App[None]):
    CSS = "Tree { width: 30; border: round $primary; }"

    def compose(self) -> ComposeResult:
        with Horizontal():
            tree: Tree[None] = Tree("root")
            for n in range(60):
                tree.root.add_leaf(f"row {n}")
            tree.root.expand()
            yield tree
            yield Static("beside", id="beside")


@pytest.fixture(autouse=True)
def installed() -> Iterator[None]:
    """Installed for these tests, then Textual's own again (the app installs it at start)."""
    before = ScrollView._size_updated
    scroll_views_update_scrollbars_when_sized_anew()
    yield
    ScrollView._size_updated = before  # type: ignore[method-assign]


async def test_a_layout_elsewhere_leaves_the_tree_s_scrollbar_alone() -> None:
    app = TreeBeside()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree = app.query_one(Tree)
        bar = tree.vertical_scrollbar
        refreshed: list[None] = []
        original = bar.refresh
        bar.refresh = lambda *a, **k: (refreshed.append(None), original(*a, **k))[1]  # type: ignore[method-assign]
        beside = app.query_one("#beside", Static)
        heights = []
        for n in range(3):
            beside.update("longer\n" * (n + 2))  # a layout of the screen, each time
            await pilot.pause()
            heights.append(beside.size.height)
        assert heights == sorted(set(heights)), "laid out anew each time"
        assert not refreshed


async def test_the_tree_s_growth_a_resize_and_its_overflow_reach_its_scrollbar() -> None:
    app = TreeBeside()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        tree = app.query_one(Tree)
        bar = tree.vertical_scrollbar
        assert bar.window_virtual_size == 61 and bar.window_size == 22
        for n in range(20):
            tree.root.add_leaf(f"more {n}")
        await pilot.pause()
        assert bar.window_virtual_size == 81
        await pilot.resize_terminal(80, 30)
        await pilot.pause()
        assert bar.window_size == 28
        tree.styles.overflow_y = "hidden"
        await pilot.pause()
        assert not tree.show_vertical_scrollbar
