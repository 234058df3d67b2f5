"""A Python process that has imported the `agentui` command and forks a child per run.

Run as a script by preloaded_cli.py, one per test process. Each request (a JSON line on its
stdin: argv, env, cwd, and the files to use as the child's stdin, stdout and stderr) forks a
child that takes that environment, directory and those files, then runs
`python -m agentui.tui.cli.main ARGV` as the interpreter would (runpy, `__main__`), and exits as
that would: through SystemExit or an uncaught exception, atexit handlers and all. The reply (a
JSON line on stdout) is its exit status. Only the imports are shared: ~0.3 s of CPU per child,
~1.5 s for one on an SDK's provider.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import io
import json
import os
import runpy
import select
import signal
import sys
import tempfile
from typing import Any

COMMAND = "agentui.tui.cli.main"
# What children import; the SDKs only where installed.
PRELOAD = (
    COMMAND,
    "agentui.tui.cli.run",
    "agentui.tui.headless.run",
    "agentui.core.session.recording",
    "agentui.core.runtime",
    "anthropic",
    "openai",
    "google.genai",
)
WAIT_S = 60.0  # a safety net against a hung child, never a measurement


def main() -> None:
    for name in PRELOAD:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)
    # What was imported lives in every child: frozen, the children's collections do not walk it
    # (and copy its pages, written by the walk, out of the zygote's): 0.67 -> 0.15 s of CPU
    # per child.
    gc.collect()
    gc.freeze()
    requests = os.fdopen(os.dup(0), "rb")
    replies = os.fdopen(os.dup(1), "w")
    # The children must not hold the pipes to the test process: fds 0 and 1 are replaced by each
    # child's own files, and the copies above are closed in it.
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)
    os.dup2(null, 1)
    for line in requests:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            requests.close()
            replies.close()
            run_child(request)  # never returns: the child exits as `python -m` would
        replies.write(json.dumps({"code": wait_for(pid)}) + "\n")
        replies.flush()


def run_child(request: dict[str, Any]) -> None:
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    tempfile.tempdir = None  # TMPDIR may differ from the zygote's
    for fd, path, flags in (
        (0, request["stdin"], os.O_RDONLY),
        (1, request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
        (2, request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
    ):
        opened = os.open(path, flags, 0o600)
        os.dup2(opened, fd)
        os.close(opened)
    unbuffered = bool(os.environ.get("PYTHONUNBUFFERED"))
    encoding = sys.stdout.encoding
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "rb", closefd=False)), encoding=encoding, errors="strict"
    )
    sys.stdout = sys.__stdout__ = _text_out(1, encoding, "strict", unbuffered)
    sys.stderr = sys.__stderr__ = _text_out(2, encoding, "backslashreplace", True)
    sys.argv = [COMMAND, *request["argv"]]
    # As `python -m` runs it: its code as __main__, apart from the module others imported.
    sys.modules.pop(COMMAND, None)
    runpy.run_module(COMMAND, run_name="__main__", alter_sys=True)
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


def wait_for(pid: int) -> int:
    handle = os.pidfd_open(pid)
    try:
        ready, _, _ = select.select([handle], [], [], WAIT_S)
        if not ready:
            os.kill(pid, signal.SIGKILL)
    finally:
        os.close(handle)
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    main()
