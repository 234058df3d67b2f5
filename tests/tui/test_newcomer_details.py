"""What a newcomer meets first: the empty panes say what goes there at every size, the typing
footer says how to get help (f1: a text box takes ?), the modify window puts added words on a
line of their own, and a dialog does not say "Keep / stay"."""

from __future__ import annotations

import html

import pytest
from textual.widgets import TextArea

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.screens.modify import ModifyScreen

from .helpers import a1_is, app_when, make_app, settle, toasts

pytestmark = pytest.mark.anyio


def screen_text(app: object) -> str:
    """The words on screen (the screenshot's text runs, spaces as typed)."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")  # type: ignore[attr-defined]


HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


@pytest.mark.parametrize("size", [(80, 24), (120, 40), (200, 50)])
async def test_the_empty_panes_each_say_what_goes_there(size: tuple[int, int]) -> None:
    app = make_app()
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        screen = screen_text(app)
        assert "No agents yet." in screen
        assert "Type a task in the prompt below" in screen
        if size[0] >= 100:  # the monologue pane is hidden below 100 columns
            assert "monologue is off" in screen  # the tests turn it off


async def test_the_hints_go_once_a_task_runs() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.pause()
        screen = screen_text(app)
        assert "No agents yet." not in screen and "Type a task in the prompt below" not in screen


async def test_the_typing_footer_offers_help_and_a_new_task() -> None:
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        shown = {
            key: b.binding.description
            for key, b in app.screen.active_bindings.items()
            if b.binding.show
        }
        assert shown.get("f1") == "Help" and shown.get("ctrl+t") == "New task"
        await pilot.press("f1")
        assert type(app.screen).__name__ == "HelpScreen"


async def test_words_added_in_the_modify_window_start_on_a_line_of_their_own() -> None:
    async with app_when(a1_is(S.RUNNING), "Plan a launch", HOLD) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        editor = app.focused
        assert isinstance(editor, TextArea)
        await pilot.press(*"Focus on press")
        assert editor.text == "Plan a launch\nFocus on press"
        await pilot.press("ctrl+s")
        await settle(
            pilot, lambda: app.main.model.agents["a1"].task == "Plan a launch\nFocus on press"
        )


async def test_a_modify_window_applied_untouched_changes_nothing() -> None:
    async with app_when(a1_is(S.RUNNING), "Plan a launch", HOLD) as (app, pilot):
        await pilot.press("m")
        await pilot.press("ctrl+s")
        await pilot.pause()
        app.main.flush_events()
        assert app.main.model.agents["a1"].pending_modification is None
        assert app.main.model.agents["a1"].task == "Plan a launch"


async def test_a_steer_sent_to_a_paused_agent_says_how_to_resume_it() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("p")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.PAUSED)
        await pilot.press("s", *"mention the budget", "enter")
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        assert any("is paused: it reads your message when it resumes" in t for t in toasts(app))
        # Resumed, it reads the message: the toast would say something no longer true.
        app.main.tree_view.focus()
        await pilot.press("r")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.RUNNING)
        app.main.flush_events()
        await pilot.pause()
        assert not any("is paused" in t for t in toasts(app))


async def test_a_scene_root_s_prompt_says_the_words_answer_its_question() -> None:
    from .test_scene_app import scene_app

    app = scene_app()
    async with app.run_test(size=(160, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert "your words answer its question" in app.main.prompt_view.placeholder
