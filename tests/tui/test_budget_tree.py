"""Budgets in the agent tree: each agent with a budget shows its subtree's spend against the
measure nearest its limit (`6.3k/10k tok`) and a bar in eighths of a cell; calls and live
subagents are added up the chain as they change (a change costs the tree's depth, not its size);
snapshots at 80x24 and 120x40."""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot

from agentui.core.agent.budget import Budget
from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.protocol.events import BudgetReached
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state import AgentState
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.agent_tree import AgentTree, agent_label
from agentui.tui.app.widgets.budget_gauge import BAR_CELLS, Gauge, gauge_bar, nearest_limit

from .helpers import has_status, make_app, runtime_of, settle
from .test_budget import note, spends

pytestmark = pytest.mark.anyio

HOLD = Turn(text="Splitting the launch plan between three helpers.", hang_after_chunks=3)


def agent(**fields: Any) -> AgentState:
    fields.setdefault("id", "a1")
    return AgentState(name="main", task="Plan a launch", created_at=0.0, **fields)


# -- the gauge -------------------------------------------------------------------------------


def test_the_measure_nearest_its_limit_is_shown() -> None:
    spent = agent(budget=Budget(tokens=10_000, usd=2.0), subtree_tokens=1_200, subtree_usd=1.5)
    gauge = nearest_limit(spent)
    assert gauge is not None and gauge.words() == "$1.50/$2.00"
    calls = agent(budget=Budget(tokens=10_000, tool_calls=4), subtree_tokens=1_200)
    gauge = nearest_limit(calls, {"model_calls": 2, "tool_calls": 3, "children": 0})
    assert gauge is not None and gauge.words() == "3/4 tools"
    # Without the subtree's counts, only the fold's sums are read.
    gauge = nearest_limit(calls)
    assert gauge is not None and gauge.words() == "1.2k/10k tok"


def test_at_a_stop_the_measure_that_stopped_it_is_shown() -> None:
    stop = BudgetReached(
        agent_id="a1", seq=1, ts=0.0, stopped_agent="a1", measure="minutes", limit=30.0,
        spent=30.5,
    )  # fmt: skip
    stopped = agent(budget=Budget(tokens=10_000, minutes=30), subtree_tokens=9_000)
    stopped.budget_stop = stop
    gauge = nearest_limit(stopped)
    assert gauge is not None and gauge.words() == "30.5/30 min"
    # Before it, active minutes are not in the fold: tokens are what is known.
    stopped.budget_stop = None
    assert nearest_limit(stopped) == Gauge("tokens", 10_000, 9_000)


def test_the_bar_fills_in_eighths_and_says_near_and_past() -> None:
    palette = {"agent-running": "green", "agent-paused": "yellow", "agent-error": "red"}
    assert gauge_bar(0.0, palette).plain == " " * BAR_CELLS
    assert gauge_bar(0.001, palette).plain == "▏" + " " * (BAR_CELLS - 1)  # a spend shows
    assert gauge_bar(0.5, palette).plain == "██▌  "
    assert gauge_bar(3.0, palette).plain == "█" * BAR_CELLS
    colours = [str(gauge_bar(share, palette).style.color.name) for share in (0.5, 0.9, 1.0)]  # type: ignore[union-attr]
    assert colours == ["green", "yellow", "red"]


def test_a_row_with_a_budget_shows_the_gauge_instead_of_its_tokens() -> None:
    row = agent(budget=Budget(tokens=5_000), subtree_tokens=1_234, first_started_at=0.0)
    assert agent_label(row, 12.0, {}).plain.endswith("  1.2k/5k tok █▏    12s")


# -- counted up the chain --------------------------------------------------------------------


class TreeApp(App[None]):
    def compose(self) -> ComposeResult:
        yield AgentTree(clock=lambda: 100.0)


async def test_calls_and_live_subagents_are_added_up_the_chain_as_they_change() -> None:
    root = agent(status=S.RUNNING, budget=Budget(tool_calls=10, children=4))
    children = [agent(id=f"c{i}", parent_id="a1", status=S.RUNNING, tool_calls=1) for i in range(3)]
    root.children = [c.id for c in children]
    async with TreeApp().run_test() as pilot:
        tree = pilot.app.query_one(AgentTree)
        tree.add_agents([root, *children])
        assert tree._counted(root) == {"model_calls": 0, "tool_calls": 3, "children": 3}
        children[0].tool_calls = 4
        children[1].status = S.COMPLETED
        tree.relabel(children[:2])
        assert tree._counted(root) == {"model_calls": 0, "tool_calls": 6, "children": 2}
        label = agent_label(root, 100.0, {}, counted=tree._counted(root))
        assert "6/10 tools" in label.plain  # 60 % of its tools, 50 % of its live subagents


class CountingTree(AgentTree):
    """Notes which agents' rows were drawn."""

    def __init__(self) -> None:
        super().__init__(clock=lambda: 100.0)
        self.drawn: list[str] = []

    def render_label(self, node, base_style, style):  # type: ignore[no-untyped-def]
        if node.data is not None:
            self.drawn.append(node.data)
        return super().render_label(node, base_style, style)


class WideTreeApp(App[None]):
    CSS = "CountingTree { height: 10; }"

    def compose(self) -> ComposeResult:
        yield CountingTree()


@pytest.mark.painted
async def test_a_change_under_a_budget_of_5000_agents_draws_only_the_rows_on_screen() -> None:
    root = agent(status=S.RUNNING, budget=Budget(tool_calls=50_000))
    children = [agent(id=f"c{i}", parent_id="a1", status=S.RUNNING) for i in range(5_000)]
    root.children = [c.id for c in children]
    async with WideTreeApp().run_test(size=(80, 20)) as pilot:
        tree = pilot.app.query_one(CountingTree)
        tree.add_agents([root, *children])
        await pilot.pause()
        tree.drawn.clear()
        children[-1].tool_calls = 7  # off screen, under the root on screen
        tree.relabel([children[-1]])
        await pilot.pause()
        assert tree.drawn == ["a1"], "the root's gauge is drawn again, and nothing else"
        assert tree._counted(root) == {"model_calls": 0, "tool_calls": 7, "children": 5_000}


# -- pictures --------------------------------------------------------------------------------


def _budget_tree_app() -> AgentUIApp:
    script = Script(
        agents={
            "*": [HOLD],
            "main.1": [spends(1_200, calls=2), spends(300, calls=0, text="Three venues.")],
            "main.2": [spends(4_000), spends(800, calls=0, text="Budget done: 1,200 EUR.")],
        }
    )
    return make_app(None, script, tools=[note])


async def _budgets_spent(pilot: Pilot[int]) -> None:
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    runtime = await runtime_of(pilot)
    runtime.budget = Budget(tokens=10_000, tool_calls=8)
    runtime.start("Plan a product launch")
    await settle(pilot, has_status(app, "a1", S.RUNNING))
    for task in ("Find venues in Lisbon", "Draft the budget", "Write the invitations"):
        runtime.start(task, parent_id="a1")
    await settle(pilot, has_status(app, "a2", S.COMPLETED))
    await settle(pilot, has_status(app, "a3", S.COMPLETED))
    app.main.tree_view.focus()
    await pilot.pause()


@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
def test_the_tree_shows_each_budget_s_spend(snap_compare: Any, size: tuple[int, int]) -> None:
    assert snap_compare(_budget_tree_app(), run_before=_budgets_spent, terminal_size=size)
