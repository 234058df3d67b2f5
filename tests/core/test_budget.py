"""Budgets that belong to a subtree: parsing, the share a child inherits, spending charged up
the chain, the pause at a limit (only the model call in flight goes past it, and the stop says
by how much), raise / continue once / cancel, the fork forecast, the fold and the table."""

from __future__ import annotations

from typing import Any

import anyio
import pytest

from agentui.core.agent.budget import Budget, share_for_child, short_count
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView, Command, Mode, allowed
from agentui.core.protocol.events import BudgetReached, Event
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.core.support.errors import CommandRefusedError
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .helpers import Recorder

pytestmark = pytest.mark.anyio

S = AgentStatus


@tool()
async def note(text: str) -> str:
    """Write a note."""
    return f"noted {text}"


def call(name: str, **arguments: Any) -> ScriptedToolCall:
    return ScriptedToolCall(name=name, arguments=arguments)


def spends(tokens: int, *calls: ScriptedToolCall, text: str = "") -> Turn:
    """A turn whose response costs `tokens` (all output), calling `calls`."""
    return Turn(text=text, tool_calls=list(calls), usage=Usage(output_tokens=tokens))


def build(script: Script, **options: Any) -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(script)
    tools = ToolRegistry([FORK, WAIT, note])
    return Runtime(provider, tools=tools, clock=FrozenClock(), **options), provider


def typed(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e.type == kind]


# -- the budget itself -----------------------------------------------------------------------


def test_a_budget_is_read_from_the_flag_s_form_and_said_back() -> None:
    budget = Budget.parse("tokens=50000, usd=$2,minutes=30,tool-calls=40")
    assert budget == Budget(tokens=50000, usd=2.0, minutes=30.0, tool_calls=40)
    assert budget.describe() == "50k tok, $2.00, 30 min, 40 tool calls"
    assert Budget.parse(budget.as_flag()) == budget
    assert Budget().describe() == "no budget"


@pytest.mark.parametrize(
    ("text", "said"),
    [
        ("tokens=0", "budget tokens: Input should be greater than or equal to 1"),
        ("cost=2", "budget 'cost' is not one of tokens, usd, minutes"),
        ("tokens", "budget 'tokens': give it as name=value"),
        ("usd=inf", "budget usd:"),
        ("tokens=1,tokens=2", "budget tokens is given twice"),
    ],
)
def test_a_bad_budget_is_refused_in_one_sentence(text: str, said: str) -> None:
    with pytest.raises(ValueError, match="^" + said.replace("$", r"\$")) as caught:
        Budget.parse(text)
    assert "\n" not in str(caught.value)


def test_a_child_gets_a_share_of_what_is_left_never_more() -> None:
    limit = Budget(tokens=10_000, usd=1.0, minutes=30, tool_calls=9, model_calls=10, children=3)
    left = {"tokens": 6_000.0, "usd": 0.6, "minutes": 20.0, "tool_calls": 9.0,
            "model_calls": 4.0, "children": 3.0}  # fmt: skip
    # Two live children already: the new one is the third to share what is left.
    share = share_for_child(limit, left, live_children=2)
    assert share.usd == pytest.approx(0.2)
    assert share.model_copy(update={"usd": None}) == Budget(
        tokens=2_000, minutes=20.0, tool_calls=3, model_calls=1, children=2
    )
    assert share_for_child(None, {}, 0) == Budget()
    alone = share_for_child(Budget(tokens=500), {"tokens": 500.0}, live_children=0)
    assert alone.tokens == 500  # the whole of what is left, not more


def test_counts_are_said_short() -> None:
    assert [short_count(n) for n in (999, 1234, 5000, 2_500_000)] == ["999", "1.2k", "5k", "2.5M"]


# -- the pause at a limit --------------------------------------------------------------------


