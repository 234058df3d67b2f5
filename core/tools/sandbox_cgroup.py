"""A cgroup for one sandbox's tree, where agentui may make one: a cap on its processes (pids)
and, with cgroup v2, on its memory, counted for the whole tree at once.

RLIMIT_NPROC does not bind root (the kernel exempts the real root user, even in a user
namespace of its own), so for root this is the cap on processes; for others it adds to it.
A cgroup can be made where agentui's own cgroup lets it: cgroup v2 when agentui's cgroup, or
the top one (systemd's machines, as root), hands the pids controller down; cgroup v1's pids
hierarchy when it is writable (root). Elsewhere there is none, and the description says so.

The sandbox's processes are put in it before the code runs (when the child says it is ready,
the tree is agentui's child, bwrap's and the keeper's, and nothing has forked yet); a move
that fails is said, and the code does not run. It is removed when they are gone (one still
dying is removed by a later run, or at exit; one left by an agentui that was killed is removed
by the next agentui that makes one).
"""

from __future__ import annotations

import atexit
import contextlib
import itertools
import os
from dataclasses import dataclass, field
from pathlib import Path

from agentui.core.support.process_tree import alive

MOUNTINFO = Path("/proc/self/mountinfo")
OWN_CGROUPS = Path("/proc/self/cgroup")
PREFIX = "agentui-sandbox-"
_counter = itertools.count(1)
_leftover: list[Path] = []  # cgroups whose processes were still dying at the end of a run


class CgroupError(OSError):
    """A sandbox's process could not be put in its cgroup: its cap would not hold."""


@dataclass(slots=True)
class TreeCgroup:
    path: Path
    memory: bool  # a memory limit for the whole tree (cgroup v2)
    added: set[int] = field(default_factory=set)

    def add(self, pids: list[int]) -> None:
        """Move `pids` in (one gone meanwhile is skipped); CgroupError when one cannot be."""
        for pid in pids:
            try:
                (self.path / "cgroup.procs").write_text(str(pid))
            except ProcessLookupError:
                continue
            except OSError as exc:
                raise CgroupError(
                    f"process {pid} cannot be put in {self.path}: {exc.strerror or exc}"
                ) from exc
            self.added.add(pid)

    def holds(self, pid: int) -> bool:
        """Whether `pid` is in this cgroup now."""
        try:
            return str(pid) in (self.path / "cgroup.procs").read_text().split()
        except OSError:
            return False

    def remove(self) -> None:
        _remove(self.path)


def _remove(path: Path) -> None:
    try:
        path.rmdir()
    except FileNotFoundError:
        return
    except OSError:  # a process still dying in it
        if path not in _leftover:
            if not _leftover:
                atexit.register(remove_leftovers)  # empty by then: nothing is left running
            _leftover.append(path)


def remove_leftovers() -> None:
    for path in list(_leftover):
        with contextlib.suppress(OSError):
            path.rmdir()
        if not path.exists():
            _leftover.remove(path)


def _mounts() -> dict[str, Path]:
    """Where each cgroup hierarchy is mounted: "pids" (v1) or "" (v2) -> the mount point."""
    found: dict[str, Path] = {}
    with contextlib.suppress(OSError):
        for line in MOUNTINFO.read_text().splitlines():
            head, _, tail = line.partition(" - ")
            kind, _, options = tail.split(" ")[:3]
            point = Path(head.split(" ")[4])
            if kind == "cgroup2":
                found.setdefault("", point)
            elif kind == "cgroup":
                for option in options.split(","):
                    found.setdefault(option, point)
    return found


def _own() -> dict[str, str]:
    """agentui's cgroup in each hierarchy: "pids" (v1) or "" (v2) -> its path there."""
    found: dict[str, str] = {}
    with contextlib.suppress(OSError):
        for line in OWN_CGROUPS.read_text().splitlines():
            _, controllers, path = line.split(":", 2)
            for controller in controllers.split(",") if controllers else [""]:
                found[controller] = path
    return found


def create(max_processes: int, memory_bytes: int) -> TreeCgroup | None:
    """A new cgroup capped at `max_processes` (and `memory_bytes`, where v2 allows), or None
    where agentui cannot make one."""
    remove_leftovers()
    mounts, own = _mounts(), _own()
    name = f"{PREFIX}{os.getpid()}-{next(_counter)}"
    if "" in mounts and "" in own:  # v2: where the pids controller is handed down
        top = mounts[""]
        for parent in (top / own[""].lstrip("/"), top):
            _remove_orphaned(parent)
            made = _make_v2(parent, name, max_processes, memory_bytes)
            if made is not None:
                return made
    if "pids" in mounts and "pids" in own:  # v1
        parent = mounts["pids"] / own["pids"].lstrip("/")
        _remove_orphaned(parent)
        return _make(parent / name, max_processes)
    return None


def _remove_orphaned(parent: Path) -> None:
    """The sandboxes' cgroups under `parent` whose agentui is gone (killed, or died between
    making one and removing it); one still holding a process stays."""
    with contextlib.suppress(OSError):
        for entry in parent.iterdir():
            owner, _, _ = entry.name.removeprefix(PREFIX).partition("-")
            if entry.name.startswith(PREFIX) and owner.isdigit() and not alive(int(owner)):
                with contextlib.suppress(OSError):
                    entry.rmdir()


def _make_v2(parent: Path, name: str, max_processes: int, memory_bytes: int) -> TreeCgroup | None:
    """Under `parent` (agentui's own cgroup, else the top one, where systemd hands the
    controllers down), if it hands down pids (and memory). Nothing is enabled here: that
    would change the machine's cgroups for everyone."""
    try:
        handed = (parent / "cgroup.subtree_control").read_text().split()
    except OSError:
        return None
    if "pids" not in handed or (made := _make(parent / name, max_processes)) is None:
        return None
    if "memory" in handed:
        with contextlib.suppress(OSError):
            (made.path / "memory.max").write_text(str(memory_bytes))
            made.memory = True
        with contextlib.suppress(OSError):  # no swap accounting: nothing to cap
            (made.path / "memory.swap.max").write_text("0")
    return made


def _make(path: Path, max_processes: int) -> TreeCgroup | None:
    try:
        path.mkdir()
    except OSError:
        return None
    try:
        (path / "pids.max").write_text(str(max_processes))
    except OSError:
        _remove(path)
        return None
    return TreeCgroup(path, memory=False)
