"""Typing never fires a command: whole sentences holding every command letter, typed into each
place the person writes while agents run, arrive whole and change no agent."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widgets import TextArea

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.widgets.composer import Draft
from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock, ReasonInput

from .helpers import app_when, has_status, make_app, settle, toasts
from .test_approvals import pending_approval

pytestmark = pytest.mark.anyio

# Every command letter (p r s c d m n a f x t q), digits, y, space, ? and punctuation.
SENTENCE = "yes: pause, resume, steer, cancel? delete? modify! next fix tax quota 1 2 3"
HOLD = Turn(text="one two three four five six seven", hang_after_chunks=2)
ASK = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
# main holds mid-answer; every other agent asks a question.
RUNNING_AND_ASKING = Script(agents={"main": [HOLD], "*": [ASK, Turn(text="thanks")]})


def statuses(app: AgentUIApp) -> dict[str, S]:
    return {agent.id: agent.status for agent in app.main.model.agents.values()}


async def type_sentence(app: AgentUIApp, pilot: Pilot[int]) -> dict[str, S]:
    before = statuses(app)
    await pilot.press(*SENTENCE)
    await pilot.pause()
    app.main.flush_events()
    assert statuses(app) == before, "no agent changed status"
    assert not app.main.show_all and not app.main.monologue_selected_only, "no view key acted"
    assert len(app.screen_stack) == 1 or isinstance(app.screen, ModifyScreen), "no dialog"
    return before


async def test_the_task_prompt_takes_a_sentence_while_agents_run() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await type_sentence(app, pilot)
        assert app.main.prompt_view.value == SENTENCE


async def test_an_answer_box_takes_a_sentence_while_agents_run() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        assert isinstance(app.focused, AnswerInput), "the question took the cursor"
        await type_sentence(app, pilot)
        assert app.focused.value == SENTENCE


async def test_keys_typed_on_the_tree_go_into_the_answer_box_that_waits() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        box = app.focused
        assert isinstance(box, AnswerInput)
        app.main.tree_view.focus()
        await pilot.pause()
        await type_sentence(app, pilot)
        assert app.focused is box and box.value == SENTENCE, "the first key moved the cursor"


async def test_a_reject_reason_takes_a_sentence() -> None:
    async with pending_approval() as (app, pilot, runs):
        await pilot.press("3")
        assert isinstance(app.focused, ReasonInput)
        await type_sentence(app, pilot)
        assert app.focused.value == SENTENCE and runs == []


async def test_letters_typed_at_an_approval_itself_do_nothing() -> None:
    async with pending_approval() as (app, pilot, runs):
        assert isinstance(app.focused, ApprovalBlock)
        before = statuses(app)
        await pilot.press(*"no code needed, quit 1 2 3")
        await pilot.pause()
        assert statuses(app) == before and runs == [] and len(app.screen_stack) == 1
        # The first letter took the cursor to the prompt, with the words after it: the digits
        # in the sentence are words too. The approval waits.
        assert app.focused is app.main.prompt_view
        assert app.main.prompt_view.value == "no code needed, quit 1 2 3"
        assert app.main.model.open_queries, "the approval still waits"


async def test_the_modify_editor_takes_a_sentence() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen)
        editor = app.focused
        assert isinstance(editor, TextArea)
        await type_sentence(app, pilot)
        assert editor.text.endswith(SENTENCE)


async def test_a_steer_message_takes_a_sentence_and_reaches_the_agent() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        await pilot.press("s")
        assert app.focused is app.main.prompt_view and app.main.prompt_bar.mode.kind == "steer"
        await type_sentence(app, pilot)
        assert app.main.prompt_view.value == SENTENCE
        await pilot.press("enter")
        await settle(
            pilot, lambda: "steer" in [e.kind for e in app.main.model.agents["a1"].entries]
        )
        assert app.main.model.agents["a1"].status is S.RUNNING, "steering does not stop it"
        (steer,) = [e for e in app.main.model.agents["a1"].entries if e.kind == "steer"]
        assert steer.text == SENTENCE
        assert app.main.prompt_bar.mode.kind == "follow_up", "the prompt follows main's task again"


async def test_a_continue_message_takes_a_sentence() -> None:
    script = Script.for_all(Turn(text="first"), Turn(text="second"))
    async with app_when(has_status_a1(S.COMPLETED), "two parts", script) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.press("r")
        assert app.main.prompt_bar.mode.kind == "continue"
        await type_sentence(app, pilot)
        assert app.main.prompt_view.value == SENTENCE


def has_status_a1(status: S) -> Callable[[AgentUIApp], bool]:
    return lambda app: has_status(app, "a1", status)()


@asynccontextmanager
async def asking_beside_a_running_agent() -> AsyncIterator[tuple[AgentUIApp, Pilot[int]]]:
    """main runs (holding mid-answer) while its subagent main.1 waits for an answer, shown
    with the cursor in its box."""

    def ready(app: AgentUIApp) -> bool:
        if (
            app.host.runtime is not None
            and "a1" in app.main.model.agents
            and "a2" not in app.main.model.agents
        ):
            app.host.runtime.start("ask me", parent_id="a1")
        return bool(app.main.model.open_queries) and has_status(app, "a1", S.RUNNING)()

    async with app_when(ready, "hold", RUNNING_AND_ASKING) as (app, pilot):
        await pilot.press("ctrl+n")
        await pilot.pause()
        yield app, pilot


async def test_a_burst_of_keys_on_the_tree_lands_whole_in_the_waiting_box() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        box = app.focused
        assert isinstance(box, AnswerInput)
        app.main.tree_view.focus()
        await pilot.pause()
        # A paste without bracketed paste, or a fast typist: every key queued at once.
        for character in "museums, please":
            key = "space" if character == " " else ("comma" if character == "," else character)
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        assert box.value == "museums, please"
        assert app.main.model.agents["a1"].status is S.RUNNING


@pytest.mark.parametrize("opener", ["n", "s"], ids=["new-task", "steer"])
async def test_a_burst_of_words_after_the_key_that_opens_the_prompt_lands_whole(
    opener: str,
) -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.pause()
        # The key and the words after it queued at once (a paste, tmux, a fast typist): the
        # words must not reach the tree, where c cancels and d deletes.
        for character in opener + "ice day, cancel it":
            key = "space" if character == " " else ("comma" if character == "," else character)
            app.post_message(events.Key(key, character))
        await pilot.pause()
        await pilot.pause()
        assert app.main.prompt_view.value == "ice day, cancel it"
        assert len(app.screen_stack) == 1, "no dialog opened"
        assert app.main.model.agents["a1"].status is S.RUNNING


async def test_after_an_answer_the_cursor_is_back_in_the_prompt() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        await pilot.press(*"cake", "enter")
        await pilot.pause()
        assert app.focused is app.main.prompt_view, "keys typed next are words, not commands"
        await pilot.press(*"pause it")
        assert app.main.prompt_view.value == "pause it"
        assert app.main.model.agents["a1"].status is S.RUNNING


async def test_words_go_on_into_the_prompt_when_the_question_is_answered_elsewhere() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        box = app.focused
        assert isinstance(box, AnswerInput)
        await pilot.press(*"museums")
        (query_id,) = app.main.model.open_queries
        app.host.runtime.answer(query_id, "answered on another screen")  # type: ignore[union-attr]
        await settle(pilot, lambda: not app.main.model.open_queries)
        assert app.focused is app.main.prompt_view, (
            "its box is gone: the words go on into the prompt"
        )
        assert app.main.prompt_view.value == "museums", "and the words already in it are not lost"
        assert any("settled elsewhere" in t for t in toasts(app))
        await type_sentence(app, pilot)
        assert app.main.prompt_view.value == "museums" + SENTENCE


async def test_words_in_an_answer_box_settled_elsewhere_do_not_mix_into_a_prompt_in_use() -> None:
    async with asking_beside_a_running_agent() as (app, pilot):
        app.main.prompt_view.put_draft(Draft("my next task", {}))
        app.screen.set_focus(app.query_one(AnswerInput))
        await pilot.press(*"museums")
        (query_id,) = app.main.model.open_queries
        app.host.runtime.answer(query_id, "answered on another screen")  # type: ignore[union-attr]
        await settle(pilot, lambda: not app.main.model.open_queries)
        assert app.main.prompt_view.value == "my next task"
        assert any("you were typing: museums" in t for t in toasts(app))


async def test_words_typed_on_after_a_task_stay_whole_in_one_box() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        # Typed on at once, while the question is on its way.
        await pilot.press(*"Plan a trip", "enter", *"daytime only")
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        # The question takes the cursor only from an empty prompt: the words are never split
        # between the prompt and the answer box, and no letter ran a command.
        box = app.query_one(AnswerInput)
        assert sorted([app.main.prompt_view.value, box.value]) == ["", "daytime only"]
        assert len(app.screen_stack) == 1 and app.main.model.agents["a1"].status is S.AWAITING_USER


async def test_an_empty_tree_takes_words_for_the_prompt() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        app.main.tree_view.focus()
        await pilot.press(*"this is my task")
        assert (
            app.focused is app.main.prompt_view and app.main.prompt_view.value == "this is my task"
        )
        assert len(app.screen_stack) == 1, "t opened no theme picker, q no dialog"


async def test_a_reason_box_put_away_takes_no_keys_typed_on_the_tree() -> None:
    async with pending_approval() as (app, pilot, _runs):
        await pilot.press("3", *"too risky", "escape")
        reason = app.query_one(ReasonInput)
        assert not reason.display and reason.value == "too risky"
        app.main.tree_view.focus()
        await pilot.press("m")
        assert isinstance(app.screen, ModifyScreen), "m is the tree's again"
        await pilot.press("escape")
        assert app.query_one(ReasonInput).value == "too risky", "the reason is kept for later"


async def test_words_typed_right_after_enter_are_the_next_task_s_not_wiped() -> None:
    """Keys typed the moment after enter reach the prompt before the task it sent is taken:
    taking it must leave them (a fast typist lost the first letters of the next task)."""
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t")  # a new task beside main, asked for on purpose
        for character in "plan it" + "\r" + "and more":
            key = {" ": "space", "\r": "enter"}.get(character, character)
            app.post_message(events.Key(key, None if key == "enter" else character))
        await pilot.pause()
        await pilot.pause()
        assert app.main.prompt_view.value == "and more"
        await settle(
            pilot, lambda: any(a.task == "plan it" for a in app.main.model.agents.values())
        )
