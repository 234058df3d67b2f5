"""An attached screen follows the task it started as a local one does: its prompt says the task
is starting until the server names its root, then addresses that root, so a follow-up steers it
on the server; a start the server refuses gives the task's words back."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus

from ..tui.helpers import toasts
from .server_fixture import served_runtime
from .test_attach import LINGERING, SIZE, attached_app, status, type_task, until

pytestmark = pytest.mark.anyio


def label(app: object) -> str:
    return str(app.main.prompt_bar.label.render())  # type: ignore[attr-defined]


async def test_a_follow_up_typed_in_an_attached_screen_steers_its_task_on_the_server() -> None:
    async with served_runtime(LINGERING) as server:
        app = attached_app(server)
        async with app.run_test(size=SIZE) as pilot:
            await until([pilot], lambda: app.host.started and app.host.runtime.connected)  # type: ignore[union-attr]
            await type_task(pilot, "think it over")
            await until([pilot], lambda: status(app, "a1") is AgentStatus.RUNNING)
            await until([pilot], lambda: label(app) == "main ›")
            await pilot.press(*"keep it short", "enter")
            await until(
                [pilot], lambda: any(e.kind == "steer" for e in app.main.model.agents["a1"].entries)
            )
            assert list(server.runtime.tree()["agents"]) == ["a1"], "no second task on the server"


async def test_a_start_the_server_refuses_gives_the_words_back() -> None:
    async with served_runtime(LINGERING) as server:
        app = attached_app(server)
        async with app.run_test(size=SIZE) as pilot:
            await until([pilot], lambda: app.host.started and app.host.runtime.connected)  # type: ignore[union-attr]
            assert app.host.start_task("plan the trip", profile="no-such-profile")
            assert app.main.addressing.starting_root == "", (
                "the prompt waits for the server to name it"
            )
            await until([pilot], lambda: app.main.prompt_view.text == "plan the trip")
            assert app.main.addressing.starting_root is None and label(app) == "task ›", (
                "nothing is starting"
            )
            assert any("no-such-profile" in t for t in toasts(app)), "the server's reason"
