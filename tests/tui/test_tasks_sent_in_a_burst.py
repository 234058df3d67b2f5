"""Enter pressed again before the words it sent are handled (a paste without bracketed paste, a
second enter a moment after the first): each enter sends the words typed since the one before,
once; the words after the last stay in the prompt. While main runs the words are for main; a
new task beside it is asked for with ctrl+t, and the words after it are for that new task."""

from __future__ import annotations

import pytest
from textual import events

from agentui.core.agent.tree import AgentStatus as S
from agentui.tui.app.app import AgentUIApp

from .helpers import app_when, kinds, settle
from .test_typing_is_sacred import RUNNING_AND_ASKING, has_status_a1

pytestmark = pytest.mark.anyio


def type_in_one_burst(app: AgentUIApp, keys: str) -> None:
    """Every key queued before the first is handled, as a terminal's one read delivers them."""
    for character in keys:
        key = {" ": "space", "\r": "enter"}.get(character, character)
        app.post_message(events.Key(key, None if key == "enter" else character))


def tasks(app: AgentUIApp) -> list[str]:
    return [agent.task for agent in app.main.model.agents.values()]


def steers(app: AgentUIApp, agent_id: str) -> list[str]:
    agent = app.main.model.agents.get(agent_id)
    return [e.text for e in agent.entries if e.kind == "steer"] if agent is not None else []


async def test_two_lines_in_one_burst_while_main_runs_are_two_messages_for_main() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        type_in_one_burst(app, "plan it\rand more\rthird")
        await settle(pilot, lambda: len(steers(app, "a1")) >= 2)
        assert tasks(app) == ["hold"], "no second task started"
        assert steers(app, "a1") == ["plan it", "and more"]
        assert app.main.prompt_view.value == "third"


async def test_a_new_task_asked_for_then_words_in_one_burst_are_a_task_and_its_follow_up() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t")
        assert app.main.prompt_bar.mode.kind == "task" and app.main.prompt_bar.mode.chosen
        type_in_one_burst(app, "plan it\rand more\rthird")
        await settle(pilot, lambda: "steer" in kinds(app, "a2"))
        assert tasks(app) == ["hold", "plan it"]
        assert steers(app, "a2") == ["and more"], "the words after it are the new task's"
        assert steers(app, "a1") == []
        assert app.main.prompt_view.value == "third"


async def test_enter_twice_starts_the_task_once() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press("ctrl+t")
        type_in_one_burst(app, "plan it\r\r")
        await settle(pilot, lambda: len(app.main.model.agents) >= 2)
        for _ in range(5):
            await pilot.pause()
        app.main.flush_events()
        assert tasks(app) == ["hold", "plan it"]
        assert app.main.prompt_view.value == ""
