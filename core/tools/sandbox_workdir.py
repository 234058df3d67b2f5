"""The python tool's working directories: one per run, named after the agentui process that
made it, so that one left by an agentui killed mid-run (SIGKILL skips every `finally`) is found
and removed by the next agentui: it holds the model's code and whatever that wrote."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from agentui.core.support.process_tree import alive


def new_workdir(prefix: str) -> str:
    """A new directory, `PREFIX<pid>-<random>` in the temporary folder."""
    return tempfile.mkdtemp(prefix=f"{prefix}{os.getpid()}-")


def remove_orphaned_workdirs(prefix: str) -> None:
    """Directories `prefix` names whose agentui is gone (a live pid's are another run's)."""
    with contextlib.suppress(OSError):
        for entry in Path(tempfile.gettempdir()).iterdir():
            owner = entry.name.removeprefix(prefix).partition("-")[0]
            if entry.name.startswith(prefix) and owner.isdigit() and not alive(int(owner)):
                shutil.rmtree(entry, ignore_errors=True)
