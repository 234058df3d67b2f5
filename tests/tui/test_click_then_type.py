"""A click never arms the letters: after a real mouse click anywhere on the main screen, a
sentence holding every command letter lands in a text box (or nowhere) and runs no agent or view
command. The letters act again only after a deliberate key (esc on what the click focused, tab,
ctrl+n, enter)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from textual import events
from textual.pilot import Pilot
from textual.widget import Widget

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.keymap import key_action, pane_action
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.query_blocks import ApprovalBlock
from agentui.tui.app.widgets.status_bar import StatusBar

from .helpers import has_status, make_app, settle, toasts
from .test_approvals import pending_approval
from .test_history_and_replay import _recorded_run

pytestmark = pytest.mark.anyio

# Every command letter (p r s c d m n a f x t q), digits, y, space, ? and punctuation.
SENTENCE = "can you: pause, resume, steer? delete! modify, next fix tax quota 1 2 3 yes"
HOLD = Turn(text="one two three four five six seven", hang_after_chunks=2)
# main and its subagents hold mid-answer: everything stays live while the keys are typed.
ALL_HOLD = Script(agents={"*": [HOLD]})


def statuses(app: AgentUIApp) -> dict[str, S]:
    return {agent.id: agent.status for agent in app.main.model.agents.values()}


@asynccontextmanager
async def subagents_running() -> AsyncIterator[tuple[AgentUIApp, Pilot[int]]]:
    """main and two subagents streaming, the keys on the tree as if chosen with the keyboard
    (its letters act there): the click is what must turn them off."""

    def ready(app: AgentUIApp) -> bool:
        if (
            app.host.runtime is not None
            and "a1" in app.main.model.agents
            and "a2" not in app.main.model.agents
        ):
            app.host.runtime.start("look around", parent_id="a1")
            app.host.runtime.start("look further", parent_id="a1")
        return all(has_status(app, a, S.RUNNING)() for a in ("a1", "a2", "a3"))

    app = make_app("hold", ALL_HOLD)
    async with app.run_test(size=(120, 40)) as pilot:  # wide enough for the monologue pane
        await settle(pilot, lambda: ready(app))
        app.main.tree_view.focus()
        await pilot.pause()
        assert not app.keeper.reading
        yield app, pilot


async def type_after_click(app: AgentUIApp, pilot: Pilot[int]) -> None:
    before = statuses(app)
    await pilot.press(*SENTENCE)
    await pilot.pause()
    app.main.flush_events()
    assert statuses(app) == before, "no agent changed status"
    assert not app.main.show_all and not app.main.monologue_selected_only, "no view key acted"
    assert len(app.screen_stack) == 1, "no dialog opened"


async def footer_key(pilot: Pilot[int], action: str) -> Widget:
    """The footer's key for `action` once the footer shows what it should: a focus change
    rebuilds it after a refresh, and a click on a key it has just replaced reaches nothing."""
    footer = pilot.app.query_one(KeyFooter)
    await settle(pilot, lambda: footer._composed == footer._showing())
    (key,) = [k for k in footer.query("FooterKey") if getattr(k, "action", "") == action]
    return key


def tree_row(app: AgentUIApp, agent_id: str) -> tuple[int, int]:
    """Where the agent's row is, in the tree's own coordinates (inside its border)."""
    node = app.main.tree_view._agent_nodes[agent_id]
    top = app.main.tree_view.styles.border_top[0] != ""
    return (6, node.line - app.main.tree_view.scroll_offset.y + int(top))


@pytest.mark.painted
@pytest.mark.parametrize(
    "where",
    ["tree row", "transcript", "monologue", "status bar", "prompt label"],
)
async def test_a_sentence_typed_after_a_click_lands_in_the_prompt(where: str) -> None:
    async with subagents_running() as (app, pilot):
        targets: dict[str, tuple[Widget | str, tuple[int, int]]] = {
            "tree row": (app.main.tree_view, tree_row(app, "a1")),
            "transcript": (app.main.transcript_view, (5, 3)),
            "monologue": (app.main.monologue_view, (5, 3)),
            "status bar": (app.query_one(StatusBar), (2, 0)),
            "prompt label": ("#prompt-label", (1, 0)),
        }
        widget, offset = targets[where]
        await pilot.click(widget, offset=offset)
        await type_after_click(app, pilot)
        assert app.main.prompt_view.text.endswith(SENTENCE), "the sentence is words in the prompt"
        assert app.focused is app.main.prompt_view


@pytest.mark.painted
async def test_a_click_on_the_tree_selects_the_agent_and_keeps_the_letters_off() -> None:
    async with subagents_running() as (app, pilot):
        await pilot.click(app.main.tree_view, offset=tree_row(app, "a2"))
        assert app.main.selected_id == "a2", "a click selects, as a person expects"
        assert app.keeper.reading and app.screen.has_class("-reading")
        footer_actions = {b.action for _, b, _, _ in app.screen.active_bindings.values()}
        assert pane_action("cancel") not in footer_actions
        assert pane_action("pause") not in footer_actions
        assert key_action("keys_on") in footer_actions, "the footer says how to turn the letters on"
        await type_after_click(app, pilot)


@pytest.mark.painted
async def test_esc_after_a_click_on_the_tree_turns_the_letters_on() -> None:
    async with subagents_running() as (app, pilot):
        await pilot.click(app.main.tree_view, offset=tree_row(app, "a2"))
        assert app.focused is app.main.tree_view
        await pilot.press("escape")
        assert not app.keeper.reading and not app.screen.has_class("-reading")
        assert app.focused is app.main.tree_view, "esc only turned the keys on"
        await pilot.press("p")
        await settle(pilot, has_status(app, "a2", S.PAUSED))
        assert app.main.model.agents["a1"].status is S.RUNNING


async def test_tab_to_the_tree_after_a_click_turns_the_letters_on() -> None:
    async with subagents_running() as (app, pilot):
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        assert app.keeper.reading
        app.main.prompt_view.focus()
        await pilot.pause()
        await pilot.press("tab")  # from the prompt, on to the tree
        assert app.focused is app.main.tree_view and not app.keeper.reading


async def test_clicking_a_footer_key_runs_it_and_the_next_sentence_is_words() -> None:
    async with subagents_running() as (app, pilot):
        pause_key = await footer_key(pilot, pane_action("pause"))
        await pilot.click(pause_key)
        await settle(pilot, has_status(app, "a1", S.PAUSED))  # a click on a key is meant
        await type_after_click(app, pilot)
        assert app.main.prompt_view.text.endswith(SENTENCE)


async def test_digits_typed_after_clicking_an_approval_decide_nothing() -> None:
    async with pending_approval() as (app, pilot, runs):
        block = app.focused
        assert isinstance(block, ApprovalBlock)
        app.main.prompt_view.focus()
        await pilot.pause()
        await pilot.click(block, offset=(4, 0))
        before = statuses(app)
        await pilot.press(*"I have 2 kids and 1 dog")
        await pilot.pause()
        app.main.flush_events()
        assert runs == [] and app.main.model.open_queries, "the approval still waits"
        assert statuses(app) == before
        assert app.main.prompt_view.text.endswith("I have 2 kids and 1 dog")


async def test_after_a_click_on_an_approval_its_footer_offers_keys_on_not_the_digits() -> None:
    async with pending_approval() as (app, pilot, runs):
        block = app.focused
        assert isinstance(block, ApprovalBlock)
        await pilot.click(block, offset=(4, 0))
        assert app.focused is block and app.keeper.reading
        shown = {k: b.binding.action for k, b in app.screen.active_bindings.items()}
        assert "1" not in shown and "2" not in shown, "digits that would be typed are not offered"
        assert shown.get("escape") == key_action("keys_on")
        await pilot.press("escape", "1")  # keys on, then a choice
        await settle(pilot, lambda: runs == ["prod"])


async def test_a_replay_drops_letters_after_a_click_and_says_how_to_turn_them_on() -> None:
    feed = ReplayFeed(await _recorded_run(), speed=1000.0)
    app = AgentUIApp(replay=feed, clock=FrozenClock(), remember_theme=False)
    async with app.run_test() as pilot:
        await settle(pilot, lambda: feed.done and bool(app.main.model.agents))
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        await pilot.press(*"quit all fast")
        await pilot.pause()
        assert len(app.screen_stack) == 1 and not app.main.show_all, "no view key acted"
        assert any("esc turns them on" in t for t in toasts(app))
        await pilot.press("escape", "a")
        assert app.main.show_all, "after esc the view keys act"


def click_as_a_terminal_does(app: AgentUIApp, widget: Widget, offset: tuple[int, int]) -> None:
    """Press and release posted to the app, as the terminal's driver hands them over (Textual's
    pilot hands clicks to the screen instead, past the app's own handling of them)."""
    x, y = widget.region.offset + offset
    where = {"x": x, "y": y, "delta_x": 0, "delta_y": 0, "button": 1, "shift": False}
    where |= {"meta": False, "ctrl": False, "screen_x": x, "screen_y": y}
    app.post_message(events.MouseDown(None, **where))
    app.post_message(events.MouseUp(None, **where))


