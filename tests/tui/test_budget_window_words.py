"""The budget window takes what is typed in it, and removes a budget only when asked in words:
an empty box (cleared, under its grey example) is refused in one line, `none` removes it, and
limits typed in a burst right as the window opens (a fast typist, a paste) all land in it."""

from __future__ import annotations

import pytest
from textual import events
from textual.widgets import Input, Static

from agentui.core.agent.budget import Budget
from agentui.core.agent.tree import AgentStatus as S
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.budget import BudgetScreen

from .helpers import has_status, settle
from .inbox_helpers import open_inbox
from .test_budget import budget_app, stopped

pytestmark = pytest.mark.anyio


def limits_box(app: AgentUIApp) -> Input:
    assert isinstance(app.screen, BudgetScreen)
    return app.screen.query_one("#limits", Input)


async def test_an_empty_box_is_refused_and_none_removes_the_budget() -> None:
    async with budget_app().run_test(size=(80, 24)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        app.commands.open_budget()
        await settle(pilot, lambda: isinstance(app.screen, BudgetScreen))
        box = limits_box(app)
        box.value = ""
        assert box.placeholder.startswith("e.g. "), "the grey text reads as an example"
        await pilot.press("enter")
        assert isinstance(app.screen, BudgetScreen), "refused: the window stays"
        problem = str(app.screen.query_one("#problem", Static).render())
        assert "none" in problem and "esc" in problem
        app.main.flush_events()
        assert app.main.model.agents["a1"].budget == Budget(tokens=1000), "unchanged"
        await pilot.press(*"none", "enter")
        await settle(pilot, lambda: app.main.model.agents["a1"].budget is None)
        await settle(pilot, has_status(app, "a1", S.COMPLETED))


@pytest.mark.parametrize("paste", [False, True], ids=["typed-in-a-burst", "pasted"])
async def test_limits_typed_as_the_window_opens_from_the_inbox_all_land(
    paste: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Keys typed right after "1 Raise the budget…" reach the inbox before its window is up:
    they went to the inbox's row (letters lost, the 2 of "20000" pressed "2 Continue once")."""
    async with budget_app().run_test(size=(80, 24)) as pilot:
        app = await stopped(pilot, Budget(tokens=1000))
        runtime = app.host.runtime
        assert runtime is not None
        continued: list[str] = []
        monkeypatch.setattr(runtime, "continue_past_budget", continued.append)
        await open_inbox(pilot)
        # "1", the limits (they replace the box's: it selects all as it takes the focus) and
        # enter: all queued at once.
        app.post_message(events.Key("1", "1"))
        if paste:
            app.post_message(events.Paste("tokens=20000"))
        else:
            for character in "tokens=20000":
                key = {",": "comma", "=": "equals_sign"}.get(character, character)
                app.post_message(events.Key(key, character))
        app.post_message(events.Key("enter", None))
        await settle(pilot, lambda: app.main.model.agents["a1"].budget != Budget(tokens=1000))
        assert app.main.model.agents["a1"].budget == Budget(tokens=20000)
        assert continued == [], "the 2 typed pressed no 2 Continue once"
