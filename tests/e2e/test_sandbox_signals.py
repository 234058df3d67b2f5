"""No process a python tool started outlives `agentui run` or the app, whatever ends it:
SIGTERM, SIGHUP (the terminal closed), and under bubblewrap even SIGKILL.

The model code starts a sleeper in a session of its own, then blocks. The test finds the
sleeper from outside by a marker on its command line (under bubblewrap the pid the code sees
is not ours), ends agentui, and looks until the sleeper is gone (a bounded deadline: the
kernel announces the end of a process only to its parent).
"""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from ..processes import BWRAP_ONLY, SANDBOXES, marked, new_marker, wait_until
from .test_app_terminal import Terminal
from .test_headless import TIMEOUT_S, child_env

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="Linux: /proc, prctl, namespaces"
)

BLOCKS_WITH_A_SLEEPER = (
    "import subprocess, sys, time\n"
    "subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(600)', {marker!r}],\n"
    "                 start_new_session=True)\n"
    "print('started', flush=True)\n"
    "time.sleep(600)\n"
)


def start_agentui(tmp_path: Path, marker: str, sandbox: str) -> subprocess.Popen[bytes]:
    code = BLOCKS_WITH_A_SLEEPER.format(marker=marker)
    call = {"tool_calls": [{"name": "python", "arguments": {"code": code}}]}
    script = tmp_path / "sleeper.json"
    script.write_text(json.dumps({"agents": {"main": [call, {"text": "done"}]}}))
    command = [
        sys.executable,
        "-m",
        "agentui.tui.cli.main",
        "run",
        "--yes",
        "--script",
        str(script),
    ]
    return subprocess.Popen(
        [*command, "Start a sleeper"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=(tmp_path / "stderr.txt").open("wb"),
        env=child_env(AGENTUI_SANDBOX=sandbox),
        cwd=tmp_path,
    )


def end_with(signum: int, tmp_path: Path, sandbox: str) -> int:
    """Start agentui, wait for the sleeper, send `signum`; agentui's exit status once the
    sleeper is gone (fails while it lives)."""
    marker = new_marker()
    agentui = start_agentui(tmp_path, marker, sandbox)
    try:
        assert wait_until(lambda: bool(marked(marker)), TIMEOUT_S), (
            "the sleeper never started: " + (tmp_path / "stderr.txt").read_text()
        )
        agentui.send_signal(signum)
        status = agentui.wait(TIMEOUT_S)
        assert wait_until(lambda: not marked(marker)), "the sleeper outlived agentui"
        return status
    finally:
        agentui.kill()
        agentui.wait(TIMEOUT_S)
        for pid in marked(marker):  # only if the test failed: leave nothing behind
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("sandbox", SANDBOXES)
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_termination_signal_ends_agentui_in_order_and_the_sleeper_with_it(
    signum: int, sandbox: str, tmp_path: Path
) -> None:
    status = end_with(signum, tmp_path, sandbox)
    stderr = (tmp_path / "stderr.txt").read_text()
    assert status == 130 and "agentui: interrupted" in stderr, stderr  # as after Ctrl+C
    assert "Traceback" not in stderr
    # Where it was kept, for `agentui --resume` (an interrupted run is when it matters most).
    assert re.search(r"agentui: session \S+ saved; `agentui --resume \S+` reopens it", stderr)


@BWRAP_ONLY
def test_sigkill_of_agentui_takes_the_bubblewrapped_sleeper_with_it(tmp_path: Path) -> None:
    assert end_with(signal.SIGKILL, tmp_path, "auto") == -signal.SIGKILL


# -- the app -------------------------------------------------------------------------------------


def start_app(tmp_path: Path, marker: str, sandbox: str) -> Terminal:
    code = BLOCKS_WITH_A_SLEEPER.format(marker=marker)
    call = {"tool_calls": [{"name": "python", "arguments": {"code": code}}]}
    script = tmp_path / "sleeper.json"
    script.write_text(json.dumps({"agents": {"main": [call, {"text": "done"}]}}))
    env = child_env(AGENTUI_SANDBOX=sandbox, TERM="xterm-256color")
    argv = [sys.executable, "-m", "agentui.tui.cli.main", "--yes", "--script", str(script)]
    return Terminal([*argv, "--pace", "0", "Start a sleeper"], env)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_sigterm_quits_the_app_in_order_and_the_sleeper_with_it(
    sandbox: str, tmp_path: Path
) -> None:
    marker = new_marker()
    term = start_app(tmp_path, marker, sandbox)
    try:
        term.read_until(lambda: bool(marked(marker)), "the sleeper to start")
        os.kill(term.pid, signal.SIGTERM)
        assert term.wait_exit() == 0
        assert b"\x1b[?1049l" in term.raw, "the alternate screen was left: the terminal is clean"
        assert wait_until(lambda: not marked(marker)), "the sleeper outlived the app"
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)


@pytest.mark.parametrize("sandbox", SANDBOXES)
def test_closing_the_terminal_ends_the_app_and_the_sleeper_with_it(
    sandbox: str, tmp_path: Path
) -> None:
    marker = new_marker()
    term = start_app(tmp_path, marker, sandbox)
    try:
        term.read_until(lambda: bool(marked(marker)), "the sleeper to start")
        os.close(term.fd)  # the terminal goes: the kernel sends the app SIGHUP
        assert wait_until(lambda: os.waitpid(term.pid, os.WNOHANG) != (0, 0)), (
            "the app outlived its terminal"
        )
        assert wait_until(lambda: not marked(marker)), "the sleeper outlived the app"
    finally:
        for pid in marked(marker):
            os.kill(pid, signal.SIGKILL)
