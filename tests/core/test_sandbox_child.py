"""The sandbox child reaches the C library through the handle the interpreter already has:
finding it by name (ctypes.util.find_library) runs `ldconfig -p`, once per use, dozens of
times per python call."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from agentui.core.tools.sandbox_command import CHILD_SOURCE, child_config, scrubbed_environment

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: prctl")

# Runs the child's source as agentui does, with find_library made to fail loudly.
NO_FIND_LIBRARY = """
import ctypes.util, sys
def refused(name):
    raise AssertionError(f"find_library({name!r}) called")
ctypes.util.find_library = refused
source = sys.argv.pop(1)
exec(compile(source, "sandbox_child", "exec"), {"__name__": "__main__"})
"""


def test_the_child_sets_itself_up_without_looking_for_the_c_library(tmp_path: Path) -> None:
    config = child_config("limited", str(tmp_path), sys.executable, landlock=False, probe=True)
    # The keeper, the parent-death signal and dropping capabilities all call into libc.
    config["drop_capabilities"] = True
    done = subprocess.run(
        [sys.executable, "-I", "-c", NO_FIND_LIBRARY, CHILD_SOURCE, json.dumps(config)],
        cwd=tmp_path,
        env=scrubbed_environment(str(tmp_path)),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=60,  # safety net only
        check=False,
    )
    assert done.returncode == 0, done.stderr
    facts = json.loads(done.stdout.splitlines()[-1])
    assert facts["capabilities"] == "0000000000000000"
