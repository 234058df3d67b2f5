"""The status line: what it counts, and what it keeps when the terminal is narrow."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from agentui.core.agent_status import AgentStatus
from agentui.core.state import AgentState, RunState
from agentui.tui.widgets.status_bar import RunCounts, StatusBar

pytestmark = pytest.mark.anyio


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar()


def run_of(*statuses: AgentStatus) -> RunState:
    model = RunState()
    for i, status in enumerate(statuses):
        agent = AgentState(id=f"a{i}", name=f"agent-{i}", task="t", status=status, created_at=0.0)
        model.agents[agent.id] = agent
    return model


S = AgentStatus
ENDINGS = (S.COMPLETED,) * 3 + (S.CANCELLED,) * 2 + (S.ERROR, S.DELETED, S.RUNNING)


def test_done_counts_only_what_completed() -> None:
    counts = RunCounts.of(run_of(*ENDINGS))

    assert (counts.done, counts.cancelled, counts.failed, counts.deleted) == (3, 2, 1, 1)
    assert counts.ended_apart() == [("cancelled", 2), ("failed", 1), ("deleted", 1)]


async def test_the_line_shows_cancelled_failed_and_deleted_apart_from_done() -> None:
    app = BarApp()
    async with app.run_test(size=(160, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(run_of(*ENDINGS), "prov", "m1", elapsed=None)
        await pilot.pause()
        line = str(bar.render())
        assert "done 3  cancelled 2  failed 1  deleted 1" in line
        bar.show(run_of(S.COMPLETED), "prov", "m1", elapsed=None)
        await pilot.pause()
        assert "cancelled" not in str(bar.render()), "only the endings there are"
