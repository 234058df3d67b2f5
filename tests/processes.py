"""Finding a sandbox's processes from outside, where a pid namespace hides the pids the code
sees: by a marker argument on their command line; and waiting, with a bounded deadline, for
a state the kernel does not announce (stopped, gone)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable
from pathlib import Path

import anyio
import pytest

from agentui.core.tools.sandbox_mode import choose_sandbox

POLL_S = 0.02

_AUTO = choose_sandbox("auto")
# The python tool's `sandbox` setting for each mode; bubblewrap's skips where it cannot work.
SANDBOXES = [
    pytest.param(
        "auto",
        id="bubblewrap",
        marks=pytest.mark.skipif(
            _AUTO.bwrap is None, reason=f"no bubblewrap sandbox on this machine: {_AUTO.reason}"
        ),
    ),
    pytest.param("limited", id="limited"),
]
BWRAP_ONLY = pytest.mark.skipif(
    _AUTO.bwrap is None, reason=f"no bubblewrap sandbox on this machine: {_AUTO.reason}"
)


def new_marker() -> str:
    return f"agentui-test-marker-{uuid.uuid4().hex}"


def _state(pid: int) -> str | None:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return None
    return stat.rsplit(")", 1)[1].split()[0]


def _cmdline(pid: str) -> list[str]:
    try:
        raw = Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return []
    return raw.decode(errors="replace").split("\0")


def parent(pid: int) -> int:
    stat = Path(f"/proc/{pid}/stat").read_text()
    return int(stat.rsplit(")", 1)[1].split()[1])


def marked(marker: str) -> list[int]:
    """Live processes (not zombies) with `marker` as an argument."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and marker in _cmdline(entry.name):
            pid = int(entry.name)
            if _state(pid) not in (None, "Z", "X"):
                found.append(pid)
    return found


def descendants(pid: int) -> list[int]:
    """Live processes under `pid` (its children, theirs, ...)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                children.setdefault(parent(int(entry.name)), []).append(int(entry.name))
            except (OSError, IndexError):  # gone meanwhile
                continue
    found, todo = [], list(children.get(pid, []))
    while todo:
        child = todo.pop()
        if not gone(child):
            found.append(child)
        todo += children.get(child, [])
    return found


def command_line(pid: int) -> list[str]:
    return _cmdline(str(pid))


def gone(pid: int) -> bool:
    """The process has exited (a zombie nobody reaped yet counts as gone)."""
    return _state(pid) in (None, "Z", "X")


def stopped(pid: int) -> bool:
    return _state(pid) == "T"


def wait_until(condition: Callable[[], bool], timeout_s: float = 15.0) -> bool:
    """Poll `condition` until it holds (True) or the deadline passes (False). For outcomes that
    no event announces; the deadline is a safety net, not a measurement."""
    deadline = time.monotonic() + timeout_s
    while True:
        if condition():
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(POLL_S)


async def until(condition: Callable[[], bool], timeout_s: float = 15.0) -> bool:
    """`wait_until` for async tests: the event loop runs while it waits."""
    with anyio.move_on_after(timeout_s):
        while not condition():
            await anyio.sleep(POLL_S)
        return True
    return condition()
