"""A suite started in the background (`cmd &` in a script, nohup) has SIGINT, SIGQUIT and SIGHUP
ignored; the children its tests start get them at their defaults (tests/conftest.py), as when a
person runs the program: an interrupt reaches them."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# As the test process of a suite started in the background: the three signals ignored, conftest
# imported, then a child started; the child says which of them it has ignored, and this process
# says which it still ignores in effect (caught and dropped counts).
CHILD_REPORTS_IGNORED = """
import signal, subprocess, sys
for signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
    signal.signal(signum, signal.SIG_IGN)
import tests.conftest
print([signal.getsignal(s) not in (signal.SIG_IGN, signal.SIG_DFL, signal.default_int_handler)
       for s in (2, 3, 1)])
child = "import signal; print([s for s in (2, 3, 1) if signal.getsignal(s) == signal.SIG_IGN])"
print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout)
"""


def test_a_test_s_child_gets_the_signals_a_background_suite_ignores() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD_REPORTS_IGNORED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=60,
        check=True,
    )
    still_ignored_here, ignored_by_the_child = done.stdout.split("\n")[:2]
    assert still_ignored_here == "[True, True, True]", "pytest itself keeps ignoring them"
    assert ignored_by_the_child == "[]", done.stderr
