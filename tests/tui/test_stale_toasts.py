"""A toast goes once what it says is no longer so: "esc again interrupts main" once main is
interrupted, "main.1 wants to run deploy" once the approval was decided on another screen."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn

from ..core.helpers import deploy_tool
from .helpers import app_when, has_status, settle, toasts
from .test_approvals import DEPLOY

pytestmark = pytest.mark.anyio

HOLD = Turn(text="one two three four five six seven", hang_after_chunks=2)


async def test_the_esc_again_toast_goes_once_the_agent_is_interrupted() -> None:
    running = lambda app: has_status(app, "a1", S.RUNNING)()  # noqa: E731
    async with app_when(running, "hold", Script.for_all(HOLD)) as (app, pilot):
        await pilot.press("escape")
        assert any("esc again interrupts main" in t for t in toasts(app))
        await pilot.press("escape")
        await settle(pilot, has_status(app, "a1", S.CANCELLED))
        assert not any("esc again" in t for t in toasts(app))


async def test_an_approval_toast_goes_once_another_screen_decided_it() -> None:
    runs: list[str] = []
    script = Script(agents={"main": [HOLD], "*": [DEPLOY, Turn(text="done")]})

    def asking(app: object) -> bool:
        runtime, agents = app.host.runtime, app.main.model.agents  # type: ignore[attr-defined]
        if runtime is not None and "a1" in agents and "a2" not in agents:
            runtime.start("ship the helper", parent_id="a1")
        return bool(app.main.model.open_queries)  # type: ignore[attr-defined]

    async with app_when(asking, "hold", script, tools=[deploy_tool(runs)]) as (app, pilot):
        await settle(pilot, lambda: any("wants to run deploy" in t for t in toasts(app)))
        (query_id,) = app.main.model.open_queries
        app.host.runtime.approve(query_id, "once")  # type: ignore[union-attr]  # as another screen
        await settle(pilot, lambda: not app.main.model.open_queries)
        await settle(pilot, lambda: not any("wants to run" in t for t in toasts(app)))
        assert runs == ["prod"]
