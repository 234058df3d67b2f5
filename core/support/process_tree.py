"""The processes below a process, read from /proc (Linux), and signals for all of them at once.

A tool's process may start others that leave its process group and session (`setsid`), so a
group signal does not reach them; their parent links do. Where there is no /proc (macOS) the
tree is the root alone and the process group carries the signal.
"""

from __future__ import annotations

import contextlib
import os
import signal
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
# Rounds of "stop what is there, look again": each round stops every process seen, so only
# ones forked in the instant between the look and the stop remain for the next.
FREEZE_ROUNDS = 20


@dataclass(frozen=True, slots=True)
class ProcessInfo:
    pid: int
    ppid: int
    session: int
    start_ticks: int  # clock ticks after boot; a reused pid has a later one
    exited: bool  # a zombie: only its exit status is left for its parent to collect


def read_process(pid: int) -> ProcessInfo | None:
    """A process's parent, session and start; None when there is no such process."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return None
    # The command name (field 2) may hold spaces and parentheses: split after its last ')'.
    fields = stat.rsplit(")", 1)[1].split()
    return ProcessInfo(
        pid,
        ppid=int(fields[1]),
        session=int(fields[3]),
        start_ticks=int(fields[19]),
        exited=fields[0] in ("Z", "X"),
    )


def alive(pid: int) -> bool:
    """Whether a process of that pid exists (a zombie counts: its pid is not free yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # another user's
        return True
    return True


def user_namespace(pid: int) -> int:
    """The user namespace `pid` lives in (its inode); 0 when it is gone or out of reach."""
    try:
        return (PROC / str(pid) / "ns" / "user").stat().st_ino
    except (FileNotFoundError, ProcessLookupError, PermissionError):
        return 0


def all_processes() -> list[ProcessInfo]:
    if not PROC.is_dir():
        return []
    found = []
    for entry in PROC.iterdir():
        if entry.name.isdigit() and (info := read_process(int(entry.name))) is not None:
            found.append(info)
    return found


def descendants(root: int, *, exited: bool = False) -> list[int]:
    """Every live process below `root` (not `root` itself), parents before their children;
    `exited`: zombies too (ended, not yet reaped by their parent)."""
    children: dict[int, list[int]] = {}
    for info in all_processes():
        if exited or not info.exited:
            children.setdefault(info.ppid, []).append(info.pid)
    found: list[int] = []
    frontier = [root]
    while frontier:
        below = [pid for parent in frontier for pid in children.get(parent, [])]
        found += below
        frontier = below
    return found


def signal_tree(root: int, signum: int) -> None:
    """`signum` to `root` and everything below it."""
    for pid in [root, *descendants(root)]:
        _send(pid, signum)


def kill_tree(root: int) -> dict[int, int]:
    """SIGKILL to `root` and everything below it, with no window for a fork to escape: the
    tree is stopped first (a stopped process cannot fork), then killed. The pids killed, each
    with its start (so its zombie can be told from a later process of the same pid)."""
    _send(root, signal.SIGSTOP)
    stopped = {root}
    for _ in range(FREEZE_ROUNDS):
        fresh = [pid for pid in descendants(root) if pid not in stopped]
        if not fresh:
            break
        for pid in fresh:
            _send(pid, signal.SIGSTOP)
        stopped.update(fresh)
    # With the tree stopped, also those that ended on their own and wait for a parent that is
    # about to be killed: their zombies come back to agentui, to be reaped like the rest.
    stopped.update(descendants(root, exited=True))
    killed = {}
    for pid in stopped:
        if (info := read_process(pid)) is not None:
            killed[pid] = info.start_ticks
        _send(pid, signal.SIGKILL)
    return killed


def _send(pid: int, signum: int) -> None:
    with contextlib.suppress(ProcessLookupError, PermissionError):  # gone, or not ours
        os.kill(pid, signum)
