"""Which sandbox model code gets: bubblewrap when it works here, else "limited" (and why).

AGENTUI_SANDBOX=limited (or the python tool's `sandbox="limited"`) asks for limited mode even
where bubblewrap works; "auto", the default, takes bubblewrap when it can.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Literal

from agentui.core.tools.bubblewrap import probe

SandboxSetting = Literal["auto", "limited"]
SETTINGS: tuple[str, ...] = ("auto", "limited")
ENV_VARIABLE = "AGENTUI_SANDBOX"


@dataclass(frozen=True, slots=True)
class SandboxChoice:
    bwrap: str | None = None  # the bwrap executable, when the code runs under bubblewrap
    reason: str = ""  # why the sandbox is limited
    problem: str = ""  # a setting that makes no sense: the code does not run at all

    @property
    def limited(self) -> bool:
        return self.bwrap is None

    def describe(self) -> str:
        """One line for the person: what the code can reach."""
        if self.problem:
            return f"sandbox: {self.problem}: python code will not run"
        if self.bwrap is not None:
            return "sandbox: bubblewrap (no network, no files but its own temporary directory)"
        return f"sandbox: limited ({self.reason}): the code runs as you, with your files"


def choose_sandbox(
    setting: str | None = None, environ: Mapping[str, str] = os.environ
) -> SandboxChoice:
    """The sandbox for `setting` (None: AGENTUI_SANDBOX, else auto). Probes bubblewrap once per
    process (a few milliseconds), so the first call may block that long."""
    if setting is not None:
        wanted, asked = setting, "limited by the python tool's settings"
    else:
        wanted = environ.get(ENV_VARIABLE, "").strip() or "auto"
        asked = f"{ENV_VARIABLE}=limited"
    if wanted not in SETTINGS:
        return SandboxChoice(problem=f"{ENV_VARIABLE} must be auto or limited (got {wanted!r})")
    if wanted == "limited":
        return SandboxChoice(reason=asked)
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return SandboxChoice(reason="bubblewrap not found")
    failure = probe(bwrap)
    if failure is not None:
        return SandboxChoice(reason=failure)
    return SandboxChoice(bwrap=bwrap)
