"""At a budget stop the one table decides what goes on: no plain resume (it would stop at the
budget again at the next step), but a raised budget, one step past it, or a cancel. The runtime
refuses the resume in the table's words, and the app's r and enter read the same table to open
the budget window instead."""

from __future__ import annotations

import pytest

from agentui.core.agent.budget import Budget
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView, Command, Mode, allowed, refusal
from agentui.core.protocol.events import StatusChanged
from agentui.core.providers.scripted.script import Script
from agentui.core.support.errors import CommandRefusedError

from .helpers import Recorder
from .test_budget import build, call, spends

pytestmark = pytest.mark.anyio

STOPPED = AgentView(AgentStatus.PAUSED, budget_stopped=True)


def test_a_budget_stop_takes_no_plain_resume_but_a_raise_a_step_past_or_a_cancel() -> None:
    table = allowed(STOPPED, Mode.LOCAL)
    assert Command.RESUME not in table
    assert {Command.BUDGET, Command.PAST_BUDGET, Command.CANCEL} <= table
    # A paused agent no budget stopped resumes as before.
    assert Command.RESUME in allowed(AgentView(AgentStatus.PAUSED), Mode.LOCAL)


def test_the_refusal_of_a_resume_at_a_budget_stop_says_what_goes_on() -> None:
    refused = refusal("main", STOPPED, Command.RESUME, Mode.LOCAL)
    assert refused is not None
    assert str(refused) == (
        "main is stopped by its budget: a resume would stop at it again; raise the budget, "
        "continue once past it, or cancel"
    )


async def test_the_runtime_refuses_a_resume_at_a_budget_stop_in_the_table_s_words() -> None:
    script = Script.for_all(spends(80, call("note", text="a")), spends(80), spends(30))
    runtime, _provider = build(script, budget=Budget(tokens=50))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        await recorder.wait_for(lambda e: e.type == "budget:stop")
        await recorder.wait_for(lambda e: isinstance(e, StatusChanged) and e.new == "paused")
        with pytest.raises(CommandRefusedError, match="is stopped by its budget"):
            runtime.resume(root)
        runtime.cancel(root)
