"""agentui's guard against the processes its tools start (Linux; elsewhere a no-op where noted).

- Not dumpable (PR_SET_DUMPABLE 0): other processes of the same user, model code among them,
  cannot read agentui's /proc/PID/environ (its API key) or attach a debugger to it.
- A child subreaper (PR_SET_CHILD_SUBREAPER): a process whose parent exits is adopted by
  agentui instead of init, so what a tool left behind, even in a new session, can be found.
- A register of the sandboxes that run now: whatever ends agentui (an exit, SIGTERM, SIGHUP)
  kills each one's whole tree, and every adopted orphan of theirs, on the way out.

An orphan is the sandbox's when it lives in the sandbox's user namespace (each sandbox but a
limited one has its own), never because of when it started: agentui's other children (an MCP
server started in a session of its own while the code ran) are not touched.
"""

from __future__ import annotations

import atexit
import contextlib
import ctypes
import os
import select
import sys
import threading
import time

from agentui.core.support.process_tree import (
    all_processes,
    kill_tree,
    read_process,
    user_namespace,
)

PR_SET_DUMPABLE = 4
PR_SET_CHILD_SUBREAPER = 36

_lock = threading.RLock()  # re-entered by a signal handler that interrupts a holder
_guarded = False
_subreaper = False  # the kernel took PR_SET_CHILD_SUBREAPER
_killed: dict[int, int] = {}  # sandbox processes killed, not yet reaped -> their start
_running: dict[int, int] = {}  # the root pid of each sandbox that runs now -> its user namespace


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    # The C library already loaded (finding it by name runs `ldconfig -p`).
    libc = ctypes.CDLL(None, use_errno=True)
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
        _running[root] = 0


def note_namespace(root: int, namespace: int) -> None:
    """The user namespace of a running sandbox (its child says it when set up); agentui's own
    is no sandbox's (a limited sandbox runs in it)."""
    if namespace == user_namespace(os.getpid()):
        return
    with _lock:
        if root in _running:
            _running[root] = namespace


def unregister(root: int) -> None:
    with _lock:
        _running.pop(root, None)


def stop_every_sandbox() -> None:
    """Kill every running sandbox's tree and every orphan of theirs agentui adopted
    (synchronous: safe in a signal handler and at exit). A second caller meanwhile (SIGHUP's
    handler and the terminal's watcher both stop them, then exit) waits until it is done:
    exiting before would leave the trees to the parent-death signals, which miss what left
    its session."""
    with _lock:
        running = dict(_running)
        _running.clear()
        for root in running:
            reap_later(kill_tree(root))
        for namespace in running.values():
            sweep_orphans(namespace)


def sweep_orphans(namespace: int) -> list[int]:
    """Kill the processes agentui adopted as orphans that live in the user namespace
    `namespace` (a sandbox's; 0: none), with their trees, and reap what has exited; the pids
    killed. A child of agentui in any other namespace, or in agentui's own session, is never
    touched: agentui started it, or it is not a sandbox's.
    """
    if not is_subreaper():
        return []
    me = os.getpid()
    if namespace == user_namespace(me):  # a limited sandbox's: agentui's own
        namespace = 0
    own_session = os.getsid(0)
    with _lock:
        running = set(_running)
    orphans: list[int] = []
    for info in all_processes():
        if info.ppid != me or info.session == own_session or info.pid in running:
            continue
        if not info.exited and namespace and user_namespace(info.pid) == namespace:
            orphans.append(info.pid)
    for pid in orphans:
        reap_later(kill_tree(pid))
    reap()
    return orphans


def reap_later(killed: dict[int, int]) -> None:
    """Sandbox processes just killed (pid -> start): those that come back to agentui as
    orphans are reaped by `reap`, so no zombie is left."""
    with _lock:
        _killed.update(killed)


def reap() -> None:
    """Collect the exit of each killed sandbox process that is now agentui's zombie; forget
    those gone, or whose pid names a later process. Never another child's exit: that is its
    owner's to collect."""
    me = os.getpid()
    with _lock:
        killed = dict(_killed)
    for pid, started in killed.items():
        info = read_process(pid)
        if info is not None and info.start_ticks == started:
            if not info.exited:
                continue  # still dying
            if info.ppid != me:
                continue  # a zombie whose (killed) parent dies next and hands it to agentui
            with contextlib.suppress(ChildProcessError):
                os.waitpid(pid, os.WNOHANG)
        with _lock:
            _killed.pop(pid, None)


def reap_when_gone(timeout_s: float) -> None:
    """Wait, at most `timeout_s`, for the sandbox processes just killed to end, then reap them:
    one still dying when its run ends would otherwise stay a zombie until the next sweep.
    Blocks: for a thread. Where pidfds are missing (before Linux 5.3, macOS) it reaps at once."""
    with _lock:
        killed = dict(_killed)
    handles: list[int] = []
    for pid, started in killed.items():
        try:
            handle = os.pidfd_open(pid)
        except (AttributeError, OSError):  # gone already, or no pidfds here
            continue
        info = read_process(pid)  # opened first, so the pid cannot name another one after
        if info is None or info.start_ticks != started or info.exited:
            os.close(handle)
        else:
            handles.append(handle)
    try:
        _wait_readable(handles, timeout_s)  # a pidfd is readable once its process has ended
    finally:
        for handle in handles:
            os.close(handle)
    reap()


def _wait_readable(handles: list[int], timeout_s: float) -> None:
    poller = select.poll()
    for handle in handles:
        poller.register(handle, select.POLLIN)
    waiting = set(handles)
    deadline = time.monotonic() + timeout_s
    while waiting and (left := deadline - time.monotonic()) > 0:
        for handle, _ in poller.poll(left * 1000):
            poller.unregister(handle)
            waiting.discard(handle)
