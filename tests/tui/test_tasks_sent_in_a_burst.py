"""Enter pressed again before the task it sent is handled (a paste without bracketed paste, a
second enter a moment after the first): each enter sends the words typed since the one
before, once; the words after the last stay in the prompt."""

from __future__ import annotations

import pytest
from textual import events

from agentui.core.tree import AgentStatus as S
from agentui.tui.app import AgentUIApp

from .helpers import app_when, settle
from .test_typing_is_sacred import RUNNING_AND_ASKING, has_status_a1

pytestmark = pytest.mark.anyio


def type_in_one_burst(app: AgentUIApp, keys: str) -> None:
    """Every key queued before the first is handled, as a terminal's one read delivers them."""
    for character in keys:
        key = {" ": "space", "\r": "enter"}.get(character, character)
        app.post_message(events.Key(key, None if key == "enter" else character))


def tasks(app: AgentUIApp) -> list[str]:
    return [agent.task for agent in app.model.agents.values()]


async def test_two_tasks_in_one_burst_are_two_tasks_and_the_rest_stays() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.prompt_view.focus()
        await pilot.pause()
        type_in_one_burst(app, "plan it\rand more\rthird")
        await settle(pilot, lambda: len(app.model.agents) >= 3)
        assert tasks(app) == ["hold", "plan it", "and more"]
        assert app.prompt_view.value == "third"


async def test_enter_twice_starts_the_task_once() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.prompt_view.focus()
        await pilot.pause()
        type_in_one_burst(app, "plan it\r\r")
        await settle(pilot, lambda: len(app.model.agents) >= 2)
        for _ in range(5):
            await pilot.pause()
        app.flush_events()
        assert tasks(app) == ["hold", "plan it"]
        assert app.prompt_view.value == ""
