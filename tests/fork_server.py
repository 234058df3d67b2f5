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
the process that asked for it.

The test processes of one run (pytest-xdist's workers) share one server (forks.py): the one that
started it holds its stdin (a pipe), the others a connection to `holders.sock`, each answered
`ok` while the server goes on. It ends when the pipe and every holder have closed, killing the
children still running; a holder that connects as it ends gets no `ok` and starts another.

Only the loop's own process forks, from a single thread: nothing holds a lock across the fork.
"""

from __future__ import annotations

import atexit
import contextlib
import gc
import importlib
import io
import json
import os
import runpy
import selectors
import shutil
import signal
import socket
import sys
import tempfile
import threading
from pathlib import Path
from typing import Any

from fork_launch import HOLDERS_NAME, SOCKET_NAME, STARTUP_NAME, startup_of  # beside this script

PRELOAD = (
    "agentui.tui.cli.main",
    "agentui.tui.cli.run",
    "agentui.tui.cli.acp",
    "agentui.tui.headless.run",
    "agentui.core.session.recording",
    "agentui.core.runtime",
    "agentui.core.acp.agent",
    # What `agentui run` and the listing commands import as they start (a child importing
    # them itself spent 0.17 of its 0.27 s of CPU on it): the settings' models, the tools
    # and their sandbox, the offline model, the commands.
    "agentui.core.config.settings",
    "agentui.tui.cli.assemble",
    "agentui.tui.cli.headless_command",
    "agentui.core.tools.builtin",
    "agentui.core.providers.factory",
    "agentui.core.providers.scripted.demo",
    "agentui.core.attention.stall_watch",
    "agentui.core.session.checkpoint_keeping",
    "agentui.core.session.search_index",
    "agentui.core.scene.scene_loading",
    "agentui.tui.cli.sessions",
    "agentui.tui.cli.search",
    "agentui.tui.cli.scenes",
    "agentui.tui.cli.config",
    "agentui.tui.cli.diff",
    "agentui.tui.cli.replay",
    "agentui.core.providers.scripted.provider",
    "agentui.core.providers.scripted.narration",
    "agentui.core.support.termination",
    "anyio._backends._asyncio",
    "landlockpy",
    "ctypes.util",
    "acp",
    "mcp.server.mcpserver",
    "mcp.server.stdio",
    "anthropic",
    "openai",
    "google.genai",
)
REQUEST_BYTES = 1 << 20


def _build_deferred_models() -> None:
    """agentui's models that build on first use (their schemas deferred to keep start-up
    short) built here once, not in every child (29 of them in each `agentui run`). Only
    agentui's: the SDKs defer ~2,700 of their own, which cost seconds and 200 MiB to build."""
    from pydantic import BaseModel
    from pydantic._internal._mock_val_ser import MockValSer

    pending = [BaseModel]
    while pending:
        model = pending.pop()
        pending.extend(model.__subclasses__())
        deferred = isinstance(model.__dict__.get("__pydantic_validator__"), MockValSer)
        if deferred and model.__module__.startswith("agentui."):
            with contextlib.suppress(Exception):  # one a child cannot build fails there, as ever
                model.model_rebuild()


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
        try:
            importlib.import_module(name)
        except Exception as error:  # a child that needs it imports it (and fails) itself
            print(f"fork server: {name} not preloaded: {error!r}", file=sys.stderr)
    _build_deferred_models()
    # What was imported lives in every child: frozen, the children's collections neither walk
    # it nor copy its pages out of this process (0.67 -> 0.15 s of CPU per child).
    gc.collect()
    gc.freeze()
    (folder / STARTUP_NAME).write_text(json.dumps(startup_of(dict(os.environ))))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(str(folder / SOCKET_NAME))
    listener.listen(64)
    holders = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    holders.bind(str(folder / HOLDERS_NAME))
    holders.listen(16)
    print("ready", flush=True)  # to the test process, which waits for it
    control = os.dup(0)  # the test process's pipe: its end closes when the test process ends
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1):  # no child holds the pipes to the test process
        os.dup2(null, fd)
    os.close(null)
    # A child never returns from the loop: it exits as its program.
    _Loop(listener, holders, control).run()
    shutil.rmtree(folder, ignore_errors=True)


