"""A budget stop answered with a line `agentui run` does not understand reads another line for
it: the count of prompts shown and not yet answered stays right, so a steer line afterwards does
not bring back a "> " nothing waits on."""

from __future__ import annotations

import io
from types import SimpleNamespace
from typing import Any, cast

import pytest

from agentui.core.protocol.events import BudgetReached
from agentui.tui.headless.answers import Answers
from agentui.tui.headless.budget_answer import BudgetAnswers, settle_budget_stop

pytestmark = pytest.mark.anyio


class Owner:
    """The stopped budget's owner as the runtime shows it, counting what it is told."""

    def __init__(self) -> None:
        self.continued = 0

    def node(self, agent_id: str) -> Any:
        return SimpleNamespace(budget=None)

    def continue_past_budget(self, agent_id: str) -> None:
        self.continued += 1


async def test_a_line_not_understood_then_continue_leaves_no_prompt_owed() -> None:
    stop = BudgetReached(
        agent_id="a1", seq=1, ts=0.0, measure="tokens", limit=10, spent=12, stopped_agent="a1"
    )
    agent = SimpleNamespace(name="main", budget_stop=stop)
    state = SimpleNamespace(agents={"a1": agent})
    stderr = io.StringIO()
    answers = Answers(
        ["lots please", "continue"], _no_stdin, stderr, stdin_is_terminal=False, json_output=False
    )
    owner = Owner()
    answers.asked()  # the printer showed the stop and its "> "

    await settle_budget_stop(
        cast(Any, owner), stop, BudgetAnswers(answers, cast(Any, state), stderr, False)
    )

    assert owner.continued == 1
    assert "still paused" in stderr.getvalue()
    shown = stderr.getvalue()
    answers.prompt_again()  # a steer line came: nothing waits, so no "> "
    assert stderr.getvalue() == shown


async def _no_stdin() -> str | None:
    return None
