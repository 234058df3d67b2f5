"""Typing never fires a command, after an overlay too: closing the inbox once the approval or
question that had the cursor is settled puts the cursor in the prompt, never on the tree with
its letters live; a digit inside a typed sentence decides no approval, inline or in the inbox.
(Found in a hands-on pass in tmux: `f4`, `1`, `esc`, then "could it be a pun" cancelled main.)"""

from __future__ import annotations

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import Input

from agentui.core.agent.budget import Budget
from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.budget import BudgetScreen
from agentui.tui.app.widgets.inbox_actions import InboxBox
from agentui.tui.app.widgets.inbox_rows import InboxList
from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock

from ..core.helpers import deploy_tool
from .helpers import app_when, has_status, settle, toasts
from .inbox_helpers import open_inbox
from .test_budget import budget_app, stopped

pytestmark = pytest.mark.anyio

DEPLOY = Turn(tool_calls=[ScriptedToolCall(name="deploy", arguments={"target": "prod"})])
ASK = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
HOLD = Turn(text="one two three four five six", hang_after_chunks=1)
# main asks to deploy, then holds mid-answer (it runs on: c would cancel it).
DEPLOY_THEN_HOLD = Script(agents={"main": [DEPLOY, HOLD]})
ASK_THEN_HOLD = Script(agents={"main": [ASK, HOLD]})
# Every command letter of the tree (p r s c d m n a f x t q), as the tester typed.
SENTENCE = "could it be a pun? pause, resume, steer, delete, modify, next fix tax quota"


def statuses(app: AgentUIApp) -> dict[str, S]:
    return {agent.id: agent.status for agent in app.main.model.agents.values()}


async def typed_as_words(app: AgentUIApp, pilot: Pilot[int], text: str = SENTENCE) -> None:
    """`text` typed key by key lands whole in the prompt, and no agent or dialog moved."""
    before = statuses(app)
    await pilot.press(*text)
    await pilot.pause()
    app.main.flush_events()
    assert len(app.screen_stack) == 1, "no dialog opened"
    assert statuses(app) == before, "no agent changed status"
    assert app.main.prompt_view.value == text


def running_and_asking(app: AgentUIApp) -> bool:
    return bool(app.main.model.open_queries) and "a1" in app.main.model.agents


