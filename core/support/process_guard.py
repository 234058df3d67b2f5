"""agentui's guard against the processes its tools start (Linux; elsewhere a no-op where noted).

- Not dumpable (PR_SET_DUMPABLE 0): other processes of the same user, model code among them,
  cannot read agentui's /proc/PID/environ (its API key) or attach a debugger to it.
- A child subreaper (PR_SET_CHILD_SUBREAPER): a process whose parent exits is adopted by
  agentui instead of init, so what a tool left behind, even in a new session, can be found.
- A register of the sandboxes that run now: whatever ends agentui (an exit, SIGTERM, SIGHUP)
  kills each one's whole tree, and every adopted orphan, on the way out.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import ctypes.util
import os
import sys
import threading

from agentui.core.support.process_tree import all_processes, kill_tree, read_process

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

_lock = threading.RLock()  # re-entered by a signal handler that interrupts a holder
_guarded = False
_subreaper = False  # the kernel took PR_SET_CHILD_SUBREAPER
_running: set[int] = set()  # the root pid of each sandbox that runs now


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
    status: int = libc.prctl(option, value, 0, 0, 0)  # ctypes calls are untyped: C's int
    return status == 0


def guard_this_process() -> None:
    """Once per process, before any tool runs: not dumpable, a subreaper, cleaned up at exit."""
    global _guarded, _subreaper
    with _lock:
        if _guarded:
            return
        _guarded = True
    _prctl(PR_SET_DUMPABLE, 0)
    _subreaper = _prctl(PR_SET_CHILD_SUBREAPER, 1)
    atexit.register(stop_every_sandbox)


def is_subreaper() -> bool:
    return _subreaper


def register(root: int) -> None:
    with _lock:
        _running.add(root)


def unregister(root: int) -> None:
    with _lock:
        _running.discard(root)


def stop_every_sandbox() -> None:
    """Kill every running sandbox's tree and every orphan agentui adopted (synchronous: safe in
    a signal handler and at exit)."""
    with _lock:
        roots = list(_running)
        _running.clear()
    for root in roots:
        kill_tree(root)
    sweep_orphans(since_ticks=0)


def sweep_orphans(since_ticks: int) -> list[int]:
    """Kill the processes agentui adopted as orphans that started at `since_ticks` or later,
    with their trees, and reap what has exited; the pids killed. Call it on the thread that
    starts sandboxes, so that no root is seen between its start and its registration.

    Adopted orphans are children agentui did not start: agentui starts its sandboxes in a
    session of their own, and a running sandbox's root is registered, so a child in another
    session that is not a running root is something a tool left behind. Children in agentui's
    own session (anything it, or a test around it, started directly) are never touched.
    """
    if not is_subreaper():
        return []
    me = os.getpid()
    own_session = os.getsid(0)
    with _lock:
        running = set(_running)
    orphans: list[int] = []
    exited: list[int] = []
    for info in all_processes():
        if info.ppid != me or info.session == own_session or info.pid in running:
            continue
        if info.exited:
            exited.append(info.pid)
        elif info.start_ticks >= since_ticks:
            orphans.append(info.pid)
    for pid in orphans:
        kill_tree(pid)
    for pid in orphans + exited:
        with contextlib.suppress(ChildProcessError):
            # Not waiting: one killed a moment ago is reaped by the next sweep.
            os.waitpid(pid, os.WNOHANG)
    return orphans


def start_ticks(pid: int) -> int:
    """When `pid` started (clock ticks after boot); 0 if it is gone or unknown."""
    info = read_process(pid)
    return info.start_ticks if info is not None and not info.exited else 0
