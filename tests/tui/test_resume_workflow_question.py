"""The app's default flow, resumed: a six-step root asked its clarifying question, the person
quit, and `agentui --resume` shows the question waiting again (the inline answer box, the
inbox); the answer typed there goes on with the workflow to its end."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session.resume import ResumePlan
from agentui.core.state.inbox import inbox
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.query_blocks import AnswerInput

from ..core.test_inbox_resume import resumed
from ..core.test_inbox_resume_workflow import asking_at_the_end
from .helpers import has_status, runtime_of, settle, write

pytestmark = pytest.mark.anyio

QUESTION = "For the offsite: what should I focus on, or avoid?"


def _decide(**value: object) -> Turn:
    return Turn(text=json.dumps(value))


DECISIONS = {
    "questions": [_decide(questions=[])],
    "subquestions": [_decide(subquestions=[])],
    "resolution": [_decide(uncertain=False)],
}


async def _quit_while_it_asks(tmp_path: Path) -> ResumePlan:
    decisions = {"clarify": [_decide(ambiguous=True, question=QUESTION)]}
    plan, _ = await asking_at_the_end(tmp_path, decisions, "quit")
    return plan


def resumed_app(plan: ResumePlan) -> AgentUIApp:
    """The app on the resumed session, as `agentui --resume` builds it; the root answers once."""
    after = Script(
        agents={"main": [Turn(text="A quiet offsite by the sea.")]}, decisions={"main": DECISIONS}
    )
    return AgentUIApp(
        lambda: resumed(plan, after),
        state=plan.state,
        clock=FrozenClock(),
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )


async def test_a_resumed_clarifying_question_is_answered_inline_and_the_root_completes(
    tmp_path: Path,
) -> None:
    plan = await _quit_while_it_asks(tmp_path)
    assert [row.text for row in inbox(plan.state)] == [QUESTION]
    app = resumed_app(plan)
    async with app.run_test(size=(120, 40)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert app.main.model.agents["a1"].status is S.AWAITING_USER
        # Given back waiting: enter on its agent's row goes to its inline answer box.
        await settle(pilot, lambda: app.main.selected_id == "a1")
        app.main.tree_view.focus()
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.focused, AnswerInput))
        await write(pilot, "quiet, near the sea")
        await pilot.press("enter")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        report = runtime.workflow_report("a1")
        assert report is not None and report.answer == "A quiet offsite by the sea."
        assert [(q.question, q.answer) for q in report.questions] == [
            (QUESTION, "quiet, near the sea")
        ]
        assert not app.main.model.open_queries