async def test_a_spent_budget_pauses_before_the_next_model_call_and_a_raise_goes_on() -> None:
    script = Script.for_all(
        spends(80, call("note", text="a")),
        spends(80, call("note", text="b")),  # in flight when 100 is crossed: paid for
        spends(30, text="done"),
    )
    runtime, provider = build(script, budget=Budget(tokens=100))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        [stop] = await recorder.wait_for(lambda e: e.type == "budget:stop")
        await recorder.wait_for(lambda e: e.type == "agent:status" and e.new == "paused")
        assert isinstance(stop, BudgetReached)
        assert (stop.agent_id, stop.measure, stop.limit, stop.spent, stop.over) == (
            root,
            "tokens",
            100,
            160,
            60,
        )
        assert stop.stopped_agent == root
        assert len(provider.requests) == 2  # nothing more was asked of the model
        assert Command.PAST_BUDGET in runtime.allowed(root)
        runtime.set_budget(root, {"tokens": 1000})
        with anyio.fail_after(10):
            node = await runtime.wait(root)
    assert node.status is S.COMPLETED and node.result == "done"
    assert len(provider.requests) == 3
    state = RunState()
    recorder.sync()
    state.apply_all(recorder.events)
    assert state.agents[root].budget == Budget(tokens=1000)
    assert state.agents[root].budget_stop is None
    assert state.agents[root].subtree_tokens == 190


async def test_continue_once_lets_one_step_through_then_stops_again() -> None:
    script = Script.for_all(
        spends(100, call("note", text="a")),
        spends(10, call("note", text="b")),
        spends(10, text="done"),
    )
    runtime, provider = build(script, budget=Budget(tokens=50))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        await recorder.wait_for(lambda e: e.type == "budget:stop")
        await recorder.wait_for(lambda e: e.type == "agent:status" and e.new == "paused")
        runtime.continue_past_budget(root)
        await recorder.wait_for(lambda e: e.type == "budget:stop", count=2)
        await recorder.wait_for(lambda e: e.type == "agent:status" and e.new == "paused", 2)
        assert len(provider.requests) == 2  # the one step, no more
        runtime.cancel(root)
        with anyio.fail_after(10):
            node = await runtime.wait(root)
    assert node.status is S.CANCELLED
    assert typed(recorder.events, "budget:continue")


async def test_continue_once_is_refused_without_a_stop() -> None:
    runtime, _ = build(Script.for_all(spends(10, text="done")))
    async with runtime:
        root = runtime.start("work")
        with pytest.raises(CommandRefusedError, match="is not stopped by its budget"):
            runtime.continue_past_budget(root)
        with pytest.raises(CommandRefusedError, match="budget 'cost' is not one of"):
            runtime.set_budget(root, {"cost": 2})
        await runtime.wait(root)


async def test_a_tool_call_budget_stops_the_call_before_it_runs() -> None:
    script = Script.for_all(
        spends(1, call("note", text="a"), call("note", text="b")), spends(1, text="done")
    )
    runtime, _ = build(script, budget=Budget(tool_calls=1))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        [stop] = await recorder.wait_for(lambda e: e.type == "budget:stop")
        assert isinstance(stop, BudgetReached)
        assert (stop.measure, stop.spent, stop.over) == ("tool_calls", 1, 0)
        recorder.sync()
        assert len(typed(recorder.events, "tool:complete")) == 1
        runtime.set_budget(root, {"tool_calls": 5})
        with anyio.fail_after(10):
            assert (await runtime.wait(root)).status is S.COMPLETED


# -- subtrees --------------------------------------------------------------------------------


async def test_children_inherit_a_share_and_their_spending_counts_against_the_root() -> None:
    script = Script(
        agents={
            "main": [
                spends(100, call("fork", prompt="part one"), call("fork", prompt="part two")),
                spends(10, call("wait", handle="a2"), call("wait", handle="a3")),
                spends(10, text="all done"),
            ],
            "main.1": [spends(500, text="one")],
            "main.2": [spends(500, text="two")],
        }
    )
    runtime, _ = build(script, budget=Budget(tokens=1000))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("split")
        await recorder.wait_for(lambda e: e.type == "budget:stop")
        first, second = (runtime.node(i).budget for i in ("a2", "a3"))
        # 900 left when the first forked (alone): all of it; 900 left and one live sibling
        # when the second did: half.
        assert (first, second) == (Budget(tokens=900), Budget(tokens=450))
        stops = [e for e in recorder.events if isinstance(e, BudgetReached)]
        # The root's own budget was spent by its children's 1000: it stops at its next call.
        assert (stops[0].agent_id, stops[0].spent) == (root, 1110)
        runtime.cancel(root)
        with anyio.fail_after(10):
            await runtime.wait(root)
    state = RunState()
    recorder.sync()
    state.apply_all(recorder.events)
    assert state.agents[root].subtree_tokens == 1110
    assert state.agents["a2"].budget == Budget(tokens=900)


