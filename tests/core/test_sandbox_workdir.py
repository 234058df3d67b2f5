"""The python tool's working directories: named after their agentui, and removed by the next
agentui when theirs was killed mid-run (SIGKILL runs no `finally`: they held the model's code)."""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path

import pytest

from agentui.core.tools.sandbox import WORKDIR_PREFIX
from agentui.core.tools.sandbox_workdir import new_workdir, remove_orphaned_workdirs


def a_dead_pid() -> int:
    child = subprocess.Popen(["true"])
    child.wait()
    return child.pid


def test_a_killed_agentui_s_directories_go_and_a_live_one_s_stay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    mine = Path(new_workdir(WORKDIR_PREFIX))
    assert mine.name.startswith(f"{WORKDIR_PREFIX}{os.getpid()}-")
    orphan = tmp_path / f"{WORKDIR_PREFIX}{a_dead_pid()}-abc"
    orphan.mkdir()
    (orphan / "main.py").write_text("print('left behind')")
    unnamed = tmp_path / f"{WORKDIR_PREFIX}abc"  # not one of ours (no pid): left alone
    unnamed.mkdir()
    other = tmp_path / "someone-else-123-x"
    other.mkdir()
    remove_orphaned_workdirs(WORKDIR_PREFIX)
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [mine.name, unnamed.name, other.name]
    )
