"""Keys in the inbox act only on the row the person meant: a row that leaves while they type
in its box hands their keys to no other row (the highlight moves under their fingers); two
enters on an approval decide nothing (its digits or a click do, as inline); letters go into
the box of the row the person went into, never of a row the highlight only rests on."""

from __future__ import annotations

import pytest

from agentui.tui.app.widgets.inbox_actions import InboxBox
from agentui.tui.app.widgets.inbox_rows import InboxList

from .helpers import app_when, runtime_of, settle, toasts, write
from .inbox_helpers import every_kind, highlight, mixed_app, open_inbox

pytestmark = pytest.mark.anyio


async def test_keys_typed_on_after_the_row_left_act_on_no_other_row() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        runtime = await runtime_of(pilot)
        screen = await open_inbox(pilot)
        listing = screen.query_one(InboxList)
        highlight(screen, "q1")  # main.1 and main.2 ask "Which city?"; the approval q3 is next
        await pilot.pause()
        await pilot.press("enter")
        assert isinstance(app.focused, InboxBox)
        await write(pilot, "Room ")
        # Its askers are cancelled elsewhere (another front end, a parent) while they type.
        runtime.cancel("a2")
        runtime.cancel("a3")
        await settle(pilot, lambda: listing.highlighted_id == "q3" and app.focused is listing)
        assert screen.keeper.reading, "as after a click: the digits are off"
        assert any("was settled elsewhere" in toast for toast in toasts(app))
        await pilot.press(*"12")  # they go on typing "Room 12"
        # esc turns the digits on, and 3 opens the approval's reason box: whatever the keys
        # before it did has been done by then.
        await pilot.press("escape", "3")
        await settle(
            pilot, lambda: isinstance(app.focused, InboxBox) and app.focused.id == "reason"
        )
        assert app.focused.text == "", "the words went into no other row's box"
        assert runs == [] and "q3" in app.main.model.open_queries, "the approval is undecided"


async def test_two_enters_on_an_approval_row_decide_nothing() -> None:
    runs: list[str] = []
    app = mixed_app(runs)
    async with app.run_test(size=(120, 40)) as pilot:
        await every_kind(pilot)
        screen = await open_inbox(pilot)
        highlight(screen, "q3")
        await pilot.pause()
        await pilot.press("enter")
        assert app.focused is not None and app.focused.id == "goto", "on nothing that decides"
        await pilot.press("enter")  # "Go to it": its approval, inline, with the cursor
        await settle(pilot, lambda: app.screen is app.main and app.main.focused_query() == "q3")
        assert runs == [] and "q3" in app.main.model.open_queries


async def test_letters_go_into_no_box_of_a_row_only_highlighted() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        screen = await open_inbox(pilot)
        box = screen.query_one("#answer", InboxBox)
        await pilot.press(*"Keep")
        assert box.text == "" and isinstance(app.focused, InboxList)
        assert any("enter goes into a row" in toast for toast in toasts(app))
        await pilot.press("enter", *"Keep it small")  # into the row: now they are its words
        assert box.text == "Keep it small"
