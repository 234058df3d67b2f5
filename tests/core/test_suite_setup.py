"""tests/conftest.py: the suite passes whatever terminal the developer's shell exports, and
leaves no folder behind (a run left one in /tmp per process, 67 after a few days)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

PROBE = """
import os

def test_what_the_set_up_gives():
    assert "COLUMNS" not in os.environ and "LINES" not in os.environ
    assert os.environ["TERM"] == "xterm-256color"
    assert os.path.isdir(os.environ["TMPDIR"])
    assert os.environ["AGENTUI_DATA_DIR"].startswith(os.environ["TMPDIR"])
"""


def test_the_set_up_pins_the_terminal_and_removes_its_folder(tmp_path: Path) -> None:
    probe = tmp_path / "test_probe.py"
    probe.write_text(PROBE, encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    shell = {"COLUMNS": "80", "LINES": "24", "TERM": "dumb", "PYTHONUNBUFFERED": "1"}
    pytest = [sys.executable, "-m", "pytest", "-q", "-c", os.devnull, "-p", "no:cacheprovider"]
    run = subprocess.run(
        [*pytest, "-p", "tests.conftest", str(probe)],
        cwd=ROOT,
        env={**os.environ, **shell, "TMPDIR": str(temp)},
        capture_output=True,
        text=True,
        timeout=100,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert list(temp.iterdir()) == []