@pytest.mark.painted
async def test_a_sentence_after_a_terminal_s_click_on_the_tree_is_words() -> None:
    async with subagents_running() as (app, pilot):
        click_as_a_terminal_does(app, app.main.tree_view, tree_row(app, "a2"))
        await pilot.pause()
        assert app.keeper.reading and app.main.selected_id == "a2"
        await type_after_click(app, pilot)
        assert app.main.prompt_view.text.endswith(SENTENCE)


async def test_a_terminal_s_click_on_a_footer_key_runs_it_then_letters_are_words() -> None:
    async with subagents_running() as (app, pilot):
        pause_key = await footer_key(pilot, pane_action("pause"))
        click_as_a_terminal_does(app, pause_key, (1, 0))
        await settle(pilot, has_status(app, "a1", S.PAUSED))
        assert app.main.prompt_view.text == "", "its key ran as a command, not typed"
        assert app.keeper.reading, "and after it the letters are words"
        await type_after_click(app, pilot)


async def test_modifier_keys_and_the_palette_act_after_a_click() -> None:
    async with subagents_running() as (app, pilot):
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        assert app.keeper.reading
        titles = [command.title for command in app.get_system_commands(app.screen)]
        assert any(t.startswith("New:") for t in titles), "the palette's New is offered"
        assert any(t.startswith("Pause:") for t in titles), "and the agent commands"
        await pilot.press("ctrl+t")
        assert app.main.prompt_bar.mode.kind == "task" and app.main.prompt_bar.mode.chosen
        await pilot.press("escape")
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        await pilot.press("f1")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("escape")
        await pilot.click(app.main.transcript_view, offset=(5, 3))
        await pilot.press("ctrl+q")  # main runs: it asks first
        assert isinstance(app.screen, ConfirmScreen)
