"""Screens as SVG snapshots: frozen clock, fixed ids, zero-delay scripted streams."""

from __future__ import annotations

from typing import Any

from agentui.core.tree import AgentStatus
from agentui.tui.app import AgentUIApp
from textual.pilot import Pilot
from textual.widgets import Input

from .helpers import make_app, settle


def _no_blink(app: AgentUIApp) -> None:
    app.query_one("#prompt", Input).cursor_blink = False


def test_start_screen(snap_compare: Any) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        _no_blink(pilot.app)  # type: ignore[arg-type]

    assert snap_compare(make_app(), run_before=run_before, terminal_size=(100, 28))


def test_waiting_question(snap_compare: Any) -> None:
    app = make_app("Plan a birthday party")

    async def run_before(pilot: Pilot[int]) -> None:
        _no_blink(app)
        await settle(pilot, lambda: bool(app.model.open_queries))

    assert snap_compare(app, run_before=run_before, terminal_size=(100, 28))


def test_completed_run_at_80_by_24(snap_compare: Any) -> None:
    app = make_app("Plan a birthday party")

    async def run_before(pilot: Pilot[int]) -> None:
        _no_blink(app)
        await settle(pilot, lambda: bool(app.model.open_queries))
        await pilot.press(*"cake", "enter")
        await settle(pilot, lambda: app.model.agents["a1"].status is AgentStatus.COMPLETED)

    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
