"""A key's frame does not wait for Textual's refresh timer (textual_compat.draw_once_handled):
what a cursor move changed, here and in a widget that follows it, is drawn once the key is
handled, even with the timer stopped; without it, nothing is drawn until the timer ticks. The
tree works out its style once per drawing (textual_compat.TreeStyledOncePerDraw) and draws the
same lines as Textual's."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from textual import events
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Static, Tree

from agentui.tui.app.textual_compat import TreeStyledOncePerDraw, draw_once_handled

pytestmark = [pytest.mark.anyio, pytest.mark.painted]  # frames drawn: what is tested


# Turns of the event loop a key is given: its handling, the refreshes sent, the frame drawn
# (a few each; none of it waits for time).
LOOP_TURNS = 50


class FollowedTree(Tree[str]):
    """Tells the Static beside it which row the cursor is on, as the agent tree tells the
    transcript."""

    draws_at_once = True

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        super().watch_cursor_line(previous_line, line)
        self.app.query_one("#shown", Static).update(f"row {line}")
        if self.draws_at_once:
            draw_once_handled(self)


class Follows(App[None]):
    CSS = "FollowedTree { height: 10; }"

    def __init__(self, *, at_once: bool) -> None:
        super().__init__()
        self.at_once = at_once
        self.frames: list[bool] = []  # each frame: whether nothing waited to be drawn after it

    def compose(self) -> ComposeResult:
        tree = FollowedTree("root")
        tree.draws_at_once = self.at_once
        for n in range(30):
            tree.root.add_leaf(f"row {n}")
        tree.root.expand()
        yield tree
        yield Static("", id="shown")

    def _display(self, screen: Screen[Any], renderable: Any) -> None:
        super()._display(screen, renderable)
        if renderable is not None:
            pending = [w for w in screen.walk_children() if w._repaint_required]
            self.frames.append(not pending)


async def _down_with_the_timer_stopped(app: Follows, *, from_line: int) -> tuple[int, bool]:
    """Frames drawn for 4 arrow-downs pressed from `from_line` with the screen's refresh timer
    stopped, and whether the last left nothing to draw."""
    async with app.run_test(size=(40, 16)) as pilot:
        tree = app.query_one(FollowedTree)
        tree.focus()
        await pilot.pause()
        tree.cursor_line = from_line
        drawn_before = -1
        while drawn_before != len(app.frames):  # started: the resize's and resume's frames
            drawn_before = len(app.frames)
            for _ in range(3):
                await pilot.pause()
        app.screen._update_timer.stop()
        before = len(app.frames)
        for _ in range(4):
            # Not the pilot's press: its wait updates the screen itself, as the timer would.
            app.post_message(events.Key("down", None))
            for _ in range(LOOP_TURNS):
                await asyncio.sleep(0)
        assert tree.cursor_line == from_line + 4, "every key handled"
        drawn = app.frames[before:]
        return len(drawn), bool(drawn) and drawn[-1]


async def test_a_cursor_move_is_drawn_without_the_refresh_timer() -> None:
    frames, whole = await _down_with_the_timer_stopped(Follows(at_once=True), from_line=0)
    assert frames >= 4, "each key drawn, the timer stopped"
    assert whole, "the last frame left nothing to draw: the cursor and the Static"


async def test_and_so_is_one_that_scrolls_the_tree() -> None:
    frames, whole = await _down_with_the_timer_stopped(Follows(at_once=True), from_line=8)
    assert frames >= 4
    assert whole, "the rows scrolled, the scrollbar, the Static: all in the last frame"


async def test_without_it_the_key_waits_for_the_timer() -> None:
    frames, _ = await _down_with_the_timer_stopped(Follows(at_once=False), from_line=0)
    assert frames == 0


class Rows(App[None]):
    def compose(self) -> ComposeResult:
        tree = TreeStyledOncePerDraw("agents")
        for n in range(40):
            tree.root.add_leaf(f"agent {n}")
        tree.root.expand()
        yield tree


async def test_the_tree_draws_the_lines_textual_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    app = Rows()
    async with app.run_test(size=(60, 30)) as pilot:
        tree = app.query_one(TreeStyledOncePerDraw)
        tree.cursor_line = 3
        tree.scroll_to(y=2, animate=False)
        await pilot.pause()
        region = Region(0, 0, tree.size.width, tree.size.height)

        def drawn() -> list[list[object]]:
            tree.refresh()  # every line drawn anew, not taken from a cache
            tree._line_cache.clear()
            return [list(strip) for strip in tree.render_lines(region)]

        ours = drawn()
        monkeypatch.setattr(TreeStyledOncePerDraw, "render_line", Tree.render_line)
        assert ours == drawn()
        monkeypatch.undo()
        assert tree.render_line(1) == Tree.render_line(tree, 1), "a line drawn alone: Textual's"
