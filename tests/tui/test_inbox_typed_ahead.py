"""Keys typed right after f4, before the inbox window is up (a fast typist: f4, enter and the
answer within a tenth of a second), are the window's, in order: enter goes into the
highlighted row and the words into its box, none dropped; an enter after them answers."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from textual import events

from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.inbox import InboxScreen
from agentui.tui.app.widgets.inbox_actions import InboxBox

from .helpers import app_when, settle

pytestmark = pytest.mark.anyio


def typed(app: AgentUIApp, text: str) -> None:
    for character in text:
        key = "space" if character == " " else character
        app.post_message(events.Key(key, character))


def the_box_holds(app: AgentUIApp, words: str) -> Callable[[], bool]:
    return lambda: isinstance(app.focused, InboxBox) and app.focused.text == words


async def test_enter_and_words_typed_with_f4_on_a_pane_land_in_the_row_s_box() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        app.main.tree_view.focus()  # on a pane f4 opens the window as it arrives
        await pilot.pause()
        app.post_message(events.Key("f4", None))  # f4, enter and the words: all queued at once
        app.post_message(events.Key("enter", None))
        typed(app, "Keep it small")
        await settle(pilot, the_box_holds(app, "Keep it small"))
        assert isinstance(app.screen, InboxScreen)
        assert app.main.model.open_queries, "nothing answered yet"


async def test_keys_arriving_before_the_window_is_up_are_taken_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        opened = app.inbox.open

        def open_then_typed_on() -> None:
            """The window is pushed, not yet up, and the keys come (from a text box too)."""
            opened()
            app.post_message(events.Key("enter", None))
            typed(app, "Rome 2")  # the 2 too: words in a box, not the row's button 2
            app.post_message(events.Key("enter", None))  # in the box: answers

        monkeypatch.setattr(app.inbox, "open", open_then_typed_on)
        await pilot.press("f4")
        await settle(pilot, lambda: not app.main.model.open_queries)
        answers = [e.detail for e in app.main.model.agents["a1"].entries if e.kind == "question"]
        assert answers == ["Rome 2"]
        assert isinstance(app.screen, InboxScreen), "answered from the window"
