"""An agent agentui runs itself (a scene's director, a round) reads no words: the footer does
not offer to steer, modify or continue it, as the runtime would refuse; and words typed in the
prompt while the scene runs are kept, with what to do instead, not lost to a refusal."""

from __future__ import annotations

import pytest

from .helpers import settle, toasts
from .test_scene_app import scene_app

pytestmark = pytest.mark.anyio


async def test_a_scene_root_is_not_offered_steer_or_modify() -> None:
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.model.open_queries))
        root = next(iter(app.model.agents.values()))
        assert root.driver == "scene" and app.selected_id == root.id
        assert app.check_action("steer", ()) is None, "greyed: the runtime would refuse it"
        assert app.check_action("modify", ()) is None
        assert app.check_action("pause", ()) is True, "what it can do stays offered"


async def test_words_for_a_scene_root_stay_in_the_prompt_with_what_to_do() -> None:
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.model.open_queries))
        assert str(app.prompt_bar.label.render()) == "harbour ›"
        app.prompt_view.focus()
        await pilot.press(*"more fog", "enter")
        await pilot.pause()
        assert app.prompt_view.text == "more fog", "kept, not sent to a refusal"
        assert any("answer its question" in t for t in toasts(app))
        assert app.model.open_queries, "the round still waits for its input"
