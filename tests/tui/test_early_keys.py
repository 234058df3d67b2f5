"""Keys typed while agentui starts are not echoed by the terminal, and the terminal's own
settings come back after the app."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import termios
from collections.abc import Iterator
from pathlib import Path

import pytest

from agentui.tui.cli.early_keys import (
    hold_typed_keys,
    release_typed_keys,
    take_typed_keys,
    typed_lines,
    unechoed_terminal,
)


def test_echo_is_off_while_the_app_starts_and_restored_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    leader, follower = os.openpty()
    try:
        with os.fdopen(os.dup(follower), "r") as terminal:
            monkeypatch.setattr(sys, "stdin", terminal)
            before = termios.tcgetattr(follower)
            assert before[3] & termios.ECHO
            with unechoed_terminal():
                assert not termios.tcgetattr(follower)[3] & termios.ECHO
                assert termios.tcgetattr(follower)[3] & termios.ICANON, "only echo changes"
            assert termios.tcgetattr(follower) == before
    finally:
        os.close(leader)
        os.close(follower)


def test_without_a_terminal_nothing_happens(monkeypatch: pytest.MonkeyPatch) -> None:
    read, write = os.pipe()
    try:
        with os.fdopen(os.dup(read), "r") as pipe:
            monkeypatch.setattr(sys, "stdin", pipe)
            with unechoed_terminal():
                pass
    finally:
        os.close(read)
        os.close(write)


@pytest.fixture
def keyboard_and_terminal(monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[int, int]]:
    """stdin is a pseudo-terminal with echo on: the fd keys are typed into, and stdin's."""
    leader, follower = os.openpty()
    try:
        with os.fdopen(os.dup(follower), "r") as stdin:
            monkeypatch.setattr(sys, "stdin", stdin)
            yield leader, follower
    finally:
        release_typed_keys()
        os.close(leader)
        os.close(follower)


@pytest.fixture
def terminal(keyboard_and_terminal: tuple[int, int]) -> int:
    """stdin's fd, a pseudo-terminal with echo on."""
    return keyboard_and_terminal[1]


def _echoes(fd: int) -> bool:
    return bool(termios.tcgetattr(fd)[3] & termios.ECHO)


def test_holding_twice_and_releasing_once_gives_the_terminal_back(terminal: int) -> None:
    """The executable holds echo off, the app's own hold is then a no-op: one release (the
    app's end, or the executable's) restores what the shell had."""
    before = termios.tcgetattr(terminal)
    hold_typed_keys()
    hold_typed_keys()
    assert not _echoes(terminal)
    release_typed_keys()
    assert termios.tcgetattr(terminal) == before
    release_typed_keys()  # nothing held: nothing changes
    assert termios.tcgetattr(terminal) == before


def test_a_command_that_is_not_the_app_echoes_again_before_its_work(
    terminal: int, capsys: pytest.CaptureFixture[str]
) -> None:
    """`agentui run` reads the person's answers on stdin: they must see what they type."""
    from agentui.tui.cli import main as cli

    hold_typed_keys()  # as the executable does before importing the cli
    assert cli.main(["config", "path"]) == 0
    assert _echoes(terminal)
    assert capsys.readouterr().out.strip().endswith("config.toml")


# A stand-in for an interactive shell: a session leader on a new pty, in the foreground, that
# starts `argv` in a process group of its own (a background job, as `cmd &` makes it) and says
# on stderr how it ended.
BACKGROUND_JOB = """
import fcntl, os, signal, sys, termios
leader, follower = os.openpty()
pid = os.fork()
if pid == 0:
    report = os.dup(2)
    os.setsid()
    fcntl.ioctl(follower, termios.TIOCSCTTY, 0)
    for fd in (0, 1, 2):
        os.dup2(follower, fd)
    signal.signal(signal.SIGTTOU, signal.SIG_IGN)
    os.tcsetpgrp(0, os.getpgrp())
    job = os.fork()
    if job == 0:
        os.setpgid(0, 0)
        signal.signal(signal.SIGTTOU, signal.SIG_DFL)
        os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
        os.execv(sys.argv[1], sys.argv[1:])
    _, status = os.waitpid(job, os.WUNTRACED)
    if os.WIFSTOPPED(status):
        os.kill(job, signal.SIGKILL)
        os.waitpid(job, 0)
        os.write(report, f"STOPPED by signal {os.WSTOPSIG(status)}\\n".encode())
        os._exit(1)
    echo = bool(termios.tcgetattr(0)[3] & termios.ECHO)
    os.write(report, f"EXITED {os.waitstatus_to_exitcode(status)} echo={echo}\\n".encode())
    os._exit(0)
os.waitpid(pid, 0)
"""


def test_a_background_job_runs_and_leaves_the_terminal_alone() -> None:
    """`agentui serve &`: touching the terminal from the background would stop the job."""
    agentui = str(Path(sys.executable).with_name("agentui"))
    out = subprocess.run(
        [sys.executable, "-c", BACKGROUND_JOB, agentui, "config", "path"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "STOPPED" not in out.stderr, out.stderr
    assert "EXITED 0 echo=True" in out.stderr, out.stderr


ENDED_WHILE_HELD = """
import os, signal, sys, time
from agentui.tui.cli.early_keys import hold_typed_keys
hold_typed_keys()
os.kill(os.getpid(), signal.SIGTERM)
time.sleep(60)
"""


def test_sigterm_while_echo_is_held_gives_the_terminal_back_then_ends() -> None:
    leader, follower = os.openpty()
    try:
        ended = subprocess.run(
            [sys.executable, "-c", ENDED_WHILE_HELD], stdin=follower, timeout=120
        )
        assert ended.returncode == -signal.SIGTERM
        assert _echoes(follower)
    finally:
        os.close(leader)
        os.close(follower)


def test_keys_the_app_never_read_are_taken_from_the_terminal_not_left_to_the_shell(
    keyboard_and_terminal: tuple[int, int],
) -> None:
    """A line not ended by enter too: the shell would read it once agentui ended."""
    keyboard, terminal = keyboard_and_terminal
    with unechoed_terminal():
        before = termios.tcgetattr(terminal)
        os.write(keyboard, b"plan it\rthen quickly")
        assert take_typed_keys() == "plan it\nthen quickly"  # the tty reads \r as \n
        assert take_typed_keys() == "", "taken: nothing is left for the shell"
        assert termios.tcgetattr(terminal) == before, "the terminal's mode is back"
    assert take_typed_keys() == "", "nothing is taken from a terminal not held"


def test_typed_keys_read_as_the_words_they_type() -> None:
    keys = "y quic\x7fckly\rnext\x1b[Aone\x1bOP two\x1b[200~\x03"
    assert typed_lines(keys) == ["y quickly", "nextone two"]
    assert typed_lines("") == [""]
