"""A budget's gauge never pushes the task out of a tree row: two roots with budgets can be
told apart by their tasks at 80 and at 120 columns. The gauge gives way first (its unit, then
the elapsed time, then its bar or amounts); its numbers are whole or not shown."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from agentui.core.agent.budget import Budget
from agentui.core.protocol.agent_status import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state import AgentState
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.agent_tree import agent_label

from .helpers import has_status, make_app, runtime_of, settle
from .test_budget import note, spends

pytestmark = pytest.mark.anyio

HOLD = Turn(text="Working on it.", hang_after_chunks=3)
TASKS = ("Plan the launch event", "Plan the press kit")


def _rows(app: AgentUIApp, count: int) -> list[str]:
    tree = app.main.tree_view
    return [tree.render_line(y).text.rstrip() for y in range(count)]


async def _two_roots_with_budgets(pilot: Pilot[int]) -> AgentUIApp:
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    runtime = await runtime_of(pilot)
    runtime.budget = Budget(tokens=6_000)
    for task in TASKS:
        runtime.start(task)
    await settle(pilot, has_status(app, "a1", S.RUNNING))
    await settle(pilot, has_status(app, "a2", S.RUNNING))
    await settle(pilot, lambda: app.main.model.agents["a2"].subtree_tokens > 0)
    return app


@pytest.mark.painted
@pytest.mark.parametrize("size", [(80, 24), (120, 40)], ids=["80x24", "120x40"])
async def test_two_roots_with_budgets_show_enough_of_their_tasks_to_tell_them_apart(
    size: tuple[int, int],
) -> None:
    script = Script(agents={"*": [spends(1_200), HOLD]})
    app = make_app(None, script, tools=[note])
    async with app.run_test(size=size) as pilot:
        await _two_roots_with_budgets(pilot)
        first, second = _rows(app, 2)
    # "Plan the l…" and "Plan the p…": the words that differ are on the row.
    assert "Plan the l" in first, first
    assert "Plan the p" in second, second
    assert "tok" not in first + second, "the unit goes before the task's words"


def _row(width: int) -> str:
    agent = AgentState(
        id="a1",
        name="main",
        task="Prepare the launch plan",
        created_at=0.0,
        status=S.RUNNING,
        budget=Budget(tokens=6_000),
        subtree_tokens=2_100,
        first_started_at=0.0,
    )
    return agent_label(agent, 46.0, {}, width).plain


@pytest.mark.parametrize("width", [16, 20, 24, 28, 32, 40, 48, 60])
def test_the_gauge_gives_way_before_the_task_and_never_cuts_a_number(width: int) -> None:
    row = _row(width)
    assert len(row) <= width
    assert row.startswith("● main Prep"), row  # the task's fair share
    assert "2.1k/6k" in row or "2.1" not in row, f"amounts whole or gone: {row!r}"
    assert "46s" in row or "4" not in row.split("  ")[-1], f"the clock whole or gone: {row!r}"


def test_a_wide_row_shows_the_whole_task_and_the_whole_gauge() -> None:
    assert _row(60) == "● main Prepare the launch plan  2.1k/6k tok █▊    46s"
    assert _row(36) == "● main Prepare the l…  2.1k/6k █▊   "
