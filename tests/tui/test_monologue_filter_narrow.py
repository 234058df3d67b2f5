"""The monologue's filter key on a terminal too narrow for the monologue says so, rather than
seeming to do nothing (hands-on pass at 80x24)."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, Turn

from .helpers import a1_is, make_app, settle, toasts

pytestmark = pytest.mark.anyio

DONE = Script.for_all(Turn(text="done"))  # no question: the letters are the tree's


async def test_f_at_80_columns_says_the_monologue_is_hidden_and_what_it_will_show() -> None:
    app = make_app("a task", DONE, monologue=MonologueConfig())
    async with app.run_test(size=(80, 24)) as pilot:
        assert not app.main.monologue_view.display, "hidden at 80 columns: this test needs it so"
        await settle(pilot, lambda: a1_is(S.COMPLETED)(app))
        app.main.tree_view.focus()
        await pilot.press("f")
        assert app.main.monologue_selected_only
        assert toasts(app) == [
            "The monologue is hidden under 100 columns; wider, it shows the selected agent's lines."
        ]


async def test_f_with_the_monologue_shown_says_nothing() -> None:
    app = make_app("a task", DONE, monologue=MonologueConfig())
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: a1_is(S.COMPLETED)(app))
        app.main.tree_view.focus()
        await pilot.press("f")
        assert app.main.monologue_selected_only and toasts(app) == []
