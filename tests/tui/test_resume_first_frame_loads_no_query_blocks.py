"""A first frame with no question or approval in it (a new app's, a resumed session's whose
agents wait on nobody) does not load the blocks that wait on the person
(tui/app/widgets/query_blocks.py, ~4 ms of widget classes): they load with the first such entry."""

from __future__ import annotations

from pathlib import Path

import anyio

from .saved_runs import LEFT, saved_run
from .test_start_loads_little import FIRST_FRAME_PROBE, RESUMED_FIRST_FRAME_PROBE, _modules_probe

QUERY_BLOCKS = "agentui.tui.app.widgets.query_blocks"


def test_a_resumed_first_frame_with_no_question_loads_no_query_block(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    anyio.run(saved_run, folder, "20260101T000000Z-aaaa", LEFT)  # every agent done
    loaded = set(_modules_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.tui.app.widgets.blocks" in loaded  # its transcript is drawn
    assert QUERY_BLOCKS not in loaded


def test_a_new_app_s_first_frame_loads_no_query_block(tmp_path: Path) -> None:
    assert QUERY_BLOCKS not in set(_modules_probe(FIRST_FRAME_PROBE, tmp_path))
