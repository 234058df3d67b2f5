"""The app with no usable terminal exits at once with one message, and a terminal that hangs up
before the first frame ends it: Textual's input thread spun on such a stdin at full CPU, for ever
(`agentui sesions </dev/null` ran for ten minutes)."""

from __future__ import annotations

import os
import pty
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ..processes import gone, wait_until
from .cli_runs import TIMEOUT_S, child_env

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs a POSIX pseudo-terminal")

AGENTUI = [sys.executable, "-m", "agentui.tui.cli.main", "--no-session"]


def _read_all(leader: int) -> str:
    """What the child wrote on its terminal; it has ended (the pty reads EIO once drained)."""
    seen = b""
    while select.select([leader], [], [], TIMEOUT_S)[0]:
        try:
            chunk = os.read(leader, 65536)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
    return seen.decode(errors="replace")


@pytest.mark.parametrize("stdin", ["devnull", "closed pipe"])
def test_the_app_without_a_terminal_says_so_and_exits(tmp_path: Path, stdin: str) -> None:
    leader, follower = pty.openpty()  # its screen is a terminal; its input is not
    child = subprocess.Popen(
        [*AGENTUI, "--", "a one-word task"],
        stdin=subprocess.DEVNULL if stdin == "devnull" else subprocess.PIPE,
        stdout=follower,
        stderr=follower,
        env=child_env(tmp_path, TERM="xterm-256color"),
    )
    os.close(follower)
    if child.stdin is not None:
        child.stdin.close()  # `true | agentui TASK`: the end of its input at once
    try:
        assert wait_until(lambda: child.poll() is not None, TIMEOUT_S), "the app ran on"
        said = _read_all(leader)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait()
        os.close(leader)
    assert child.returncode == 2
    assert said.strip() == (
        "agentui: the app needs a terminal, and its input (stdin) is not one; "
        "`agentui run TASK` runs a task without a screen"
    )


@pytest.mark.parametrize("hangup", ["default", "ignored"])
def test_a_terminal_that_closes_before_the_first_frame_ends_the_app(
    tmp_path: Path, hangup: str
) -> None:
    env = child_env(tmp_path, TERM="xterm-256color")
    pid, leader = pty.fork()
    if pid == 0:
        if hangup == "ignored":  # as under nohup: only the app itself can notice
            signal.signal(signal.SIGHUP, signal.SIG_IGN)
        os.execve(sys.executable, [*AGENTUI, "haiku"], env)
    os.close(leader)  # long before Python has even started in the child
    try:
        assert wait_until(lambda: gone(pid), TIMEOUT_S), "the app outlived its terminal"
    finally:
        if not gone(pid):
            os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
