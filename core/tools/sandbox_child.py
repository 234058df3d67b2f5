"""The Python tool's side inside its sandboxed process. agentui never imports this module: its
source is run with `python -I -c`, the code to run in `main.py` of the working directory.

File descriptors: 0 brings replies from the runtime, 1 takes requests to it (one JSON object a
line each way); 2 is the output pipe, and the code's stdout is pointed there too, so what it
prints comes back in order. The code finds `fork`, `wait`, `ask_user` and `AgentError` ready to
use (also as `from agentui import fork, wait, ask_user`). Limits are set before the code runs,
soft and hard alike, so the code cannot raise them again.

On Linux the process dies with agentui (a parent-death signal), adopts whatever its children
leave behind (a child subreaper), and kills every process below it before it exits, those in
a session of their own too. agentui kills the same tree when it stops the code.
"""

from __future__ import annotations

import ast
import contextlib
import ctypes
import ctypes.util
import json
import os
import resource
import signal
import sys
import threading
import traceback
import types
from typing import Any, TextIO

CODE_FILE = "main.py"
PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


class AgentError(Exception):
    """A request to the agent runtime failed: fork refused, a subagent failed or was stopped."""


class _Channel:
    def __init__(self, replies: TextIO, requests: TextIO) -> None:
        self._replies = replies
        self._requests = requests
        self._lock = threading.Lock()  # one request at a time, even from threads
        self._last_id = 0

    def call(self, op: str, **fields: Any) -> Any:
        with self._lock:
            self._last_id += 1
            self._requests.write(json.dumps({"id": self._last_id, "op": op, **fields}) + "\n")
            self._requests.flush()
            line = self._replies.readline()
        if not line:
            raise AgentError("the agent runtime is gone")
        reply = json.loads(line)
        if not reply.get("ok"):
            raise AgentError(reply.get("error") or f"{op} failed")
        return reply.get("value")


def _api(channel: _Channel) -> dict[str, Any]:
    def fork(prompt: str, profile: str | None = None) -> str:
        """Start a subagent on `prompt` (a self-contained task), with the named agent profile
        if any; returns its handle."""
        named = None if profile is None else str(profile)
        return str(channel.call("fork", prompt=str(prompt), profile=named))

    def wait(handle: str) -> str:
        """Wait for a forked subagent; its result. Raises AgentError if it did not complete."""
        return str(channel.call("wait", handle=str(handle)))

    def ask_user(question: str) -> str | None:
        """Ask the person and wait for the answer; None when they decline."""
        answer = channel.call("ask_user", question=str(question))
        return None if answer is None else str(answer)

    return {"fork": fork, "wait": wait, "ask_user": ask_user, "AgentError": AgentError}


def _set_limits(cpu_s: int | None, memory_bytes: int | None) -> None:
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if cpu_s:
        # SIGXCPU at the soft limit ends the process; the hard limit is the backstop.
        resource.setrlimit(resource.RLIMIT_CPU, (cpu_s, cpu_s + 1))
    if memory_bytes:
        resource.setrlimit(resource.RLIMIT_AS, (memory_bytes, memory_bytes))


def _prctl(option: int, value: int) -> None:
    if sys.platform.startswith("linux"):
        ctypes.CDLL(ctypes.util.find_library("c")).prctl(option, value, 0, 0, 0)


def _guard(parent: int | None) -> None:
    """Die with `parent` (agentui; None: bubblewrap does that), adopt the code's orphans."""
    if parent is not None:
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
        if os.getppid() != parent:  # agentui went before the signal was set: follow it
            os._exit(1)
    _prctl(PR_SET_CHILD_SUBREAPER, 1)


def _below(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for name in os.listdir("/proc") if os.path.isdir("/proc") else []:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] not in ("Z", "X"):
            children.setdefault(int(fields[1]), []).append(int(name))
    found, frontier = [], [root]
    while frontier:
        frontier = [pid for parent in frontier for pid in children.get(parent, [])]
        found += frontier
    return found


def _end_descendants() -> None:
    """Stop every process below this one (stopped, none can fork), then kill and reap them."""
    stopped: set[int] = set()
    for _ in range(20):
        fresh = [pid for pid in _below(os.getpid()) if pid not in stopped]
        if not fresh:
            break
        for pid in fresh:
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGSTOP)
        stopped.update(fresh)
    for pid in stopped:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(ChildProcessError):
        while True:  # every child, adopted ones too, until none is left
            os.waitpid(-1, 0)


def _run(source: str, namespace: dict[str, Any]) -> int:
    """Run the code as a script; print the value of a final expression, as a REPL would."""
    try:
        tree = ast.parse(source, CODE_FILE)
    except SyntaxError as exc:
        traceback.print_exception(exc, limit=0)
        return 1
    last: ast.Expression | None = None
    final = tree.body[-1] if tree.body else None
    if isinstance(final, ast.Expr):
        tree.body.pop()
        last = ast.Expression(final.value)
    try:
        exec(compile(tree, CODE_FILE, "exec"), namespace)
        if last is not None:
            value = eval(compile(last, CODE_FILE, "eval"), namespace)
            if value is not None:
                print(repr(value))
    except SystemExit:
        raise
    except BaseException as exc:
        if isinstance(exc, MemoryError):
            namespace.clear()  # free what the code hoarded, so the traceback can be printed
        # Show the code's own frames, not this runner's.
        tb = exc.__traceback__
        while tb is not None and tb.tb_frame.f_code.co_filename != CODE_FILE:
            tb = tb.tb_next
        traceback.print_exception(type(exc), exc, tb)
        return 1
    return 0


def main() -> None:
    config = json.loads(sys.argv[1])
    _guard(config.get("parent"))
    replies = os.fdopen(os.dup(0), "r", encoding="utf-8")
    requests = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)  # the code reads end-of-file, never our replies
    os.close(null)
    os.dup2(2, 1)  # and what it prints goes to the output pipe
    api = _api(_Channel(replies, requests))
    module = types.ModuleType("agentui")
    module.__dict__.update(api)
    sys.modules["agentui"] = module
    with open(CODE_FILE, encoding="utf-8") as file:
        source = file.read()
    sys.argv = [CODE_FILE]
    namespace: dict[str, Any] = {"__name__": "__main__", "__builtins__": __builtins__, **api}
    _set_limits(config.get("cpu_s"), config.get("memory_bytes"))
    try:
        status = _run(source, namespace)
    finally:
        _end_descendants()  # also when the code calls sys.exit()
    sys.exit(status)


if __name__ == "__main__":
    main()
