"""What a sandbox mode blocks on this machine, measured: the sandbox child is started once in
that mode (per process, interpreter and mode) and says what the kernel took, before any code
would run: the Landlock ABI and the rights it handles, its own namespaces, the capabilities
left, the cap on processes (a cgroup counts only once the child was moved into it). Nothing
here is assumed from a version number.

One probe at a time (a lock: two threads asking at once share one measure). Its temporary
directory goes when it ends; at exit, also when the probe still runs on a daemon thread; and
one left by an agentui that was killed goes with the next probe (its name holds the pid).
"""

from __future__ import annotations

import atexit
import functools
import json
import os
import select
import shutil
import subprocess
import threading
from dataclasses import dataclass

from agentui.core.support.process_tree import descendants
from agentui.core.tools import sandbox_cgroup
from agentui.core.tools.sandbox_command import (
    Mode,
    child_config,
    command,
    scrubbed_environment,
)
from agentui.core.tools.sandbox_workdir import new_workdir, remove_orphaned_workdirs

PROBE_TIMEOUT_S = 20.0
PROBE_PROCESSES = 64
WORKDIR_PREFIX = "agentui-probe-"

_measuring = threading.Lock()  # one probe at a time; functools.cache alone lets two start
_workdirs_lock = threading.Lock()
_workdirs: set[str] = set()  # probes' directories not removed yet
_exiting = False  # set at exit: no probe makes a directory after that


@dataclass(frozen=True, slots=True)
class Protections:
    """What the child set up and the kernel accepted."""

    landlock_abi: int  # 0: no Landlock
    network_rules: tuple[str, ...]  # Landlock's TCP rules: "bind_tcp", "connect_tcp"
    scoped: tuple[str, ...]  # Landlock's scopes: "signal", "abstract_unix_socket"
    namespaces: bool  # user, pid, network and IPC namespaces of its own (bwrap's or its own)
    hidden: bool  # homes, /tmp, /run, agentui's directories hidden (bwrap's, or its own mounts)
    capabilities: str  # the effective set left, as /proc shows it ("0000000000000000")
    process_cap: str  # "cgroup" (pids.max), "rlimit" (RLIMIT_NPROC in its user namespace), ""
    tree_memory: bool  # a memory limit on the whole tree (cgroup v2), not only per process


def landlock_abi() -> int:
    """The kernel's Landlock ABI (0: none, or no landlockpy installed to apply it)."""
    try:
        import landlockpy
    except ImportError:
        return 0
    return landlockpy.abi_version()


def measure(mode: Mode, bwrap: str | None, executable: str) -> Protections | str:
    """The protections of `mode` here; a string says why the mode cannot start. Measured once
    per process (the first call may take a fraction of a second; others wait for it)."""
    with _measuring:
        return _measured(mode, bwrap, executable)


@functools.cache
def _measured(mode: Mode, bwrap: str | None, executable: str) -> Protections | str:
    _remove_orphaned_workdirs()
    workdir = _new_workdir()
    if workdir is None:
        return "agentui is exiting"
    try:
        return _measure(mode, bwrap, executable, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
        with _workdirs_lock:
            _workdirs.discard(workdir)


def _new_workdir() -> str | None:
    with _workdirs_lock:
        if _exiting:
            return None
        workdir = new_workdir(WORKDIR_PREFIX)
        _workdirs.add(workdir)
        return workdir


def _remove_workdirs_at_exit() -> None:
    """A probe on a daemon thread when agentui exits never reaches its `finally`."""
    global _exiting
    with _workdirs_lock:
        _exiting = True
        left = list(_workdirs)
    for workdir in left:
        shutil.rmtree(workdir, ignore_errors=True)


atexit.register(_remove_workdirs_at_exit)


def _remove_orphaned_workdirs() -> None:
    """Probes' directories whose agentui is gone (killed mid-probe)."""
    remove_orphaned_workdirs(WORKDIR_PREFIX)


def _measure(mode: Mode, bwrap: str | None, executable: str, workdir: str) -> Protections | str:
    landlock = landlock_abi() > 0
    config = child_config(
        mode, workdir, executable, landlock=landlock, max_processes=PROBE_PROCESSES, probe=True
    )
    try:
        child = subprocess.Popen(
            command(mode, bwrap, workdir, executable, config),
            cwd=workdir,
            env=scrubbed_environment(workdir),
            stdin=subprocess.PIPE,  # the child waits for its end once it has said its facts
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            start_new_session=True,
        )
    except OSError as exc:
        return f"the {mode} sandbox cannot start: {exc}"
    with child:
        try:
            return _facts(mode, child)
        except (ValueError, KeyError, subprocess.SubprocessError) as exc:
            return f"the {mode} sandbox cannot be measured here: {exc}"
        finally:
            child.kill()  # it has exited by now, unless the probe failed (then reaped on exit)


def _facts(mode: Mode, child: subprocess.Popen[str]) -> Protections | str:
    """What the child says it set up, and whether its tree can be put in a cgroup, as a run's
    is (the child waits, its setup done, until its stdin ends)."""
    assert child.stdout is not None and child.stdin is not None and child.stderr is not None
    ready, _, _ = select.select([child.stdout], [], [], PROBE_TIMEOUT_S)
    line = child.stdout.readline() if ready else ""
    if not line:
        if not ready:
            return f"the {mode} sandbox did not start within {PROBE_TIMEOUT_S:g} s"
        returncode = child.wait(PROBE_TIMEOUT_S)
        said = (child.stderr.read().strip().splitlines() or [f"exit code {returncode}"])[-1]
        return f"the {mode} sandbox cannot start here: {said.removeprefix('bwrap: ')}"
    facts = json.loads(line)
    applied = facts.get("landlock") or {}
    cgroup = sandbox_cgroup.create(PROBE_PROCESSES, 1 << 30)
    try:
        capped = cgroup is not None and _moved_in(cgroup, child.pid)
        child.stdin.close()
        child.wait(PROBE_TIMEOUT_S)
    finally:
        if cgroup is not None:
            cgroup.remove()  # now, once the tree is gone; else by a later run, or at exit
    # The kernel exempts the real root user from RLIMIT_NPROC, in any user namespace.
    rlimit = bool(facts.get("max_processes")) and os.geteuid() != 0
    return Protections(
        landlock_abi=int(applied.get("abi", 0)),
        network_rules=tuple(applied.get("net", ())),
        scoped=tuple(applied.get("scoped", ())),
        namespaces=mode == "bubblewrap" or bool(facts["namespaces"]),
        hidden=mode == "bubblewrap" or bool(facts.get("hidden")),
        capabilities=str(facts.get("capabilities", "")),
        process_cap="cgroup" if capped else "rlimit" if rlimit else "",
        tree_memory=capped and cgroup is not None and cgroup.memory,
    )


def _moved_in(cgroup: sandbox_cgroup.TreeCgroup, root: int) -> bool:
    """Whether the tree below `root` can be put in `cgroup`, and is there now."""
    tree = [root, *descendants(root)]
    try:
        cgroup.add(tree)
    except sandbox_cgroup.CgroupError:
        return False
    return all(cgroup.holds(pid) for pid in tree)
