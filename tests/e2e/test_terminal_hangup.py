"""A terminal that hangs up ends agentui even when SIGHUP's handler cannot run (a main thread
blocked for ever, as it was once in Textual's writer queue); so does the pipe `agentui web`
serves an app through, when the server closes it or ends."""

from __future__ import annotations

import os
import pty
import select
import subprocess
import sys

import pytest

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

SAFETY_NET_S = 60.0  # only bounds a broken run

# One write for the whole line: with PYTHONUNBUFFERED, print() wrote "watching" and "\n" apart,
# and the parent, hanging up on the first, made the second fail (EIO) and the child die of it.
CHILD = """
import os, signal, threading
signal.signal(signal.SIGHUP, signal.SIG_IGN)  # only the watcher can end it now
from agentui.tui.app.terminal_watch import exit_when_the_terminal_hangs_up
assert exit_when_the_terminal_hangs_up(0)
os.write(1, b"watching\\n")
threading.Event().wait()  # the main thread blocks for ever
"""


def _exit_code(pid: int) -> int | None:
    """The child's exit code once it ends; None (and it is killed) when it outlives the net."""
    ended = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([ended], [], [], SAFETY_NET_S)
        if not ready:
            os.kill(pid, 9)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(ended)
    return os.waitstatus_to_exitcode(status) if ready else None


def test_the_process_exits_when_its_terminal_hangs_up() -> None:
    pid, leader = pty.fork()
    if pid == 0:
        os.execv(sys.executable, [sys.executable, "-c", CHILD])
    seen = b""
    while b"watching\r\n" not in seen:  # the whole line: the child writes nothing after it
        ready, _, _ = select.select([leader], [], [], SAFETY_NET_S)
        assert ready, f"the child never started watching: {seen!r}"
        seen += os.read(leader, 1024)
    os.close(leader)  # the terminal hangs up
    code = _exit_code(pid)
    assert code is not None, "the process outlived its terminal"
    assert code == 129


def test_the_process_exits_when_the_pipe_it_is_served_through_closes() -> None:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE
    )
    assert child.stdin is not None and child.stdout is not None
    assert child.stdout.readline() == b"watching\n"
    child.stdin.close()  # the server's end: agentui web ended
    code = _exit_code(child.pid)
    child.returncode = code  # reaped above
    assert code is not None, "the process outlived its connection"
    assert code == 129
