"""One overlay at a time, and the focus back where the keys work when one closes."""

from __future__ import annotations

import pytest
from textual.command import CommandPalette
from textual.widgets import Button

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock

from .helpers import a1_is, app_when, make_app, settle, toasts
from .test_approvals import pending_approval

pytestmark = pytest.mark.anyio

HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


async def test_palette_quit_palette_does_not_crash_or_stack() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("ctrl+p", "ctrl+q", "ctrl+p")
        await pilot.pause()
        assert app.is_running
        kinds = [type(screen) for screen in app.screen_stack[1:]]
        assert kinds.count(CommandPalette) <= 1 and kinds.count(ConfirmScreen) <= 1
        assert len(app.screen_stack) == 2, "one overlay at a time"


async def test_repeated_ctrl_q_never_stacks_quit_dialogs() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("ctrl+q")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("escape", "ctrl+q", "escape", "ctrl+q")
        assert len(app.screen_stack) == 2
        runtime = app.host.runtime
        await pilot.press("ctrl+q")  # the second press on the dialog confirms
        await pilot.pause()
    assert app.return_code == 0
    assert runtime is not None and runtime.node("a1").status is S.CANCELLED


async def test_overlays_that_only_show_give_way_and_dialogs_do_not() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+p")  # help only shows: the palette replaces it
        assert isinstance(app.screen, CommandPalette) and len(app.screen_stack) == 2
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        await pilot.press("ctrl+p", "f1")  # typed text is open: nothing opens over it
        assert isinstance(app.screen, ModifyScreen) and len(app.screen_stack) == 2


async def test_closing_modify_gives_the_keys_back_to_a_place_where_they_work() -> None:
    async with pending_approval() as (app, pilot, runs):
        app.main.tree_view.focus()
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is app.main.tree_view, "back where it was"
        await pilot.press("ctrl+n")
        assert isinstance(app.focused, ApprovalBlock)
        # From the approval, through the palette: modify opens, and its block is rebuilt
        # (the old one is gone) while the window is open.
        await pilot.press("ctrl+p", *"Modify", "enter")
        await pilot.pause()
        assert isinstance(app.screen, ModifyScreen)
        app.main.show_transcript()
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.focused, ApprovalBlock) and app.focused.entry.open
        assert app.active_bindings["1"].binding.show, "the footer offers the choices again"
        await pilot.press(*"no code needed")  # prose after the dialog: words in the prompt
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        assert app.main.prompt_view.text == "no code needed"
        await pilot.press("ctrl+n", "1")  # back to the approval, on purpose
        await settle(pilot, lambda: runs == ["prod"])


async def test_closing_an_overlay_returns_to_the_place_it_came_from() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press(*"half a task", "f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is app.main.prompt_view and app.main.prompt_view.value == "half a task"


async def test_ctrl_n_with_nobody_waiting_says_so() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("ctrl+n")
        await pilot.pause()
        assert any("Nobody is waiting" in t for t in toasts(app))


async def test_ctrl_c_says_how_to_quit_in_plain_words() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("ctrl+c")
        await pilot.pause()
        said = toasts(app)
        assert "Press ctrl+q to quit the app" in said and not any("[b]" in m for m in said)


async def test_the_palette_shows_keys_as_people_write_them() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, _pilot):
        helps = {c.help for c in app.get_system_commands(app.screen)}
        assert "key: ?" in helps and "key: esc" in helps
        assert not any("question_mark" in h or "escape" in h for h in helps)


async def test_the_quit_question_counts_agents_when_it_is_answered() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("q")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "1 agent is not finished" in dialog._question
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)
        assert (
            dialog._question
            == "Every agent has finished meanwhile: quitting now loses nothing. Quit?"
        )


async def test_the_start_screen_says_how_to_quit() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        assert app.focused is app.main.prompt_view
        assert "ctrl+q quits" in app.main.prompt_view.placeholder
        await pilot.press("ctrl+q")
        await pilot.pause()
    assert app.return_code == 0