async def test_closing_the_inbox_after_deciding_the_approval_puts_the_cursor_in_the_prompt() -> (
    None
):
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        assert isinstance(app.focused, ApprovalBlock), "the approval has the cursor"
        await open_inbox(pilot)
        await pilot.press("1")  # allow once, from the inbox
        await settle(pilot, lambda: not app.main.model.open_queries and runs == ["prod"])
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        await pilot.press("escape")
        await settle(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.pause()
        assert app.focused is app.main.prompt_view, "not the tree: its letters are commands"
        await typed_as_words(app, pilot)


async def test_closing_the_inbox_after_answering_the_question_puts_the_cursor_in_the_prompt() -> (
    None
):
    async with app_when(running_and_asking, "Plan it", ASK_THEN_HOLD) as (app, pilot):
        assert isinstance(app.focused, AnswerInput), "the question has the cursor"
        await open_inbox(pilot)
        await pilot.press("enter", *"cake", "enter")
        await settle(pilot, lambda: not app.main.model.open_queries)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        await pilot.press("escape")
        await settle(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        await typed_as_words(app, pilot)


async def test_closing_any_overlay_after_the_approval_was_decided_meanwhile() -> None:
    """The rule is the overlays', not the inbox's: help open while the approval is decided
    elsewhere (another front end) gives the cursor to the prompt when it closes."""
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        assert isinstance(app.focused, ApprovalBlock)
        await pilot.press("f1")
        await settle(pilot, lambda: len(app.screen_stack) == 2)
        runtime = app.host.runtime
        assert runtime is not None
        runtime.approve(next(iter(app.main.model.open_queries)), "once")
        await settle(pilot, lambda: not app.main.model.open_queries and runs == ["prod"])
        await pilot.press("escape")
        await settle(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        await typed_as_words(app, pilot)


async def test_a_digit_typed_after_a_letter_at_an_approval_is_a_word_in_the_prompt() -> None:
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        assert isinstance(app.focused, ApprovalBlock), "the approval took the empty prompt's cursor"
        await pilot.press(*"use 2 sources")
        await pilot.pause()
        app.main.flush_events()
        assert app.main.prompt_view.value == "use 2 sources", "the words, whole, in the prompt"
        assert app.focused is app.main.prompt_view
        assert runs == [] and len(app.main.model.open_queries) == 1, "the approval still waits"
        assert any("ctrl+n" in toast for toast in toasts(app)), "said where the approval is"
        await pilot.press("ctrl+n")  # back to it, on purpose: its digits act again
        await pilot.pause()
        assert isinstance(app.focused, ApprovalBlock)


async def test_a_digit_typed_after_a_letter_in_the_inbox_presses_nothing() -> None:
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        screen = await open_inbox(pilot)
        assert isinstance(screen.focused, InboxList), "the approval row is highlighted"
        await pilot.press(*"only if it takes 2 seconds")
        await pilot.pause()
        app.main.flush_events()
        assert runs == [] and len(app.main.model.open_queries) == 1, "no button was pressed"
        assert screen.keeper.reading, "the digits are off, as after a click"
        assert any("esc" in toast and "digits" in toast for toast in toasts(app))
        await pilot.press("escape")  # the digits on again (the window stays)
        assert app.screen is screen and not screen.keeper.reading
        await pilot.press("1")
        await settle(pilot, lambda: runs == ["prod"])


async def test_the_inbox_footer_after_a_click_offers_the_digits_back() -> None:
    async with app_when(running_and_asking, "Plan it", ASK_THEN_HOLD) as (_app, pilot):
        screen = await open_inbox(pilot)
        await pilot.click(InboxList)
        await pilot.pause()
        assert screen.keeper.reading
        shown = {
            b.binding.description
            for b in screen.active_bindings.values()
            if b.binding.show and b.enabled
        }
        assert "Digits on" in shown and "Keys on" not in shown
        assert isinstance(screen.focused, InboxList | InboxBox)


async def test_closing_the_inbox_after_raising_a_budget_from_its_row_keeps_the_prompt() -> None:
    async with budget_app().run_test(size=(110, 30)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        app.main.addressing.focus_prompt()
        await pilot.pause()
        screen = await open_inbox(pilot)
        await pilot.press("1")  # Raise the budget…
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        box = app.screen.query_one("#limits", Input)
        box.value = "tokens=100000"
        await pilot.press("enter")
        await settle(pilot, lambda: app.screen is screen)
        await settle(pilot, lambda: app.main.model.agents["a1"].budget_stop is None)
        await pilot.press("escape")
        await settle(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        await typed_as_words(app, pilot)


async def test_a_decision_that_lands_after_the_inbox_closed_leaves_the_cursor_in_the_prompt(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """On an attached screen the decision comes back after an HTTP round trip: the inbox may
    be closed (the cursor back on the approval) before the approval closes."""
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        runtime = app.host.runtime
        assert runtime is not None
        in_flight: list[tuple[str, str]] = []
        decide = runtime.approve
        monkeypatch.setattr(runtime, "approve", lambda q, c, r=None: in_flight.append((q, c)))
        await open_inbox(pilot)
        await pilot.press("1", "escape")
        await settle(pilot, lambda: len(app.screen_stack) == 1)
        await pilot.pause()
        assert isinstance(app.focused, ApprovalBlock), "it still waits: back on it"
        ((query_id, choice),) = in_flight
        decide(query_id, choice)  # the round trip ends
        await settle(pilot, lambda: not app.main.model.open_queries and runs == ["prod"])
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        assert app.focused is app.main.prompt_view, "not the tree: its letters are commands"
        await typed_as_words(app, pilot)


async def test_words_typed_as_an_approval_is_promised_the_cursor_stay_whole_in_the_prompt() -> None:
    """The approval arrived while the prompt was empty and takes the cursor at the next
    refresh: the person already typing words goes on typing words, digits and all."""
    runs: list[str] = []
    opened = app_when(running_and_asking, "Ship it", DEPLOY_THEN_HOLD, tools=[deploy_tool(runs)])
    async with opened as (app, pilot):
        app.main.addressing.focus_prompt()
        await pilot.pause()
        (query_id,) = app.main.model.open_queries
        app.main.keys.cursor_promised_to = query_id  # as _questions_arrived promises it
        await pilot.press(*"use 2 sources")
        await pilot.pause()
        assert app.main.prompt_view.value == "use 2 sources"
        assert runs == [] and query_id in app.main.model.open_queries, "nothing decided"


async def test_words_typed_right_after_enter_on_the_tree_are_the_answer_s_not_sent() -> None:
    """enter on a waiting agent, then the answer typed at once (queued behind it): the words
    go into the answer box it opens, and wait there for the person's own enter."""
    async with app_when(running_and_asking, "Plan it", ASK_THEN_HOLD) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.pause()
        for key, character in [("enter", None), *((c, c) for c in "cake")]:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        app.main.flush_events()
        assert isinstance(app.focused, AnswerInput) and app.focused.value == "cake"
        assert app.main.model.open_queries, "not answered: the person has not pressed enter"


async def test_limits_typed_right_after_enter_on_a_budget_stop_land_in_its_window() -> None:
    async with budget_app().run_test(size=(80, 24)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        app.main.tree_view.focus()
        await pilot.pause()
        app.post_message(events.Key("enter", None))
        for character in "tokens=20000":
            key = "equals_sign" if character == "=" else character
            app.post_message(events.Key(key, character))
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        await pilot.pause()
        assert len(app.screen_stack) == 2, "no theme picker (t) over it"
        assert app.screen.query_one("#limits", Input).value == "tokens=20000"


async def test_words_typed_right_after_ctrl_n_on_the_tree_go_to_the_question() -> None:
    """ctrl+n from the tree to a subagent's question not on screen, then the answer typed at
    once (queued behind it): its box takes them; c of "cake" cancelled main and its subagent."""

    def asking_below(app: AgentUIApp) -> bool:
        runtime, agents = app.host.runtime, app.main.model.agents
        if runtime is not None and "a1" in agents and "a2" not in agents:
            runtime.start("ask me", parent_id="a1")
        return bool(app.main.model.open_queries) and has_status(app, "a1", S.RUNNING)()

    async with app_when(asking_below, "hold", Script(agents={"main": [HOLD], "*": [ASK]})) as (
        app,
        pilot,
    ):
        app.main.select("a1")  # main's transcript: the question's box is not on screen
        app.main.tree_view.focus()
        await pilot.pause()
        before = statuses(app)
        for key, character in [("ctrl+n", None), *((c, c) for c in "cake")]:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        app.main.flush_events()
        assert statuses(app) == before, "no agent cancelled"
        assert isinstance(app.focused, AnswerInput) and app.focused.value == "cake"


@pytest.mark.parametrize("opener", ["f4", "f1"], ids=["inbox", "help"])
async def test_words_typed_right_after_a_key_that_opens_a_window_command_nothing(
    opener: str,
) -> None:
    async with app_when(has_status_a1_running, "hold", HOLDING) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.pause()
        before = statuses(app)
        for key, character in [(opener, None), *((c, c) for c in "cancel it")]:
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        app.main.flush_events()
        assert statuses(app) == before, "no agent cancelled"
        assert len(app.screen_stack) == 2, "the window it opened, and no other"


HOLDING = Script(agents={"main": [HOLD]})


def has_status_a1_running(app: AgentUIApp) -> bool:
    return has_status(app, "a1", S.RUNNING)()


async def test_a_click_on_go_to_it_leaves_the_letters_off_on_the_tree() -> None:
    """A click is for reading, in the inbox too: "Go to it" clicked on a budget row selects
    its agent on the tree, and a sentence typed next goes into the prompt, not to commands."""
    async with budget_app().run_test(size=(110, 30)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        await open_inbox(pilot)
        await pilot.click("#goto")
        await settle(pilot, lambda: app.screen is app.main and app.focused is app.main.tree_view)
        assert app.keeper.reading, "letters off, as after any click"
        await typed_as_words(app, pilot, "cancel it, delete it")
