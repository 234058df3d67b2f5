"""Time travel as pictures, at 80x24 and 120x40: the window of an agent's steps, the steps
marked in the transcript, a rewound agent with the subagents it set aside, and a fork beside
its origin. Frozen clock, fixed ids, the scripted model at pace 0 (tests/tui/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from textual.pilot import Pilot

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.time_travel import TimeTravelScreen

from .helpers import has_status, make_app, runtime_of, settle
from .test_time_travel import SCRIPT, TOOLS

SIZES = [(80, 24), (120, 40)]
HOLD = Turn(text="Working through the first part of the plan now.", hang_after_chunks=3)


def _app(pilot: Pilot[int]) -> AgentUIApp:
    assert isinstance(pilot.app, AgentUIApp)
    return pilot.app


def _counting_app() -> AgentUIApp:
    return make_app("Count the guests", SCRIPT, tools=TOOLS)


async def _counted(pilot: Pilot[int]) -> AgentUIApp:
    app = _app(pilot)
    await settle(pilot, has_status(app, "a1", S.COMPLETED))
    app.main.tree_view.focus()
    await pilot.pause()
    return app


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_the_window_of_an_agents_steps(snap_compare: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _counted(pilot)
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))

    assert snap_compare(_counting_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_each_step_marked_in_the_transcript(snap_compare: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        await _counted(pilot)
        await pilot.press("number_sign")

    assert snap_compare(_counting_app(), run_before=run_before, terminal_size=size)


def _planning_app() -> AgentUIApp:
    # main holds mid-answer; of its subagents main.2 finishes, the others hold.
    script = Script(agents={"*": [HOLD], "main.2": [Turn(text="Budget done: 1,200 EUR.")]})
    return make_app("Plan a product launch", script)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_rewound_agent_and_the_subagents_it_set_aside(
    snap_compare: Any, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = _app(pilot)
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.RUNNING))
        for task in ("Find venues in Lisbon", "Draft the budget", "Write the invitations"):
            runtime.start(task, parent_id="a1")
        await settle(pilot, has_status(app, "a3", S.COMPLETED))
        runtime.rewind("a1", 0)  # back to its task: every subagent came after it
        await settle(pilot, has_status(app, "a1", S.PAUSED))
        await settle(pilot, lambda: all(app.main.model.agents[a].set_aside for a in ("a2", "a3")))
        await settle(pilot, has_status(app, "a4", S.CANCELLED))
        app.main.tree_view.focus()
        await pilot.pause()

    assert snap_compare(_planning_app(), run_before=run_before, terminal_size=size)


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_fork_beside_its_origin(snap_compare: Any, size: tuple[int, int]) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app = await _counted(pilot)
        runtime = await runtime_of(pilot)
        fork = runtime.fork_from("a1", 1)
        app.main.select_when_shown(fork)
        await settle(pilot, has_status(app, fork, S.COMPLETED))
        await settle(pilot, lambda: app.main.selected_id == fork)

    assert snap_compare(_counting_app(), run_before=run_before, terminal_size=size)
