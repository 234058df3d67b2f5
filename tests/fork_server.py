"""A Python process that has imported what the suite's child processes import (the `agentui`
command, the MCP server SDK, the ACP SDK) and forks a child per request instead of starting an
interpreter: a child costs ~0.1 s of CPU where a fresh one costs 0.8-1.5 s.

Run as a script by forks.py, one per test process, with the folder of its socket as argument.
A request is one SOCK_SEQPACKET message on that socket: JSON (`argv`, `env`, `cwd`, and `run`:
`["path", SCRIPT]` or `["module", NAME]`) with the three files to use as the child's stdin,
stdout and stderr passed along (SCM_RIGHTS). The child takes that environment, directory and
those files and runs the script or module as `python SCRIPT` / `python -m NAME` would (runpy,
`__main__`), exiting as that would. The reply is `{"pid": N}` at once, then `{"code": C}` when
the child ends (C as `subprocess` gives it: negative for a signal). When the requester's end of
the socket closes first (the launcher killed), the child is killed: it lives exactly as long as
the process that asked for it. The server ends when its stdin (a pipe from the test process)
closes, killing the children still running.

Only the loop's own process forks, from a single thread: nothing holds a lock across the fork.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import runpy
import selectors
import signal
import socket
import sys
import tempfile
from pathlib import Path
from typing import Any

from fork_launch import SOCKET_NAME, STARTUP_NAME, startup_of  # beside this script

PRELOAD = (
    "agentui.tui.cli.main",
    "agentui.tui.cli.run",
    "agentui.tui.cli.acp",
    "agentui.tui.headless.run",
    "agentui.core.session.recording",
    "agentui.core.runtime",
    "agentui.core.acp.agent",
    "acp",
    "mcp.server.mcpserver",
    "mcp.server.stdio",
    "anthropic",
    "openai",
    "google.genai",
)
REQUEST_BYTES = 1 << 20


class _Child:
    def __init__(self, pid: int, requester: socket.socket) -> None:
        self.pid = pid
        self.requester = requester
        self.pidfd = os.pidfd_open(pid)


def main() -> None:
    folder = Path(sys.argv[1])
    # This script's folder is the tests' package, whose `mcp` would hide the SDK's.
    sys.path[0] = str(folder)
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    # What was imported lives in every child: frozen, the children's collections neither walk
    # it nor copy its pages out of this process (0.67 -> 0.15 s of CPU per child).
    gc.collect()
    gc.freeze()
    (folder / STARTUP_NAME).write_text(json.dumps(startup_of(dict(os.environ))))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(str(folder / SOCKET_NAME))
    listener.listen(64)
    print("ready", flush=True)  # to the test process, which waits for it
    control = os.dup(0)  # the test process's pipe: its end closes when the test process ends
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # no child holds the pipes to the test process
        os.dup2(null, fd)
    os.close(null)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(control, selectors.EVENT_READ, "control")
    by_pidfd: dict[int, _Child] = {}
    by_requester: dict[socket.socket, _Child] = {}

    def close_own_files() -> None:
        """In a child: none of the server's files stay open (detached first, so that no socket
        object closes a number the child's own files take later)."""
        selector.close()
        for held in (listener, *by_requester):
            os.close(held.detach())
        for pidfd in by_pidfd:
            os.close(pidfd)
        os.close(control)

    while True:
        for key, _ in selector.select():
            what = key.data
            if what == "control":
                for child in by_pidfd.values():
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(child.pid, signal.SIGKILL)
                return
            if what == "accept":
                requester, _ = listener.accept()
                selector.register(requester, selectors.EVENT_READ, "request")
            elif what == "request":
                requester = key.fileobj
                assert isinstance(requester, socket.socket)
                selector.unregister(requester)
                message, fds, _, _ = socket.recv_fds(requester, REQUEST_BYTES, 3)
                if not message or len(fds) != 3:
                    for fd in fds:
                        os.close(fd)
                    requester.close()
                    continue
                sys.stdout.flush()
                sys.stderr.flush()
                pid = os.fork()
                if pid == 0:
                    close_own_files()
                    os.close(requester.detach())
                    run_child(json.loads(message), fds)  # never returns
                for fd in fds:
                    os.close(fd)
                child = _Child(pid, requester)
                by_pidfd[child.pidfd] = child
                by_requester[requester] = child
                selector.register(child.pidfd, selectors.EVENT_READ, "ended")
                selector.register(requester, selectors.EVENT_READ, "gone")
                _reply(requester, {"pid": pid})
            elif what == "gone":  # the requester closed its end (or wrote, which it never does)
                requester = key.fileobj
                assert isinstance(requester, socket.socket)
                with contextlib.suppress(ProcessLookupError):
                    os.kill(by_requester[requester].pid, signal.SIGKILL)
                selector.unregister(requester)
            else:  # "ended"
                pidfd = key.fd
                child = by_pidfd.pop(pidfd)
                selector.unregister(pidfd)
                os.close(pidfd)
                _, status = os.waitpid(child.pid, 0)
                by_requester.pop(child.requester)
                with contextlib.suppress(KeyError, ValueError):
                    selector.unregister(child.requester)
                _reply(child.requester, {"code": os.waitstatus_to_exitcode(status)})
                child.requester.close()


def _reply(requester: socket.socket, message: dict[str, int]) -> None:
    with contextlib.suppress(OSError):  # the requester may be gone
        requester.send(json.dumps(message).encode())


def run_child(request: dict[str, Any], fds: list[int]) -> None:
    """Become the requested program: its files, environment, directory and argv, then its code
    as `__main__`; exit as the interpreter would (SystemExit, or an uncaught exception)."""
    signal.signal(signal.SIGINT, signal.default_int_handler)
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None  # TMPDIR may differ from the server's
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    encoding = sys.stdout.encoding
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding=encoding, errors="strict"
    )
    sys.stdout = sys.__stdout__ = _text_out(1, encoding, "strict", unbuffered)
    sys.stderr = sys.__stderr__ = _text_out(2, encoding, "backslashreplace", True)
    sys.argv = list(request["argv"])
    kind, target = request["run"]
    if kind == "module":
        # As `python -m` runs it: its code as __main__, apart from the module others imported,
        # and the directory it was started in first on the path.
        sys.path[0] = os.getcwd()
        sys.modules.pop(target, None)
        runpy.run_module(target, run_name="__main__", alter_sys=True)
    else:
        sys.path[0] = str(Path(target).resolve().parent)
        runpy.run_path(target, run_name="__main__")
    raise SystemExit(0)


def _text_out(fd: int, encoding: str, errors: str, unbuffered: bool) -> io.TextIOWrapper:
    raw = io.FileIO(fd, "wb", closefd=False)
    # Unbuffered (-u, PYTHONUNBUFFERED), Python's own stream writes through to the raw file.
    binary: io.RawIOBase | io.BufferedWriter = raw if unbuffered else io.BufferedWriter(raw)
    return io.TextIOWrapper(
        binary,  # type: ignore[arg-type]  # the raw file, as Python's own unbuffered one
        encoding=encoding,
        errors=errors,
        line_buffering=not unbuffered and fd == 2,
        write_through=unbuffered,
    )


if __name__ == "__main__":
    main()
