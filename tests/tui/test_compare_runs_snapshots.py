"""The palette's "Compare runs…" as pictures: two saved runs that part at a tool call's
arguments, at 80x24 and 120x40 (the first divergence marked and highlighted, the two steps
whole under the list, the keys' hint whole on its line); two scenes on their rounds page at
80x24 (the round that differs marked). Sessions made by the scripted model at pace 0 under
fixed ids, frozen clock."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.run_comparison import Run, open_runs_comparison
from agentui.tui.app.screens.runs_diff import RunsComparisonScreen

from .helpers import make_app, settle
from .saved_runs import NEW, OLD, sessions_folder, two_runs, two_scenes

SIZES = [(80, 24), (120, 40)]


def compare_old_and_new(folder: Path) -> Any:
    """Open the comparison of OLD and NEW (the palette's last step) and wait for it."""

    async def run_before(pilot: Pilot[int]) -> None:
        app = pilot.app
        assert isinstance(app, AgentUIApp)
        await pilot.pause()
        a, b = (Run(name, folder / f"{name}.jsonl") for name in (OLD, NEW))
        open_runs_comparison(app, a, b)

        def drawn() -> bool:
            screen = app.screen
            return isinstance(screen, RunsComparisonScreen) and screen.result is not None

        await settle(pilot, drawn)

    return run_before


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_two_saved_runs_side_by_side(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]
) -> None:
    folder = sessions_folder(tmp_path, monkeypatch)
    two_runs(folder)
    run_before = compare_old_and_new(folder)
    assert snap_compare(make_app(), run_before=run_before, terminal_size=size)


def test_two_scenes_round_by_round(
    snap_compare: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = sessions_folder(tmp_path, monkeypatch)
    two_scenes(folder)
    run_before = compare_old_and_new(folder)
    assert snap_compare(make_app(), run_before=run_before, terminal_size=(80, 24))
