"""Which sandbox model code gets, and what it blocks here, said in a line or two.

- bubblewrap (+ Landlock where the kernel has it) when bwrap works here;
- else Landlock, with user, pid and network namespaces of its own where the kernel allows;
- else "limited" (and why): the code runs as the person. Namespaces without Landlock are
  limited too: nothing would be read-only, and root would stay root over the system's files.

AGENTUI_SANDBOX=limited (or the python tool's `sandbox="limited"`) asks for limited mode
even where more works; "landlock" leaves bubblewrap out; "auto", the default, takes the most
this machine offers. What each mode blocks is measured once by starting it (sandbox_probe.py).
"""

from __future__ import annotations

import os
import shutil
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from agentui.core.tools.bubblewrap import probe
from agentui.core.tools.sandbox_command import Mode
from agentui.core.tools.sandbox_probe import Protections, measure

SandboxSetting = Literal["auto", "landlock", "limited"]
SETTINGS: tuple[str, ...] = ("auto", "landlock", "limited")
ENV_VARIABLE = "AGENTUI_SANDBOX"
NO_CAPABILITIES = "0000000000000000"
UNIX_SOCKET_ABI = 9  # LANDLOCK_ACCESS_FS_RESOLVE_UNIX: connect() to a socket by its path
CAPS = {"cgroup": "cgroup", "rlimit": "RLIMIT_NPROC in its own user namespace"}


@dataclass(frozen=True, slots=True)
class SandboxChoice:
    bwrap: str | None = None  # the bwrap executable, when the code runs under bubblewrap
    protections: Protections | None = None  # measured; None: limited
    reason: str = ""  # why the sandbox is limited, or why bubblewrap is not used
    problem: str = ""  # a setting that makes no sense: the code does not run at all

    @property
    def mode(self) -> Mode:
        if self.bwrap is not None:
            return "bubblewrap"
        return "limited" if self.protections is None else "landlock"

    @property
    def limited(self) -> bool:
        return self.protections is None

    @property
    def landlock(self) -> bool:
        return self.protections is not None and self.protections.landlock_abi > 0

    def describe(self) -> str:
        """For the person: what the code can reach here (a second line says what is missing)."""
        if self.problem:
            return f"sandbox: {self.problem}: python code will not run"
        found = self.protections
        if found is None:
            return f"sandbox: limited ({self.reason}): the code runs as {_who()}"
        return "\n".join([_blocks(self.mode, found), *_missing(self.mode, found)])

    def summary(self) -> str:
        """One line for an approval: the layers and what matters most when deciding; the whole
        description is `agentui config show`'s."""
        found = self.protections
        if self.problem or found is None:
            return self.describe()  # a problem, or limited: one line already, and a warning
        fenced = []
        if self.mode == "bubblewrap" or found.landlock_abi:
            fenced.append("only its own folder writable")
        if found.namespaces or found.network_rules:
            fenced.append("no network")
        if found.namespaces or "signal" in found.scoped:
            fenced.append("no reach into other processes")
        missing = _gap_names(self.mode, found)
        gaps = f"; missing here: {', '.join(missing)}" if missing else ""
        return (
            f"sandbox: {_layers(self.mode, found)}: {', '.join(fenced)}{gaps} "
            "(agentui config show tells all)"
        )


def _euid() -> int:
    return os.geteuid()


def _who() -> str:
    if _euid() == 0:
        return "root, with every capability and every file"
    return "you, with your files"


def _layers(mode: Mode, found: Protections) -> str:
    layers = [
        "bubblewrap" if mode == "bubblewrap" else "",
        f"Landlock ABI {found.landlock_abi}" if found.landlock_abi else "",
        "its own namespaces" if mode == "landlock" and found.namespaces else "",
    ]
    return " + ".join(x for x in layers if x)


