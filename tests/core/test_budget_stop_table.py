"""At a budget stop the one table decides what goes on: no plain resume (it would stop at the
budget again at the next step), but a raised budget, one step past it, or a cancel. The runtime
refuses the resume in the table's words, and the app's r and enter read the same table to open
the budget window instead."""

from __future__ import annotations

import pytest

from agentui.core.agent.budget import Budget
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView, Command, Mode, allowed, refusal
from agentui.core.protocol.events import BudgetReached, StatusChanged
from agentui.core.providers.scripted.script import Script
from agentui.core.state import RunState
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


def test_an_agent_under_a_stopped_budget_is_refused_a_resume_naming_the_budget_s_owner() -> None:
    under = AgentView(AgentStatus.PAUSED, budget_stopped=True, budget_owner="main")
    table = allowed(under, Mode.LOCAL)
    assert Command.RESUME not in table
    # Raising or continuing past a budget is its owner's: the agent under it is not offered it.
    assert Command.PAST_BUDGET not in table
    assert Command.CANCEL in table
    refused = refusal("main.1", under, Command.RESUME, Mode.LOCAL)
    assert refused is not None
    assert str(refused) == (
        "main.1 is paused by the budget of main: a resume would stop at it again; raise "
        "main's budget, continue main once past it, or cancel"
    )


async def test_a_subagent_paused_by_its_parent_s_budget_is_refused_a_plain_resume() -> None:
    script = Script(
        agents={
            "main": [
                spends(0, call("fork", prompt="child work"), call("wait", handle="a2")),
                spends(0, text="ok"),
            ],
            "main.1": [
                spends(0, call("note", text="a")),
                spends(80, call("note", text="b")),
                spends(80),
                spends(30, text="done"),
            ],
        }
    )
    runtime, _provider = build(script)
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        await recorder.wait_for(lambda e: e.type == "agent:spawned" and e.agent_id == "a2")
        # Set on the root once main.1 runs: the root's own account is the one that stops.
        runtime.set_budget(root, {"tokens": 50})
        (stop,) = await recorder.wait_for(lambda e: isinstance(e, BudgetReached))
        child = stop.stopped_agent
        assert stop.agent_id == root and child != root
        await recorder.wait_for(
            lambda e: isinstance(e, StatusChanged) and e.agent_id == child and e.new == "paused"
        )
        with pytest.raises(CommandRefusedError, match="is stopped by its budget"):
            runtime.resume(root)
        with pytest.raises(CommandRefusedError, match="paused by the budget of main"):
            runtime.resume(child)
        # A front end's fold reads the same table as the runtime.
        fold = RunState()
        recorder.sync()
        fold.apply_all(recorder.events)
        for agent_id in (root, child):
            assert allowed(fold.view(fold.agents[agent_id]), Mode.LOCAL) == runtime.allowed(
                agent_id
            )
        runtime.cancel(root)