async def test_a_fork_forecast_past_what_is_left_is_refused_with_approvals_off() -> None:
    script = Script(
        agents={
            "main": [
                spends(10, call("fork", prompt="one"), call("wait", handle="a2")),
                spends(10, call("fork", prompt="two")),
                spends(10, text="did it myself"),
            ],
            "main.1": [spends(600, text="one")],
        }
    )
    runtime, provider = build(script, budget=Budget(tokens=1000), approve_all=True)
    async with runtime:
        root = runtime.start("split")
        with anyio.fail_after(10):
            node = await runtime.wait(root)
    assert node.status is S.COMPLETED and len(node.children) == 1
    last = [r for r in provider.requests if r.agent_id == root][-1].messages[-1]
    [(content, is_error)] = [(b.content, b.is_error) for b in last.tool_results]
    assert is_error
    assert content.startswith("cannot fork: a subagent is likely to spend 600 tok")
    assert "main's budget has 380 tok left" in content


async def test_a_fork_forecast_asks_the_person_first() -> None:
    script = Script(
        agents={
            "main": [
                spends(10, call("fork", prompt="one"), call("wait", handle="a2")),
                spends(10, call("fork", prompt="two")),
                spends(10, text="forked"),
            ],
            "main.1": [spends(600, text="one")],
            "main.2": [spends(1, text="two")],
        }
    )
    runtime, _ = build(script, budget=Budget(tokens=1000))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("split")
        [asked] = await recorder.wait_for(lambda e: e.type == "query:raised")
        assert asked.prompt.startswith("Fork past the budget? a subagent is likely to spend")
        runtime.approve(asked.query_id, "once")
        with anyio.fail_after(10):
            await runtime.wait(root)
    assert len(runtime.node(root).children) == 2


async def test_a_children_budget_refuses_a_fork_past_it() -> None:
    script = Script(
        agents={
            "main": [
                spends(1, call("fork", prompt="one"), call("fork", prompt="two")),
                spends(1, text="done"),
            ],
            "main.1": [Turn(text="one", hang_after_chunks=1)],
        }
    )
    runtime, provider = build(script, budget=Budget(children=1))
    async with runtime:
        root = runtime.start("split")
        with anyio.fail_after(10):
            await runtime.wait(root)
    last = [r for r in provider.requests if r.agent_id == root][-1].messages[-1]
    errors = [b.content for b in last.tool_results if b.is_error]
    assert errors == [
        "cannot fork: the budget of main allows 1 live subagents under it and 1 are running; "
        "wait for one to finish first"
    ]


# -- the table -------------------------------------------------------------------------------


def test_the_table_offers_continue_once_only_at_a_stop() -> None:
    paused = AgentView(AgentStatus.PAUSED)
    stopped = AgentView(AgentStatus.PAUSED, budget_stopped=True)
    assert Command.PAST_BUDGET not in allowed(paused, Mode.LOCAL)
    assert Command.PAST_BUDGET in allowed(stopped, Mode.LOCAL)
    assert Command.BUDGET in allowed(AgentView(AgentStatus.COMPLETED), Mode.LOCAL)
    assert Command.BUDGET not in allowed(AgentView(AgentStatus.DELETED), Mode.LOCAL)
    assert allowed(stopped, Mode.REPLAY) == frozenset()


# -- resume ----------------------------------------------------------------------------------


async def test_a_resumed_agent_keeps_its_budget_and_what_it_spent() -> None:
    script = Script.for_all(spends(80, call("note", text="a")), spends(80, text="done"))
    runtime, _ = build(script, budget=Budget(tokens=100))
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("work")
        await runtime.wait(root)  # 160 spent: the second call was in flight at 100
    recorder.sync()
    state = RunState(transcripts=False)
    state.apply_all(recorder.events)
    resumed, provider = build(script)
    async with resumed:
        resumed.adopt(state.agents[root])
        assert resumed.node(root).budget == Budget(tokens=100)
        again = Recorder(resumed)
        resumed.send(root, "go on")
        # What it spent before still counts: the continued run stops before its first call.
        [stop] = await again.wait_for(lambda e: e.type == "budget:stop")
        assert isinstance(stop, BudgetReached)
        assert (stop.spent, stop.limit) == (160, 100)
        assert provider.requests == []
        resumed.cancel(root)
        await resumed.wait(root)
