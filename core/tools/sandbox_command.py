"""The command line and environment that start the sandbox child (sandbox_child.py) in a mode.

- bubblewrap: bwrap's namespaces (see bubblewrap.py), and Landlock inside when the kernel has
  it; bwrap's own pid namespace ends whatever the code leaves.
- landlock: no bwrap; the child takes its own user, pid, network and IPC namespaces (where the
  kernel allows them), behind a keeper that waits for the code, then Landlock.
- limited: none of that; a keeper still ends what the code leaves behind.

The same line serves a run and the probe that measures, once, what a mode blocks here.
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any, Literal

from agentui.core.tools import bubblewrap, landlock_rules

Mode = Literal["bubblewrap", "landlock", "limited"]

CHILD_SOURCE = (Path(__file__).parent / "sandbox_child.py").read_text(encoding="utf-8")
# Variables a child may inherit; everything else (API keys, tokens, ...) stays behind.
PASSED_VARIABLES = ("PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ")
# Numeric libraries reserve address space per thread; one thread each keeps `import numpy`
# within the memory limit (RLIMIT_AS counts reserved, not used, memory).
ONE_THREAD = {"OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1"}


def scrubbed_environment(workdir: str) -> dict[str, str]:
    env = {name: os.environ[name] for name in PASSED_VARIABLES if name in os.environ}
    env.setdefault("PATH", os.defpath)
    env.update(ONE_THREAD, HOME=workdir, TMPDIR=workdir)
    return env


def child_config(
    mode: Mode,
    workdir: str,
    executable: str,
    *,
    landlock: bool,
    cpu_s: int | None = None,
    memory_bytes: int | None = None,
    max_processes: int | None = None,
    probe: bool = False,
) -> dict[str, Any]:
    """What the child sets up before the code runs (see sandbox_child.py)."""
    under_bwrap = mode == "bubblewrap"
    rules = None
    if landlock and mode != "limited":
        rules = landlock_rules.rules(workdir, executable, own_proc=under_bwrap)
    # Without bwrap, the child's own mount namespace hides what bwrap hides (where it can).
    hidden = [str(p) for p in bubblewrap.hidden_places()] if mode == "landlock" else []
    shown = [str(Path(workdir).resolve())]
    shown += [str(p) for p in bubblewrap.python_places(executable)]
    if rules is not None:
        shown.append(rules["library"])
    return {
        "hide": hidden,
        "show": shown,
        "cpu_s": cpu_s,
        "memory_bytes": memory_bytes,
        # The child dies with agentui; under bubblewrap, bwrap itself sees to that.
        "parent": None if under_bwrap else os.getpid(),
        "keep": not under_bwrap,
        "isolate": mode == "landlock",
        "drop_capabilities": mode != "limited",
        "bubblewrap": under_bwrap,
        "max_processes": None if mode == "limited" else max_processes,
        "landlock": rules,
        "probe": probe,
    }


def command(
    mode: Mode, bwrap: str | None, workdir: str, executable: str, config: dict[str, Any]
) -> list[str]:
    argv = [executable, "-I", "-B", "-u", "-X", "utf8", "-c", CHILD_SOURCE, json.dumps(config)]
    if mode != "bubblewrap":
        return argv
    assert bwrap is not None
    shown = [landlock_rules.library_path()] if config["landlock"] is not None else []
    return bubblewrap.command(bwrap, workdir, argv, executable=executable, shown=shown)
