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
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

from .fork_launch import SOCKET_NAME, startup_of

SERVER = Path(__file__).with_name("fork_server.py")
LAUNCHER = Path(__file__).with_name("fork_launch.py")
RUN_TIMEOUT_S = 60


class ForkServer:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._process: subprocess.Popen[bytes] | None = None
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
        """The server's folder (its socket), the server started on first use."""
        with self._lock:
            if self._process is None:
                self._folder = tempfile.mkdtemp(prefix="agentui-forks-")
                self._startup = startup_of(dict(os.environ))
                self._process = subprocess.Popen(
                    [sys.executable, str(SERVER), self._folder],
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    start_new_session=True,  # a signal to a test's process group spares it
                )
                atexit.register(self.close)
                assert self._process.stdout is not None
                if self._process.stdout.readline() != b"ready\n":
                    raise RuntimeError("the fork server did not start")
            return self._folder

    def close(self) -> None:
        process, self._process = self._process, None
        if process is not None:
            assert process.stdin is not None
            with contextlib.suppress(OSError):
                process.stdin.close()  # its loop ends, killing the programs still running
            process.wait()
            shutil.rmtree(self._folder, ignore_errors=True)


FORKS = ForkServer()
