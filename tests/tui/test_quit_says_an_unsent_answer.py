"""Quitting with an answer typed under a waiting question and not sent asks first, saying so,
as it does for words in the prompt: the answer would be lost with the screen."""

from __future__ import annotations

import pytest

from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.confirm import ConfirmScreen

from .helpers import app_when, write

pytestmark = pytest.mark.anyio


def asked(app: AgentUIApp) -> bool:
    return bool(app.main.model.open_queries) and app.main.focused_query() is not None


async def test_an_answer_typed_and_not_sent_is_said_by_the_quit_question() -> None:
    async with app_when(asked, "Plan a party") as (app, pilot):
        await write(pilot, "keep it cheap, by the sea")
        await pilot.press("ctrl+q")
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        assert dialog._question.startswith("The answer you typed has not been sent. ")
        await pilot.press("escape")  # Stay: the answer is still there
        await pilot.pause()
        assert app.main.focused_query() is not None
        assert getattr(app.focused, "text", "") == "keep it cheap, by the sea"
