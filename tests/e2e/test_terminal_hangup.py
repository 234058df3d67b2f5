"""A terminal that hangs up ends agentui even when SIGHUP's handler cannot run (a main thread
blocked for ever, as it was once in Textual's writer queue)."""

from __future__ import annotations

import os
import pty
import select
import sys

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SAFETY_NET_S = 60.0  # only bounds a broken run

CHILD = """
import signal, threading
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # only the watcher can end it now
from agentui.tui.terminal_watch import exit_when_the_terminal_hangs_up
assert exit_when_the_terminal_hangs_up(0)
print("watching", flush=True)
threading.Event().wait()  # the main thread blocks for ever
"""


def test_the_process_exits_when_its_terminal_hangs_up() -> None:
    pid, leader = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", CHILD])
    seen = b""
    while b"watching" not in seen:
        ready, _, _ = select.select([leader], [], [], SAFETY_NET_S)
        assert ready, f"the child never started watching: {seen!r}"
        seen += os.read(leader, 1024)
    os.close(leader)  # the terminal hangs up
    ended = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([ended], [], [], SAFETY_NET_S)
        if not ready:
            os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(ended)
    assert ready, "the process outlived its terminal"
    assert os.waitstatus_to_exitcode(status) == 129
