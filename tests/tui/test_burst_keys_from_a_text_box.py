"""Keys typed in one burst from a text box (a fast typist, or a terminal that hands a paste
over as separate keys): a key that opens something or moves the cursor (f4 the inbox, f1
help, ctrl+t a new task, ctrl+n the next question) acts before the keys behind it, which
belong to where it went. Behind f4 in an empty answer box, enter went into that box and
declined the question; behind f4 in the prompt, it sent the prompt's words."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import TextArea

from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.inbox import InboxScreen
from agentui.tui.app.widgets.inbox_actions import InboxBox

from .helpers import a1_is, app_when, settle, write

# main writes two chunks and waits: running, with no question, as long as the test needs.
HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))

pytestmark = pytest.mark.anyio


def burst(app: AgentUIApp, *keys: str, text: str = "") -> None:
    """Every key in the app's queue at once, as a terminal hands a burst over: the named
    keys, then `text` typed."""
    for key in keys:
        app.post_message(events.Key(key, None))
    for character in text:
        app.post_message(events.Key("space" if character == " " else character, character))


def question_waits(app: AgentUIApp) -> bool:
    return bool(app.main.model.open_queries)


def asked(app: AgentUIApp) -> bool:
    """main's question waits, and the inbox lists it (the status bar reads its rows)."""
    return question_waits(app) and app.inbox.waiting


def answers(app: AgentUIApp) -> list[str]:
    return [e.detail for e in app.main.model.agents["a1"].entries if e.kind == "question"]


async def test_f4_enter_and_words_from_the_answer_box_land_in_the_inbox_row() -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        assert app.main.focused_query() is not None, "the question's answer box has the cursor"
        answer_box = app.focused
        burst(app, "f4", "enter", text="yes please")
        await settle(
            pilot, lambda: isinstance(app.focused, InboxBox) and app.focused.text == "yes please"
        )
        assert isinstance(app.screen, InboxScreen)
        assert question_waits(app), "nothing declined the question"
        assert answer_box is not None and getattr(answer_box, "text", None) == ""


async def test_f4_enter_and_words_from_the_prompt_land_in_the_inbox_row() -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        app.main.addressing.focus_prompt()
        await write(pilot, "my own draft")
        burst(app, "f4", "enter", text="yes please")
        await settle(
            pilot, lambda: isinstance(app.focused, InboxBox) and app.focused.text == "yes please"
        )
        assert question_waits(app), "nothing answered or declined the question"
        assert app.main.prompt_view.text == "my own draft", "the prompt's words were not sent"


@pytest.mark.parametrize("opener", ["f4", "f1", "ctrl+t"])
async def test_enter_behind_a_key_that_leaves_the_empty_answer_box_does_not_decline(
    opener: str,
) -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        answer_box = app.focused
        assert app.main.focused_query() is not None
        burst(app, opener, "enter")
        await settle(pilot, lambda: app.focused is not answer_box)
        await pilot.pause()
        app.main.flush_events()
        assert question_waits(app), f"enter behind {opener} declined the question"
        if opener == "f1":
            assert isinstance(app.screen, HelpScreen)


async def test_ctrl_n_and_an_answer_from_the_prompt_answer_the_question() -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        app.main.addressing.focus_prompt()
        await write(pilot, "my own draft")
        burst(app, "ctrl+n", text="Rome")
        app.post_message(events.Key("enter", None))
        await settle(pilot, lambda: not question_waits(app))
        assert answers(app) == ["Rome"]
        assert app.main.prompt_view.text == "my own draft", "the prompt's words stay its own"


async def test_keys_before_f4_stay_in_the_answer_box_and_those_after_go_to_the_inbox() -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        answer_box = app.focused
        assert isinstance(answer_box, TextArea)
        burst(app, text="Ro")
        burst(app, "f4", "enter", text="yes")
        await settle(pilot, lambda: isinstance(app.focused, InboxBox) and app.focused.text == "yes")
        assert answer_box.text == "Ro", "typed before f4: the answer box's"
        assert question_waits(app)


async def test_keys_typed_in_a_steer_before_ctrl_t_are_not_the_new_task_s() -> None:
    async with app_when(a1_is(AgentStatus.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("s")  # the prompt steers main
        assert app.main.prompt_bar.mode.kind == "steer" and app.focused is app.main.prompt_view
        burst(app, text="use less")
        burst(app, "ctrl+t", text="new")  # all in the app's queue before the prompt takes one
        await settle(pilot, lambda: app.main.prompt_bar.mode.kind == "task")
        await settle(pilot, lambda: app.main.prompt_view.text.endswith("new"))
        assert app.main.prompt_view.text == "new", "the steer's words stayed the steer's"


@pytest.mark.parametrize("opener", ["f1", "f4"])
async def test_esc_behind_a_window_key_closes_it_and_the_letters_after_are_the_box_s(
    opener: str,
) -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        answer_box = app.focused
        assert isinstance(answer_box, TextArea)
        burst(app, opener, "escape", text="abc")  # opened, closed, and typing on
        await settle(pilot, lambda: answer_box.text == "abc")
        assert app.screen is app.main and app.focused is answer_box
