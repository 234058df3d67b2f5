"""`python -S fork_launch.py FOLDER module NAME ARGS...` (or `path SCRIPT ARGS...`): a child
program for the tests, run as `python -m NAME ARGS` / `python SCRIPT ARGS` would run it, but
forked by the test process's fork server (fork_server.py) instead of started afresh.

This launcher is the process its starter sees: the program's stdin, stdout and stderr are this
process's own (handed over), the signals sent to it reach the program, it exits as the program
exits (with the same code, or dying of the same signal), and if it is killed the server kills
the program. Run with `-S` and importing only what Python has loaded already, it starts in ~10
ms. Where the server is not
there, or the environment changes how an interpreter starts (PYTHONPATH, the locale, ...), it
becomes the real interpreter instead (exec).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys

SOCKET_NAME = "forks.sock"
HOLDERS_NAME = "holders.sock"
STARTUP_NAME = "startup.json"
# Variables the interpreter reads as it starts: a program whose values differ needs its own.
STARTUP_VARIABLES = (
    "PYTHONPATH", "PYTHONHOME", "PYTHONIOENCODING", "PYTHONUTF8", "PYTHONDONTWRITEBYTECODE",
    "PYTHONOPTIMIZE", "PYTHONWARNINGS", "PYTHONDEVMODE", "PYTHONSAFEPATH", "PYTHONHASHSEED",
    "PYTHONMALLOC", "PYTHONFAULTHANDLER", "LANG", "LC_ALL", "LC_CTYPE",
)  # fmt: skip
FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGUSR1)


def startup_of(env: dict[str, str]) -> dict[str, str | None]:
    return {name: env.get(name) for name in STARTUP_VARIABLES}


def main() -> None:
    folder, kind, target, *args = sys.argv[1:]
    env = dict(os.environ)
    server = _connected(folder, env)
    if server is None:
        _become_the_program(kind, target, args)
    # A signal sent before the program's pid is known waits, then reaches the program.
    signal.pthread_sigmask(signal.SIG_BLOCK, FORWARDED)
    request = {"run": [kind, target], "argv": [target, *args], "env": env, "cwd": os.getcwd()}
    socket.send_fds(server, [json.dumps(request).encode()], [0, 1, 2])
    started = server.recv(4096)
    if not started:  # the server went before forking it: the program runs here instead
        signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
        _become_the_program(kind, target, args)
    pid = json.loads(started)["pid"]

    def forward(signum: int, _frame: object) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signum)

    for signum in FORWARDED:
        signal.signal(signum, forward)
    signal.pthread_sigmask(signal.SIG_UNBLOCK, FORWARDED)
    ended = server.recv(4096)
    code = json.loads(ended)["code"] if ended else -signal.SIGKILL
    if code < 0:  # die of the same signal, as the program did
        with contextlib.suppress(OSError):  # SIGKILL's disposition cannot be set (nor needs to)
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    os._exit(code)


def _become_the_program(kind: str, target: str, args: list[str]) -> None:
    """exec the real interpreter on the program (never returns)."""
    real = [sys.executable, "-m", target] if kind == "module" else [sys.executable, target]
    os.execv(sys.executable, [*real, *args])


def _connected(folder: str, env: dict[str, str]) -> socket.socket | None:
    try:
        with open(os.path.join(folder, STARTUP_NAME), encoding="utf-8") as file:
            if json.load(file) != startup_of(env):
                return None
        server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        server.connect(os.path.join(folder, SOCKET_NAME))
    except OSError:
        return None
    return server


if __name__ == "__main__":
    main()
