"""An agent agentui runs itself (a scene's director, a round) reads no words: the footer does
not offer to steer, modify or continue it, as the runtime would refuse; and words typed in the
prompt while the scene runs answer the scene's question (its next round's input)."""

from __future__ import annotations

import pytest

from .helpers import settle, toasts
from .test_scene_app import scene_app

pytestmark = pytest.mark.anyio


async def test_a_scene_root_is_not_offered_steer_or_modify() -> None:
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        root = next(iter(app.main.model.agents.values()))
        assert root.driver == "scene" and app.main.selected_id == root.id
        assert app.check_action("steer", ()) is None, "greyed: the runtime would refuse it"
        assert app.check_action("modify", ()) is None
        assert app.check_action("pause", ()) is True, "what it can do stays offered"


async def test_words_for_a_scene_root_answer_its_question() -> None:
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert str(app.main.prompt_bar.label.render()) == "harbour ›"
        (question,) = app.main.model.open_queries
        app.main.prompt_view.focus()
        await pilot.press(*"more fog", "enter")
        await settle(pilot, lambda: question not in app.main.model.open_queries)
        assert app.main.prompt_view.text == ""
        scene = next(iter(app.main.model.scenes.values()))
        await settle(pilot, lambda: bool(scene.record.rounds))
        assert "more fog" in scene.record.rounds[0].request.text


async def test_words_for_an_ended_scene_root_stay_and_say_why_it_cannot_be_continued() -> None:
    """An ended agent is offered to be continued with the words, but never one that core's
    table says takes no continue (a scene's root): the words stay, with the runtime's why."""
    app = scene_app()
    async with app.run_test(size=(120, 36)) as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        root = next(iter(app.main.model.agents.values()))
        assert app.host.runtime is not None
        app.host.runtime.cancel(root.id)
        await settle(pilot, lambda: app.main.model.agents[root.id].status.is_final)
        app.main.addressing.offer_continue(root.id, "one more round")
        await pilot.pause()
        assert app.main.prompt_bar.mode.kind != "continue"
        assert app.main.prompt_view.text == "one more round", "the words are not lost"
        assert any("cannot be continued" in message for message in toasts(app))
