"""Where the cursor goes when the person did not choose the agent tree: esc at a question's
answer box or at an approval goes to the prompt (words stay words, as after a click on the
transcript); a resumed session whose agent waits gives its answer box the cursor on the first
frame, as a fresh run does; esc from a new task opened from an answer box goes back to it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.query_blocks import AnswerInput, ApprovalBlock

from ..core.helpers import Recorder, deploy_tool
from ..core.session_helpers import recorded_runtime
from ..core.test_inbox_resume import call, ended, resumed, saved
from .helpers import app_when, has_status, runtime_of, settle
from .test_approvals import ONE_DEPLOY, approvals, pending_approval
from .test_resume_workflow_question import _quit_while_it_asks, resumed_app

pytestmark = pytest.mark.anyio


async def test_esc_at_an_approval_that_took_the_cursor_goes_to_the_prompt_not_the_tree() -> None:
    async with pending_approval(ONE_DEPLOY) as (app, pilot, runs):
        assert isinstance(app.focused, ApprovalBlock)
        assert app.active_bindings["escape"].binding.description == "To prompt"
        await pilot.press("escape")
        assert app.focused is app.main.prompt_view
        await pilot.press(*"please cap")
        assert app.main.prompt_view.text == "please cap"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER, "p paused nothing"
        assert not app.main.show_all, "a switched to no other view"
        assert app.main.prompt_bar.mode.kind != "steer", "s opened no steer"
        (entry,) = approvals(app)
        assert entry.open and runs == [], "the approval still waits"


async def test_esc_at_an_answer_box_goes_to_the_prompt_and_the_question_waits() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        assert isinstance(app.focused, AnswerInput)
        assert app.active_bindings["escape"].binding.description == "To prompt"
        await pilot.press("escape")
        assert app.focused is app.main.prompt_view
        await pilot.press(*"please cap")
        assert app.main.prompt_view.text == "please cap"
        assert app.main.model.open_queries, "the question still waits"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER


async def test_a_resumed_waiting_question_has_the_cursor_and_typed_words_answer_it(
    tmp_path: Path,
) -> None:
    plan = await _quit_while_it_asks(tmp_path)
    app = resumed_app(plan)
    async with app.run_test(size=(80, 24)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await pilot.pause()
        assert isinstance(app.focused, AnswerInput), app.focused
        await pilot.press(*"quiet", "enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        report = runtime.workflow_report("a1")
        assert report is not None
        assert [q.answer for q in report.questions] == ["quiet"]


async def _resumed_at_an_approval(
    tmp_path: Path, runs: list[str], script: Script, *tasks: str
) -> tuple[AgentUIApp, list[str]]:
    """`tasks` started one after another (each to its end, the last to its deploy approval),
    the session quit, and the app resuming it; the roots' ids."""
    before = recorded_runtime(tmp_path, script=script, tools=[deploy_tool(runs)])
    roots: list[str] = []
    async with before:
        rec = Recorder(before)
        for number, task in enumerate(tasks, start=1):
            root = before.start(task)
            roots.append(root)
            awaited = "awaiting_user" if number == len(tasks) else "completed"
            await rec.wait_for(
                lambda e, root=root, awaited=awaited: (
                    e.agent_id == root and getattr(e, "new", "") == awaited
                )
            )
        await ended(before, rec, "quit", tmp_path)
    plan = saved(before)
    app = AgentUIApp(
        lambda: resumed(plan, Script.for_all(Turn(text="Done.")), [deploy_tool(runs)]),
        state=plan.state,
        clock=FrozenClock(),
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )
    return app, roots


async def test_a_resumed_waiting_approval_has_the_cursor_and_1_allows_it(
    tmp_path: Path,
) -> None:
    runs: list[str] = []
    script = Script.for_all(Turn(tool_calls=[call("deploy", target="prod")]))
    app, (root,) = await _resumed_at_an_approval(tmp_path, runs, script, "Ship it")
    async with app.run_test(size=(80, 24)) as pilot:
        await runtime_of(pilot)
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        await pilot.pause()
        assert isinstance(app.focused, ApprovalBlock), app.focused
        await pilot.press("1")
        await settle(pilot, has_status(app, root, S.COMPLETED))
        assert runs == ["prod"]


async def test_esc_from_a_new_task_opened_at_an_answer_box_gives_the_box_back() -> None:
    async with app_when(lambda app: bool(app.main.model.open_queries), "Plan a party") as (
        app,
        pilot,
    ):
        assert isinstance(app.focused, AnswerInput)
        await pilot.press(*"Keep it", "ctrl+t")
        await settle(pilot, lambda: app.main.prompt_bar.mode.kind == "task")
        assert app.focused is app.main.prompt_view
        await pilot.press("escape", *" cozy")
        box = app.focused
        assert isinstance(box, AnswerInput), box
        assert box.value == "Keep it cozy"
        assert app.main.prompt_view.text == ""


async def test_a_resumed_session_shows_the_agent_that_waits_not_the_first_one(
    tmp_path: Path,
) -> None:
    runs: list[str] = []
    script = Script(
        agents={
            "main": [Turn(text="Done.")],
            "*": [Turn(tool_calls=[call("deploy", target="prod")])],
        }
    )
    app, (_, waiting) = await _resumed_at_an_approval(
        tmp_path, runs, script, "Plan the launch", "Ship it"
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await runtime_of(pilot)
        await settle(pilot, lambda: isinstance(app.focused, ApprovalBlock))
        assert app.main.selected_id == waiting
        assert app.main.transcript_view.source == waiting
        await pilot.press("1")
        await settle(pilot, has_status(app, waiting, S.COMPLETED))
        assert runs == ["prod"]
