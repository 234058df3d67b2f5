"""core/ is the runtime alone: no module of it imports textual or the front ends."""

from __future__ import annotations

import subprocess
import sys

# Run in a fresh interpreter: this test process has imported textual and tui already.
IMPORT_ALL_OF_CORE = """
import importlib, pkgutil, sys
import agentui.core as core
names = [m.name for m in pkgutil.walk_packages(core.__path__, "agentui.core.")]
for name in names:
    importlib.import_module(name)
front = sorted(m for m in sys.modules if m.split(".")[0] == "textual" or m.startswith("agentui.tui"))
print(len(names))
print(" ".join(front))
"""


def test_no_core_module_imports_textual_or_tui() -> None:
    done = subprocess.run(
        [sys.executable, "-c", IMPORT_ALL_OF_CORE], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    count, front = done.stdout.splitlines()
    assert int(count) > 50  # the walk found the whole package, subpackages included
    assert front == "", f"core imported front-end modules: {front}"
