"""A suite started in the background (`cmd &` in a script, nohup) has SIGINT, SIGQUIT and SIGHUP
ignored; the children its tests start get them at their defaults (tests/conftest.py), as when a
person runs the program: an interrupt reaches them."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# As the test process: conftest imported, then a child started; the child says which of the
# three signals it has ignored.
CHILD_REPORTS_IGNORED = """
import subprocess, sys
import tests.conftest
child = "import signal; print([s for s in (2, 3, 1) if signal.getsignal(s) == signal.SIG_IGN])"
print(subprocess.run([sys.executable, "-c", child], capture_output=True, text=True).stdout)
"""


def _started_ignoring() -> None:
    for signum in (signal.SIGINT, signal.SIGQUIT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)


def test_a_test_s_child_gets_the_interrupt_back_when_the_suite_ignores_it() -> None:
    done = subprocess.run(
        [sys.executable, "-c", CHILD_REPORTS_IGNORED],
        capture_output=True,
        text=True,
        cwd=ROOT,
        preexec_fn=_started_ignoring,
        timeout=60,
        check=True,
    )
    assert done.stdout.strip() == "[]", done.stderr
