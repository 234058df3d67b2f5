"""A directed scene in the app: the round's agents in the tree under their round, the scene in
the transcript, the next round's input typed where the question waits (empty: the scene goes
on), the state view."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.scene.scene_run import start_scene
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.scene_state import SceneStateScreen, scene_state_view

from ..core.scene_helpers import harbour
from .helpers import make_app, settle, write

pytestmark = pytest.mark.anyio


def scene_app() -> AgentUIApp:
    scene = harbour()
    return make_app(start_with=lambda runtime: start_scene(runtime, scene))


def rounds_done(app: AgentUIApp) -> int:
    return sum(
        1 for a in app.main.model.agents.values() if a.driver == "round" and a.status is S.COMPLETED
    )


async def test_a_scene_plays_in_the_app_round_by_round() -> None:
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        root = next(iter(app.main.model.agents.values()))
        assert (root.name, root.driver) == ("harbour", "scene")
        assert app.main.focused_query() is not None, "the question for round 1 has the cursor"
        await write(pilot, "Tomas, a fish please.")
        await pilot.press("enter")
        await settle(
            pilot, lambda: rounds_done(app) == 1 and bool(app.main.model.open_queries), turns=5000
        )

        by_name = {a.name: a for a in app.main.model.agents.values()}
        round_one = by_name["round-1"]
        assert [app.main.model.agents[c].name for c in round_one.children] == [
            "round-1.director",
            "round-1.Tomas",
            "round-1.director-2",
            "round-1.Mara",
        ]
        # In the tree, each under its round.
        tree_nodes = app.main.tree_view._agent_nodes
        director = tree_nodes[by_name["round-1.director"].id]
        assert director.parent is tree_nodes[round_one.id]
        kinds = [(e.kind, e.title) for e in round_one.entries]
        assert ("line", "Tomas") in kinds and ("line", "Mara") in kinds
        assert kinds[1] == ("scene", "round 1")

        # Enter with nothing typed: the scene goes on by itself.
        assert app.main.focused_query() is not None
        await pilot.press("enter")

        await settle(
            pilot, lambda: rounds_done(app) == 2 and bool(app.main.model.open_queries), turns=5000
        )
        scene = app.main.model.scenes[root.id]
        assert scene.record.rounds[1].request.kind == "continuation"

        # F2 from anywhere, the answer box included (a letter would be typed there).
        await pilot.press("f2")
        await settle(pilot, lambda: isinstance(app.screen, SceneStateScreen))
        screen = app.screen
        assert isinstance(screen, SceneStateScreen) and screen.scene is scene
        console = Console(width=120, record=True, file=io.StringIO())
        console.print(scene_state_view(scene))
        shown = console.export_text()
        assert "Harbour · 2 rounds played" in shown
        lines = [" ".join(line.split()) for line in shown.splitlines()]
        assert "weather fog" in lines
        ines = next(line for line in lines if line.startswith("Ines "))
        assert ines.startswith("Ines yes "), "she came in during round 2"
        await pilot.press("escape")
        await settle(pilot, lambda: not isinstance(app.screen, SceneStateScreen))
        assert app.main.focused_query() is not None, "back in the waiting answer box"


async def test_esc_in_a_round_s_answer_box_leaves_it_and_the_scene_goes_on() -> None:
    """Declining would end the whole scene with no way back: esc only gives the keys to the
    prompt (never the tree, where letters are commands), and the question waits."""
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert app.main.focused_query() is not None
        await pilot.press("escape")
        await pilot.pause()
        assert app.focused is app.main.prompt_view
        root = next(iter(app.main.model.agents.values()))
        assert root.status is not S.COMPLETED and len(app.main.model.open_queries) == 1
        await pilot.press("ctrl+n")  # back to the question, which still takes an answer
        await settle(pilot, lambda: app.main.focused_query() is not None)
        await pilot.press("enter")  # nothing: the scene goes on by itself
        await settle(pilot, lambda: rounds_done(app) == 1, turns=5000)
