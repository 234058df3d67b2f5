"""What a sandbox mode blocks on this machine, measured: the sandbox child is started once in
that mode (per process, interpreter and mode) and says what the kernel took, before any code
would run: the Landlock ABI and the rights it handles, its own namespaces, the capabilities
left, the cap on processes. Nothing here is assumed from a version number.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import tempfile
from dataclasses import dataclass

from agentui.core.tools import sandbox_cgroup
from agentui.core.tools.sandbox_command import (
    Mode,
    child_config,
    command,
    scrubbed_environment,
)

PROBE_TIMEOUT_S = 20.0
PROBE_PROCESSES = 64


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


@functools.cache
def measure(mode: Mode, bwrap: str | None, executable: str) -> Protections | str:
    """The protections of `mode` here; a string says why the mode cannot start."""
    workdir = tempfile.mkdtemp(prefix="agentui-probe-")
    try:
        return _measure(mode, bwrap, executable, workdir)
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def _measure(mode: Mode, bwrap: str | None, executable: str, workdir: str) -> Protections | str:
    landlock = landlock_abi() > 0
    config = child_config(
        mode, workdir, executable, landlock=landlock, max_processes=PROBE_PROCESSES, probe=True
    )
    try:
        result = subprocess.run(
            command(mode, bwrap, workdir, executable, config),
            cwd=workdir,
            env=scrubbed_environment(workdir),
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            start_new_session=True,
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"the {mode} sandbox cannot start: {exc}"
    lines = result.stdout.strip().splitlines()
    if result.returncode != 0 or not lines:
        said = (result.stderr.strip().splitlines() or [f"exit code {result.returncode}"])[-1]
        return f"the {mode} sandbox cannot start here: {said.removeprefix('bwrap: ')}"
    facts = json.loads(lines[-1])
    applied = facts.get("landlock") or {}
    cgroup = sandbox_cgroup.create(PROBE_PROCESSES, 1 << 30)
    if cgroup is not None:
        cgroup.remove()
    # The kernel exempts the real root user from RLIMIT_NPROC, in any user namespace.
    rlimit = bool(facts.get("max_processes")) and os.geteuid() != 0
    return Protections(
        landlock_abi=int(applied.get("abi", 0)),
        network_rules=tuple(applied.get("net", ())),
        scoped=tuple(applied.get("scoped", ())),
        namespaces=mode == "bubblewrap" or bool(facts["namespaces"]),
        hidden=mode == "bubblewrap" or bool(facts.get("hidden")),
        capabilities=str(facts.get("capabilities", "")),
        process_cap="cgroup" if cgroup is not None else "rlimit" if rlimit else "",
        tree_memory=cgroup is not None and cgroup.memory,
    )
