"""The tests' fork server (fork_server.py, fork_launch.py, forks.py): a program forked for a
launcher behaves, to whoever started the launcher, as the program started afresh would."""

from __future__ import annotations

import os
import select
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from .forks import FORKS

GUARD_S = 60  # a bound against a hang, never a measurement

PROGRAM = """
import os, signal, sys
def stop(signum, frame):
    print("stopped by", signum, flush=True)
    sys.exit(3)
signal.signal(signal.SIGTERM, stop)
# Held while the first line is said: a test signals once it has read that line, which it can
# before print returns, and the handler's print inside that one raises (reentrant call).
signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM})
print(os.getpid(), sys.argv[1:], os.environ.get("FORK_TEST"), flush=True)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})
line = sys.stdin.readline()
if line.startswith("kill"):
    os.kill(os.getpid(), signal.SIGKILL)
sys.exit(int(line or 0))
"""


def _started(tmp_path: Path, **env: str) -> tuple[subprocess.Popen[str], int, str]:
    script = tmp_path / "program.py"
    script.write_text(PROGRAM, encoding="utf-8")
    launcher = subprocess.Popen(
        FORKS.command("path", str(script), "an", "argument"),
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
        env=os.environ | {"FORK_TEST": "seen", **env},
    )
    assert launcher.stdout is not None
    first = launcher.stdout.readline()
    pid, rest = first.split(" ", 1)
    return launcher, int(pid), rest.strip()


def _ended(pid: int) -> bool:
    try:
        handle = os.pidfd_open(pid)
    except ProcessLookupError:
        return True
    try:
        return bool(select.select([handle], [], [], GUARD_S)[0])
    finally:
        os.close(handle)


def test_the_program_gets_its_arguments_environment_and_files_and_its_exit_code(
    tmp_path: Path,
) -> None:
    launcher, pid, said = _started(tmp_path)
    assert pid != launcher.pid, "forked, not the launcher itself"
    assert said == "['an', 'argument'] seen"
    assert launcher.communicate("7\n", timeout=GUARD_S)[0] == ""
    assert launcher.returncode == 7


def test_a_signal_to_the_launcher_reaches_the_program(tmp_path: Path) -> None:
    launcher, _, _ = _started(tmp_path)
    launcher.send_signal(signal.SIGTERM)
    assert launcher.stdout is not None
    # Read before closing its stdin: at its end the program would exit by itself.
    assert select.select([launcher.stdout], [], [], GUARD_S)[0], "the signal did not arrive"
    assert launcher.stdout.readline() == f"stopped by {int(signal.SIGTERM)}\n"
    launcher.communicate(timeout=GUARD_S)
    assert launcher.returncode == 3


def test_a_program_killed_by_a_signal_kills_its_launcher_with_it(tmp_path: Path) -> None:
    launcher, _, _ = _started(tmp_path)
    out, _ = launcher.communicate("kill\n", timeout=GUARD_S)
    assert launcher.returncode == -signal.SIGKILL
    assert out == "", "no traceback of the launcher's own"


def test_a_killed_launcher_s_program_is_killed(tmp_path: Path) -> None:
    launcher, pid, _ = _started(tmp_path)
    launcher.kill()
    launcher.wait(timeout=GUARD_S)
    assert _ended(pid), "the program outlived its launcher"


def test_an_environment_that_changes_how_python_starts_gets_a_real_interpreter(
    tmp_path: Path,
) -> None:
    launcher, pid, said = _started(tmp_path, PYTHONHASHSEED="123")
    assert pid == launcher.pid, "exec'd: the launcher became the program"
    assert said == "['an', 'argument'] seen"
    launcher.communicate("0\n", timeout=GUARD_S)
    assert launcher.returncode == 0


def test_run_gives_the_exit_status_and_the_output_through_the_files_given(
    tmp_path: Path,
) -> None:
    script = tmp_path / "program.py"
    script.write_text(PROGRAM, encoding="utf-8")
    (tmp_path / "in").write_text("5\n", encoding="utf-8")
    files = (
        os.open(tmp_path / "in", os.O_RDONLY),
        os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT, 0o600),
        os.open(tmp_path / "err", os.O_WRONLY | os.O_CREAT, 0o600),
    )
    try:
        env = dict(os.environ)
        code = FORKS.run("path", str(script), ["x"], env=env, cwd=tmp_path, files=files)
    finally:
        for fd in files:
            os.close(fd)
    assert code == 5
    assert (tmp_path / "out").read_text(encoding="utf-8").endswith("['x'] None\n")
    assert (tmp_path / "err").read_text(encoding="utf-8") == ""


ENDING = """
import atexit, sys, threading
how = sys.argv[1]
atexit.register(lambda: print("atexit ran"))
release = threading.Event()
def late():
    release.wait()
    print("the thread finished")
threading.Thread(target=late).start()
sys.stdout.write("buffered, unflushed; ")
release.set()
if how == "message":
    sys.exit("a message")
if how == "raise":
    raise ValueError("uncaught")
if how == "interrupt":
    raise KeyboardInterrupt
if how == "big":
    sys.exit(256 + 4)
"""


@pytest.mark.parametrize(
    ("how", "status", "stderr_has"),
    [
        ("end", 0, ""),
        ("message", 1, "a message"),
        ("raise", 1, "ValueError: uncaught"),
        ("interrupt", -signal.SIGINT, "KeyboardInterrupt"),
        ("big", 4, ""),
    ],
)
def test_a_program_ends_as_the_interpreter_ends_it(
    tmp_path: Path, how: str, status: int, stderr_has: str
) -> None:
    """Its end as a program sees it: threads waited for, atexit run, output flushed, the
    status (and message) of how it ended, whatever the fork server skips of finalization."""
    script = tmp_path / "ending.py"
    script.write_text(ENDING, encoding="utf-8")
    files = (
        os.open(os.devnull, os.O_RDONLY),
        os.open(tmp_path / "out", os.O_WRONLY | os.O_CREAT, 0o600),
        os.open(tmp_path / "err", os.O_WRONLY | os.O_CREAT, 0o600),
    )
    try:
        code = FORKS.run(
            "path", str(script), [how], env=dict(os.environ), cwd=tmp_path, files=files
        )
    finally:
        for fd in files:
            os.close(fd)
    fresh = subprocess.run(
        [sys.executable, str(script), how], capture_output=True, text=True, timeout=GUARD_S
    )
    out = (tmp_path / "out").read_text(encoding="utf-8")
    err = (tmp_path / "err").read_text(encoding="utf-8")
    assert (code, out) == (fresh.returncode, fresh.stdout), "as a fresh interpreter"
    assert code == status
    assert out == "buffered, unflushed; the thread finished\natexit ran\n"
    assert stderr_has in err and stderr_has in fresh.stderr
