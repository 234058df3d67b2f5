"""The bubblewrap (`bwrap`) command line that runs a tool's process out of reach of the rest.

Inside: no capability, even for a root caller; new user, pid, network, ipc, uts and cgroup
namespaces (no network at all, no other process visible, a fresh /proc, a minimal /dev); the
whole file system read-only; the user's home, agentui's own directories (sessions, config,
state), /tmp, /var/tmp and /run (sockets) hidden under empty in-memory file systems; the
tool's temporary directory the one writable place. Only the Python installation, if it
lives in a hidden place, is shown again, read-only. It dies with agentui (`--die-with-parent`,
and every process in a pid namespace dies with it) and cannot reach agentui's terminal
(`--new-session`).

Whether bubblewrap works here is probed once per process (user namespaces may be disabled).
"""

from __future__ import annotations

import functools
import os
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

from agentui.core.support.paths import config_dir, data_dir, state_dir

ISOLATION = (
    "--unshare-user",
    "--unshare-pid",
    "--unshare-net",
    "--unshare-ipc",
    "--unshare-uts",
    "--unshare-cgroup-try",
    "--die-with-parent",
    "--new-session",
    # A root caller keeps every capability inside otherwise (umount, remount / read-write).
    "--cap-drop",
    "ALL",
)
BASE = (*ISOLATION, "--ro-bind", "/", "/", "--proc", "/proc", "--dev", "/dev")
HOSTNAME = "sandbox"
# Shared places where other programs keep files and sockets (a read-only mount does not stop
# a connect() to a socket file); the code gets none of them.
SHARED_PLACES = ("/tmp", "/var/tmp", "/run")
PROBE_TIMEOUT_S = 10.0


@functools.cache
def probe(bwrap: str) -> str | None:
    """None when `bwrap` can start a sandbox here; otherwise why it cannot, in a few words."""
    try:
        result = subprocess.run(
            [bwrap, *BASE, "--", "true"],
            capture_output=True,
            text=True,
            timeout=PROBE_TIMEOUT_S,
            env={"PATH": os.defpath},
            check=False,
        )
    except (OSError, subprocess.SubprocessError) as exc:
        return f"bubblewrap cannot start: {exc}"
    if result.returncode == 0:
        return None
    complaint = next(iter(result.stderr.strip().splitlines()), f"exit code {result.returncode}")
    return f"bubblewrap cannot start here: {complaint.removeprefix('bwrap: ')}"


def hidden_places() -> list[Path]:
    """What the code must not see: the home, agentui's directories, shared temporary places."""
    wanted = [Path.home(), data_dir(), config_dir(), state_dir(), *map(Path, SHARED_PLACES)]
    return _outermost(_existing(wanted))


def python_places(executable: str) -> list[Path]:
    """Where the interpreter and its standard library live (a venv and its base)."""
    interpreter = Path(executable)
    wanted = [
        Path(sys.prefix),
        Path(sys.base_prefix),
        Path(sys.exec_prefix),
        Path(sys.base_exec_prefix),
        interpreter.parent.parent,
        interpreter.resolve().parent.parent,
    ]
    return _outermost(_existing(wanted))


def command(
    bwrap: str,
    workdir: str,
    argv: Sequence[str],
    *,
    executable: str,
    shown: Sequence[Path] = (),
) -> list[str]:
    """The bwrap command line that runs `argv` in `workdir`, the one writable directory;
    `shown`: more places the code needs read-only (the Landlock binding), even if hidden."""
    hidden = hidden_places()
    line = [bwrap, *BASE, "--hostname", HOSTNAME]
    for place in hidden:
        line += ["--tmpfs", str(place)]
    for place in _outermost(_existing([*python_places(executable), *shown])):
        if any(place.is_relative_to(h) for h in hidden):
            line += ["--ro-bind", str(place), str(place)]
    work = str(Path(workdir).resolve())
    line += ["--bind", work, work, "--chdir", work, "--", *argv]
    return line


def _existing(paths: Iterable[Path]) -> list[Path]:
    # A mount point must exist in the read-only root; `/` itself is never hidden.
    found = []
    for path in paths:
        real = path.resolve()
        if real != Path("/") and real.is_dir():
            found.append(real)
    return found


def _outermost(paths: list[Path]) -> list[Path]:
    """Each place once, without those inside another (parents first, for mount order)."""
    unique = sorted(set(paths), key=lambda p: len(p.parts))
    kept: list[Path] = []
    for path in unique:
        if not any(path.is_relative_to(k) for k in kept):
            kept.append(path)
    return kept
