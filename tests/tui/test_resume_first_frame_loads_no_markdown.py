"""A resumed session whose shown answer is plain words draws its first frame without loading
rich.markdown and markdown_it (plain_answer.py draws it as they would, ~25 ms sooner)."""

from __future__ import annotations

from pathlib import Path

import anyio

from .saved_runs import LEFT, saved_run
from .test_start_loads_little import RESUMED_FIRST_FRAME_PROBE, _modules_probe


def test_a_plain_answer_in_a_resumed_first_frame_loads_no_markdown(tmp_path: Path) -> None:
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    anyio.run(saved_run, folder, "20260101T000000Z-aaaa", LEFT)  # its answer: "Done on the left."
    loaded = set(_modules_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.tui.app.widgets.blocks" in loaded  # the answer is drawn
    assert [name for name in ("rich.markdown", "markdown_it") if name in loaded] == []
