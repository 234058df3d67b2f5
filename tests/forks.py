"""Child Python programs of the tests (the `agentui` command, `agentui acp`, MCP servers) forked
from one process per test process that has imported them already (fork_server.py), instead of
each paying 0.8-1.5 s of CPU for its imports.

`FORKS.command(...)` is a command line to give whatever starts the program (a config's MCP
server, an ACP client): the launcher (fork_launch.py) that stands for the program. `FORKS.run`
runs one to its end with the files given, for the CLI's tests (preloaded_cli.py).

What a fork cannot show, how the program itself starts (what it imports, how long its first
frame takes, what a fresh interpreter inherits), is tested with real processes:
tests/tui/test_start_loads_little.py, tests/e2e/test_app_terminal.py.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .fork_launch import HOLDERS_NAME, SOCKET_NAME, STARTUP_NAME, startup_of

SERVER = Path(__file__).with_name("fork_server.py")
LAUNCHER = Path(__file__).with_name("fork_launch.py")
RUN_TIMEOUT_S = 60


SHARED_FOLDER = "PYTEST_AGENTUI_FORKS"  # set by tests/conftest.py in pytest's main process


def shared_folder() -> Path | None:
    """Where the workers of this pytest-xdist run find their server (a private folder their
    main process made: tests/conftest.py); None outside xdist."""
    if "PYTEST_XDIST_WORKER" not in os.environ or SHARED_FOLDER not in os.environ:
        return None
    return Path(os.environ[SHARED_FOLDER])


class ForkServer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None  # when this process started it
        self._holder: socket.socket | None = None  # when another did
        self._folder = ""
        self._startup: dict[str, str | None] = {}

    def command(self, kind: str, target: str, *args: str) -> list[str]:
        """`python -m TARGET ARGS` (kind "module") or `python TARGET ARGS` (kind "path"), as
        a command line whose program is forked by the server."""
        return [sys.executable, "-S", str(LAUNCHER), self.folder(), kind, target, *args]

    def run(
        self,
        kind: str,
        target: str,
        args: list[str],
        *,
        env: dict[str, str],
        cwd: Path,
        files: tuple[int, int, int],
    ) -> int | None:
        """The program run to its end on these stdin, stdout and stderr; its exit status as
        `subprocess` gives it. None when its environment needs an interpreter of its own (the
        caller starts one)."""
        folder = self.folder()
        if startup_of(env) != self._startup:
            return None
        request = {"run": [kind, target], "argv": [target, *args], "env": env, "cwd": str(cwd)}
        with socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET) as server:
            try:
                server.connect(os.path.join(folder, SOCKET_NAME))
            except OSError:  # the server is gone: a real interpreter instead
                return None
            socket.send_fds(server, [json.dumps(request).encode()], list(files))
            if not server.recv(4096):  # its pid; nothing: the server went before forking
                return None
            # A safety net against a hung program (closing the socket makes the server kill
            # it), never a measurement.
            server.settimeout(RUN_TIMEOUT_S)
            ended = server.recv(4096)
        if not ended:
            raise RuntimeError("the fork server ended while the program ran")
        code: int = json.loads(ended)["code"]
        return code

    def folder(self) -> str:
        """The server's folder (its socket), the server found or started on first use."""
        with self._lock:
            if not self._folder:
                shared = shared_folder()
                if shared is None:
                    self._folder = self._start(tempfile.mkdtemp(prefix="agentui-forks-"))
                else:
                    self._folder = self._share(shared)
                atexit.register(self.close)
                startup = Path(self._folder, STARTUP_NAME).read_text(encoding="utf-8")
                self._startup = json.loads(startup)
            return self._folder

    def _share(self, shared: Path) -> str:
        """The run's server, held; started here if it has none (or it is ending)."""
        with open(shared / "lock", "a+b") as lock:
            fcntl.flock(lock, fcntl.LOCK_EX)  # one starts it, the others wait and share it
            current = shared / "current"
            with contextlib.suppress(OSError):
                folder = current.read_text(encoding="utf-8")
                holder = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
                holder.settimeout(30)  # a server stopped or hung: another is started
                try:
                    holder.connect(os.path.join(folder, HOLDERS_NAME))
                    if holder.recv(2) == b"ok":
                        holder.settimeout(None)
                        self._holder = holder
                        return folder
                except OSError:
                    pass
                holder.close()
            folder = self._start(tempfile.mkdtemp(prefix="server-", dir=shared))
            current.write_text(folder, encoding="utf-8")
            return folder

    def _start(self, folder: str) -> str:
        self._process = subprocess.Popen(
            [sys.executable, str(SERVER), folder],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            start_new_session=True,  # a signal to a test's process group spares it
        )
        assert self._process.stdout is not None
        if self._process.stdout.readline() != b"ready\n":
            raise RuntimeError("the fork server did not start")
        return folder

    def close(self) -> None:
        """Let go of the server: it ends once every test process sharing it has (this one
        waits for it only when it is its own)."""
        holder, self._holder = self._holder, None
        if holder is not None:
            holder.close()
        process, self._process = self._process, None
        if process is None:
            return
        assert process.stdin is not None
        with contextlib.suppress(OSError):
            process.stdin.close()  # its loop ends, killing the programs still running
        if shared_folder() is None:
            process.wait()
            shutil.rmtree(self._folder, ignore_errors=True)


FORKS = ForkServer()