async def test_a_question_that_arrives_under_a_dialog_takes_the_cursor_when_it_closes() -> None:
    ask = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    script = Script(agents={"main": [Turn(text="one two three", hang_after_chunks=1)], "*": [ask]})
    async with app_when(a1_is(S.RUNNING), "hold", script) as (app, pilot):
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        assert app.host.runtime is not None
        app.host.runtime.start("ask", parent_id=None)
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert isinstance(app.screen, HelpScreen), "the dialog stays until the person closes it"
        app.main.select("a2")
        await pilot.press("escape")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.focused, AnswerInput)


async def test_a_dialog_shows_its_own_keys_in_a_footer() -> None:
    from textual.widgets import Footer

    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("d")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog.query(Footer), "the footer below the dialog is the dialog's"
        shown = {key: b.binding.description for key, b in dialog.active_bindings.items()}
        assert "p" not in shown
        # esc closes it, which is the safe answer (not "Keep / stay" for either dialog)
        assert shown.get("escape") == "Close" and dialog.active_bindings["escape"].binding.show
        assert str(dialog.query_one("#safe", Button).label) == "Keep (esc)"


async def test_an_empty_tree_offers_no_letter_in_its_footer() -> None:
    """Letters typed on an empty tree go into the prompt (they are the words of a task): the
    footer must not offer ? or q there."""
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.press("escape")  # from the prompt to the tree
        assert app.focused is app.main.tree_view
        offered = {k for k, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert not {"question_mark", "q", "n", "a"} & offered
        await pilot.press("q")
        assert app.main.prompt_view.text == "q", "the letter is a word for the prompt"


async def test_the_palette_s_interrupt_acts_at_once() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        (interrupt,) = [
            c for c in app.get_system_commands(app.screen) if c.title.startswith("Interrupt")
        ]
        interrupt.callback()
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)


async def test_quitting_with_words_in_the_prompt_asks_first() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.press(*"a task not sent yet", "escape")  # to the tree; the words stay
        app.main.transcript_view.focus()
        await pilot.pause()
        await pilot.press("q")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "not been sent" in dialog._question
        await pilot.press("escape")  # Stay
        await pilot.pause()
        assert app.main.prompt_view.text == "a task not sent yet"


async def test_f2_without_a_scene_says_why_nothing_opens() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("f2")
        await pilot.pause()
        assert any("No directed scene" in t for t in toasts(app))


async def test_a_quit_does_not_throw_away_the_modify_window_s_edits() -> None:
    """Nothing left to cancel (its agent ended meanwhile, or the screen is attached): ctrl+q
    still refuses while the Modify window holds edits not applied."""
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        await pilot.press(*" with bows")
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, ModifyScreen), "the edits are still there to apply"
        assert any("Close the Modify window first" in t for t in toasts(app))


async def test_the_quit_question_names_unsent_words_beside_running_agents() -> None:
    async with app_when(a1_is(S.RUNNING), "hold", HOLD) as (app, pilot):
        app.screen.set_focus(app.main.prompt_view)
        await pilot.press(*"a newsletter draft", "escape", "q")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert "not been sent" in dialog._question and "Quit and cancel it?" in dialog._question


async def test_while_an_answer_box_waits_the_panes_offer_no_letter() -> None:
    """Letters typed on a pane then go into the box: the footer offers what still works."""
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        await pilot.press(*"Keep it cozy", "escape")  # leaves the box; the question waits
        assert app.focused is app.main.prompt_view
        await pilot.press("escape")  # from the prompt to the tree, on purpose
        assert app.focused is app.main.tree_view
        offered = {k for k, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert not {"p", "q", "question_mark", "c", "d", "m", "s", "n"} & offered
        assert "enter" in offered, "enter still goes to the question"
        await pilot.press("q")
        assert isinstance(app.focused, AnswerInput) and app.focused.value == "Keep it cozyq"
