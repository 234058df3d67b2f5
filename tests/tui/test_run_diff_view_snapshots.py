"""The side-by-side comparison as pictures, at 80x24 and 120x40: a fork beside its origin,
scrolled to where they part, the two steps in full under the list; and a fork's steps window with its Compare button, at 80 columns
(four buttons in a row). Frozen clock, fixed ids, the scripted model at pace 0, the session
saved to a temporary directory (the window reads its log)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widgets import Static

from agentui.tui.app.agent_comparison import open_comparison
from agentui.tui.app.screens.time_travel import TimeTravelScreen

from .helpers import settle
from .test_run_diff_view import FORKED, compared, forked, marked, recording_app, rows

SIZES = [(80, 24), (120, 40)]


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_a_fork_beside_its_origin_step_by_step(
    snap_compare: Any, tmp_path: Path, size: tuple[int, int]
) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app, fork = await forked(pilot)
        open_comparison(app, fork, "a1")
        await settle(pilot, lambda: compared(app))
        await settle(pilot, lambda: any(marked(r, "▶", "42 guests.") for r in rows(app.screen)))  # type: ignore[arg-type]
        detail = app.screen.query_one("#detail", Static)
        await settle(pilot, lambda: "42 guests." in str(detail.render()))

    assert snap_compare(recording_app(FORKED, tmp_path), run_before=run_before, terminal_size=size)


def test_a_forks_steps_window_offers_to_compare(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[int]) -> None:
        app, _ = await forked(pilot)
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))

    app = recording_app(FORKED, tmp_path)
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
