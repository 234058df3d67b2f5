"""The first screen driven with Pilot: a task, its question answered inline, keys on agents."""

from __future__ import annotations

import pytest
from agentui.core.providers.script import Script, Turn
from agentui.core.tree import AgentStatus
from agentui.tui.widgets.transcript import EntryBlock, Transcript
from textual.widgets import Input

from .helpers import make_app, settle

pytestmark = pytest.mark.anyio


async def test_a_task_typed_in_the_prompt_starts_a_root_agent() -> None:
    app = make_app()
    async with app.run_test() as pilot:
        assert app.focused is app.query_one("#prompt", Input)
        await pilot.press(*"Plan a party", "enter")
        await settle(pilot, lambda: "a1" in app.model.agents)
        assert app.model.agents["a1"].task == "Plan a party"
        assert app.selected_id == "a1"


async def test_the_question_is_answered_inline_and_the_agent_completes() -> None:
    app = make_app("Plan a party")
    async with app.run_test() as pilot:
        await settle(pilot, lambda: bool(app.model.open_queries))
        prompt = app.query_one("#prompt", Input)
        assert app.focused is prompt, "a waiting question takes the focus so typing answers it"
        assert "Answer main" in prompt.placeholder
        await pilot.press(*"cake", "enter")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.COMPLETED)
        kinds = [e.kind for e in app.model.agents["a1"].entries]
        assert kinds.index("question") < kinds.index("answer")
        assert "cake" in app.model.agents["a1"].entries[-1].text


async def test_escape_declines_the_question() -> None:
    app = make_app("Plan a party")
    async with app.run_test() as pilot:
        await settle(pilot, lambda: bool(app.model.open_queries))
        await pilot.press("escape")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.COMPLETED)
        answers = [e.text for e in app.model.agents["a1"].entries if e.kind == "answer"]
        assert answers == ["(declined: declined by the person)"]


async def test_pause_and_resume_keys_act_on_the_selected_agent() -> None:
    script = Script.for_all(Turn(text="one two three four five six", hang_after_chunks=2))
    app = make_app("Count", script)
    async with app.run_test() as pilot:
        await settle(
            pilot,
            lambda: (
                app.model.agents.get("a1") is not None
                and app.model.agents["a1"].status is AgentStatus.RUNNING
            ),
        )
        await pilot.press("p")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.PAUSED)
        assert app.runtime is not None and app.runtime.node("a1").status is AgentStatus.PAUSED
        await pilot.press("r")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.RUNNING)
        await pilot.press("c")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.CANCELLED)


async def test_agent_text_that_looks_like_markup_prints_literally() -> None:
    script = Script.for_all(Turn(text="use [bold]x[/] and [/]"))
    app = make_app("Markup", script)
    async with app.run_test() as pilot:
        await settle(
            pilot,
            lambda: (
                app.model.agents.get("a1") is not None
                and app.model.agents["a1"].status is AgentStatus.COMPLETED
            ),
        )
        rendered = [str(block.render()) for block in app.query_one(Transcript).query(EntryBlock)]
        assert "use [bold]x[/] and [/]" in rendered


async def test_quit_shuts_the_runtime_down() -> None:
    script = Script.for_all(Turn(text="waiting", hang_after_chunks=1))
    app = make_app("Hold", script)
    async with app.run_test() as pilot:
        await settle(pilot, lambda: "a1" in app.model.agents)
        runtime = app.runtime
        await pilot.press("ctrl+q")
    assert runtime is not None
    assert runtime.node("a1").status is AgentStatus.CANCELLED