def _blocks(mode: Mode, found: Protections) -> str:
    blocked = []
    if mode == "bubblewrap" or found.landlock_abi:  # bwrap's read-only root, or Landlock's rules
        blocked.append("no files but system files (read-only) and its own directory")
    if found.namespaces or found.network_rules:
        blocked.append("no network")
    if found.capabilities == NO_CAPABILITIES:
        blocked.append("no capabilities, even as root")
    if found.namespaces or "signal" in found.scoped:
        blocked.append("no signals, ptrace or mounts beyond its own processes")
    if found.process_cap:
        blocked.append(f"a cap on its processes ({CAPS[found.process_cap]})")
    if found.tree_memory:
        blocked.append("a memory limit on all of it (cgroup)")
    else:
        blocked.append("a memory limit per process (no cgroup for all of it)")
    return f"sandbox: {_layers(mode, found)}: {', '.join(blocked)}"


def _missing(mode: Mode, found: Protections) -> list[str]:
    """What this kernel does not give, each protection once, in one line."""
    gaps = _gaps(mode, found)
    return [f"sandbox: missing here: {'; '.join(gaps)}"] if gaps else []


def _gap_names(mode: Mode, found: Protections) -> list[str]:
    """The protections missing here, named only (`TCP rules`, `a cap on processes`)."""
    return [gap.split(" (")[0].split(":")[0] for gap in _gaps(mode, found)]


def _gaps(mode: Mode, found: Protections) -> list[str]:
    """Each protection this kernel does not give, with what its absence leaves open."""
    gaps = []
    if not found.landlock_abi and mode == "bubblewrap":
        gaps.append("Landlock (files are hidden by bubblewrap only)")
    elif not found.landlock_abi:
        gaps.append("Landlock: no file is read-only")
    elif not found.network_rules and not found.namespaces:
        gaps.append(f"TCP rules (Landlock ABI 4; here {found.landlock_abi}): local TCP is open")
    if found.landlock_abi and len(found.scoped) < 2 and not found.namespaces:
        gaps.append("signal and abstract-socket scoping (Landlock ABI 6): agentui can be signalled")
    if mode == "landlock" and not found.namespaces:
        gaps.append("user namespaces (refused here): UDP is open")
    if found.landlock_abi < UNIX_SOCKET_ABI and not found.hidden:
        gaps.append(
            f"unix socket rules (Landlock ABI {UNIX_SOCKET_ABI}): sockets in /tmp and /run open"
        )
    if not found.process_cap:
        gaps.append("a cap on processes (no cgroup can be made here; root is exempt from rlimits)")
    if found.capabilities != NO_CAPABILITIES:
        gaps.append(f"dropping capabilities (left: {found.capabilities})")
    return gaps


def choose_sandbox(
    setting: str | None = None,
    environ: Mapping[str, str] = os.environ,
    executable: str = sys.executable,
) -> SandboxChoice:
    """The sandbox for `setting` (None: AGENTUI_SANDBOX, else auto). Measures each mode once
    per process (a fraction of a second), so the first call may block that long."""
    if setting is not None:
        wanted, asked = setting, "limited by the python tool's settings"
    else:
        wanted = environ.get(ENV_VARIABLE, "").strip() or "auto"
        asked = f"{ENV_VARIABLE}=limited"
    if wanted not in SETTINGS:
        return SandboxChoice(
            problem=f"{ENV_VARIABLE} must be auto, landlock or limited (got {wanted!r})"
        )
    if wanted == "limited":
        return SandboxChoice(reason=asked)
    why_not_bwrap = "bubblewrap left out by the settings"
    if wanted == "auto":
        bwrap = shutil.which("bwrap")
        why_not_bwrap = "bubblewrap not found"
        if bwrap is not None:
            failure = probe(bwrap) or measure("bubblewrap", bwrap, executable)
            if isinstance(failure, Protections):
                return SandboxChoice(bwrap=bwrap, protections=failure)
            why_not_bwrap = failure
    found = measure("landlock", None, executable)
    if isinstance(found, str):
        return SandboxChoice(reason=f"{why_not_bwrap}; {found}")
    if not found.landlock_abi:
        # Namespaces alone leave every file as writable as it is to the person (root's own
        # uid owns /etc in its namespace), and the host's /proc mounted: no sandbox to claim.
        return SandboxChoice(reason=f"{why_not_bwrap}; no Landlock")
    return SandboxChoice(protections=found, reason=why_not_bwrap)
