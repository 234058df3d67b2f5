"""A command key that does not apply to the selected agent says why, instead of nothing
happening; a letter typed as a word never does."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.commands import AgentView
from agentui.core.providers.scripted.script import Script, Turn

from .helpers import a1_is, app_when, settle, toasts
from .test_click_then_type import click_as_a_terminal_does

pytestmark = pytest.mark.anyio

DONE = Script.for_all(Turn(text="done"))
HOLD = Script.for_all(Turn(text="one two three four five six seven", hang_after_chunks=2))


async def test_pause_on_an_agent_that_finished_says_why() -> None:
    async with app_when(a1_is(S.COMPLETED), "a task", DONE) as (app, pilot):
        await pilot.press("p")
        assert toasts(app) == ["cannot pause main: it is completed"]
        assert app.main.model.agents["a1"].status is S.COMPLETED


async def test_the_same_refused_key_twice_leaves_one_toast() -> None:
    async with app_when(a1_is(S.COMPLETED), "a task", DONE) as (app, pilot):
        await pilot.press("m", "m")
        assert toasts(app) == ["cannot modify main: it is completed"]


async def test_pause_on_a_paused_agent_says_it_is_paused_already() -> None:
    async with app_when(a1_is(S.RUNNING), "a task", HOLD) as (app, pilot):
        await pilot.press("p")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.PAUSED)
        app.clear_notifications()
        assert app.check_action("pause", ()) is None, "greyed: this test needs it so"
        await pilot.press("p")
        assert toasts(app) == ["main is already paused"]


async def test_resume_on_a_running_agent_says_it_is_not_paused() -> None:
    async with app_when(a1_is(S.RUNNING), "a task", HOLD) as (app, pilot):
        assert app.check_action("resume", ()) is not True, "greyed: this test needs it so"
        await pilot.press("r")
        assert toasts(app) == ["main is not paused: nothing to resume"]
        assert app.main.model.agents["a1"].status is S.RUNNING


async def test_r_under_a_budget_s_stop_says_the_budget_s_way_on_not_that_it_runs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """core's reason comes first: an agent still running in a subtree a budget stopped (it
    joins the stop at its next step) is told how to go on, as a paused one under it is."""
    async with app_when(a1_is(S.RUNNING), "a task", HOLD) as (app, pilot):
        fold = app.main.fold
        assert fold is not None
        under = AgentView(S.RUNNING, budget_stopped=True, budget_owner="root")
        monkeypatch.setattr(fold, "view", lambda agent: under)
        await pilot.press("r")
        assert toasts(app) == [
            "main is paused by the budget of root: a resume would stop at it again; raise "
            "root's budget, continue root once past it, or cancel"
        ]


async def test_a_key_that_acts_says_nothing_of_refusal() -> None:
    async with app_when(a1_is(S.RUNNING), "a task", HOLD) as (app, pilot):
        await pilot.press("p")
        assert not [t for t in toasts(app) if "cannot" in t or "already" in t]


async def test_the_letter_typed_in_the_prompt_is_a_word_and_says_nothing() -> None:
    async with app_when(a1_is(S.COMPLETED), "a task", DONE) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        await pilot.press("p")
        assert app.main.prompt_view.text.endswith("p")
        assert toasts(app) == []


async def test_after_a_click_a_letter_says_nothing_of_refusal() -> None:
    async with app_when(a1_is(S.COMPLETED), "a task", DONE) as (app, pilot):
        await pilot.click(type(app.main.tree_view))
        assert app.keeper.reading, "a click makes letters words: this test needs it so"
        await pilot.press("p")
        assert not [t for t in toasts(app) if "cannot" in t]


async def test_a_greyed_key_clicked_in_the_footer_says_why() -> None:
    """Textual's footer only rings the bell for a greyed-out key clicked: it says why, as the
    key pressed does, and runs nothing."""
    from agentui.tui.app.textual_compat import FooterKey
    from agentui.tui.app.widgets.footer import KeyFooter

    async with app_when(a1_is(S.RUNNING), "a task", HOLD) as (app, pilot):
        app.main.tree_view.focus()
        await pilot.pause()
        footer = app.main.query_one(KeyFooter)
        await settle(pilot, lambda: any(k.key == "r" for k in footer.query(FooterKey)))
        resume = next(k for k in footer.query(FooterKey) if k.key == "r")
        assert resume.has_class("-disabled"), "greyed: this test needs it so"
        click_as_a_terminal_does(app, resume, (1, 0))
        await settle(pilot, lambda: bool(toasts(app)))
        assert toasts(app) == ["main is not paused: nothing to resume"]
        assert app.main.model.agents["a1"].status is S.RUNNING