class _Loop:
    """One thread: accept a request, fork its child, answer when it ends; kill a child whose
    requester went away; once the control pipe and every holder have closed, kill and reap
    every child."""

    def __init__(self, listener: socket.socket, holders: socket.socket, control: int) -> None:
        self.listener = listener
        self.holders_listener = holders
        self.control: int | None = control
        self.holders: set[socket.socket] = set()
        self.selector = selectors.DefaultSelector()
        self.selector.register(listener, selectors.EVENT_READ, "accept")
        self.selector.register(holders, selectors.EVENT_READ, "hold")
        self.selector.register(control, selectors.EVENT_READ, "control")
        self.requesters: set[socket.socket] = set()  # every open connection, child or not yet
        self.by_pidfd: dict[int, _Child] = {}
        self.by_requester: dict[socket.socket, _Child] = {}
        self.pid = os.getpid()

    def run(self) -> None:
        while True:
            for key, _ in self.selector.select():
                if key.data in ("control", "unhold"):
                    self.let_go(key)
                    if self.control is None and not self.holders:
                        self.end()
                        return
                    continue
                try:
                    self.handle(key)
                except OSError as error:
                    if os.getpid() != self.pid:
                        raise  # a child's program raised it: it ends the child, as uncaught
                    print(f"fork server: {error!r}", file=sys.stderr)  # the loop goes on

    def let_go(self, key: selectors.SelectorKey) -> None:
        """The control pipe or a holder closed (its test process ended)."""
        self.selector.unregister(key.fileobj)
        if key.data == "control":
            assert self.control is not None
            os.close(self.control)
            self.control = None
            return
        holder = key.fileobj
        assert isinstance(holder, socket.socket)
        self.holders.discard(holder)
        holder.close()

    def handle(self, key: selectors.SelectorKey) -> None:
        what = key.data
        if what == "hold":
            holder, _ = self.holders_listener.accept()
            try:
                holder.sendall(b"ok")
            except OSError:  # gone already
                holder.close()
                return
            self.holders.add(holder)
            self.selector.register(holder, selectors.EVENT_READ, "unhold")
        elif what == "accept":
            requester, _ = self.listener.accept()
            self.requesters.add(requester)
            self.selector.register(requester, selectors.EVENT_READ, "request")
        elif what == "request":
            requester = key.fileobj
            assert isinstance(requester, socket.socket)
            self.selector.unregister(requester)
            message, fds, _, _ = socket.recv_fds(requester, REQUEST_BYTES, 3)
            if not message or len(fds) != 3:
                for fd in fds:
                    os.close(fd)
                self.forget(requester)
                return
            self.start(requester, json.loads(message), fds)
        elif what == "gone":  # the requester closed its end: its program goes with it
            requester = key.fileobj
            assert isinstance(requester, socket.socket)
            self.selector.unregister(requester)
            child = self.by_requester.get(requester)
            if child is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.pid, signal.SIGKILL)
        else:  # "ended"
            child = self.by_pidfd.pop(key.fd)
            self.selector.unregister(key.fd)
            os.close(key.fd)
            _, status = os.waitpid(child.pid, 0)
            self.by_requester.pop(child.requester, None)
            with contextlib.suppress(KeyError, ValueError):
                self.selector.unregister(child.requester)
            _reply(child.requester, {"code": os.waitstatus_to_exitcode(status)})
            self.forget(child.requester)

    def start(self, requester: socket.socket, request: dict[str, Any], fds: list[int]) -> None:
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            self.close_own_files()
            run_child(request, fds)  # never returns
        for fd in fds:
            os.close(fd)
        child = _Child(pid, requester)
        self.by_pidfd[child.pidfd] = child
        self.by_requester[requester] = child
        self.selector.register(child.pidfd, selectors.EVENT_READ, "ended")
        self.selector.register(requester, selectors.EVENT_READ, "gone")
        _reply(requester, {"pid": pid})

    def forget(self, requester: socket.socket) -> None:
        self.requesters.discard(requester)
        requester.close()

    def close_own_files(self) -> None:
        """In a child: none of the server's files stay open (detached first, so that no socket
        object closes a number the child's own files take later)."""
        self.selector.close()
        for held in (self.listener, self.holders_listener, *self.holders, *self.requesters):
            os.close(held.detach())
        for pidfd in self.by_pidfd:
            os.close(pidfd)
        if self.control is not None:
            os.close(self.control)

    def end(self) -> None:
        self.listener.close()  # a holder connecting now gets no "ok": it starts another server
        self.holders_listener.close()
        for child in self.by_pidfd.values():
            with contextlib.suppress(ProcessLookupError):
                os.kill(child.pid, signal.SIGKILL)
        for child in self.by_pidfd.values():
            with contextlib.suppress(ChildProcessError):
                os.waitpid(child.pid, 0)


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
    errors = sys.stdout.errors  # as the interpreter's own (surrogateescape in a C/UTF-8 locale)
    sys.stdin = sys.__stdin__ = io.TextIOWrapper(
        io.BufferedReader(io.FileIO(0, "rb", closefd=False)),
        encoding=encoding,
        errors=sys.stdin.errors,
    )
    sys.stdout = sys.__stdout__ = _text_out(1, encoding, errors, unbuffered)
    sys.stderr = sys.__stderr__ = _text_out(2, encoding, "backslashreplace", True)
    sys.argv = list(request["argv"])
    kind, target = request["run"]
    try:
        if kind == "module":
            # As `python -m` runs it: its code as __main__, apart from the module others
            # imported, and the directory it was started in first on the path.
            sys.path[0] = os.getcwd()
            sys.modules.pop(target, None)
            runpy.run_module(target, run_name="__main__", alter_sys=True)
        else:
            sys.path[0] = str(Path(target).resolve().parent)
            runpy.run_path(target, run_name="__main__")
    except SystemExit as exit:
        _exit_as_the_interpreter_would(_status_of(exit.code))
    except KeyboardInterrupt:
        sys.excepthook(*sys.exc_info())
        _exit_as_the_interpreter_would(-signal.SIGINT)
    except BaseException:
        sys.excepthook(*sys.exc_info())
        _exit_as_the_interpreter_would(1)
    _exit_as_the_interpreter_would(0)


def _status_of(code: object) -> int:
    """The exit status `raise SystemExit(code)` gives (a message is printed, status 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1


def _exit_as_the_interpreter_would(status: int) -> None:
    """What the interpreter does at its end that a program can see, then the end: the threads
    not daemons waited for, the atexit functions run, the standard streams flushed; without
    taking every module and object apart, which in a forked child writes to each page it shares
    with the server (~130 ms of CPU a child, against ~5). A negative status is a death by
    that signal, as an uncaught KeyboardInterrupt ends Python."""
    threading._shutdown()  # type: ignore[attr-defined]  # what Py_FinalizeEx calls first
    atexit._run_exitfuncs()
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(Exception):
            stream.flush()
    if status < 0:
        signal.signal(-status, signal.SIG_DFL)
        os.kill(os.getpid(), -status)
    os._exit(status & 0xFF)


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
