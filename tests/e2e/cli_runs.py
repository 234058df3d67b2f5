"""What the command-line end-to-end tests share: `agentui` run in a child process, as a person
runs it, its environment kept from the developer's shell, and its JSON event lines read back."""

from __future__ import annotations

import functools
import json
import os
from pathlib import Path
from typing import Any

import anyio

from .preloaded_cli import PRELOADED

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement
# What the developer's shell may hold that would change a run: keys, endpoints, settings.
CLEARED = ("ANTHROPIC_", "OPENAI_", "GEMINI_", "GOOGLE_", "AGENTUI_")
# A size exported in the shell: a child's output (argparse's help, listings) would follow it.
SIZED = ("COLUMNS", "LINES", "ROWS")


def child_env(home: Path, **extra: str) -> dict[str, str]:
    """No key, endpoint or setting from the developer's shell; config, sessions and state in
    `home`; the bare loop (the six-step default has its own tests); the offline model at full
    speed (its default pace, like a real model's, made each run take seconds)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(CLEARED) and k not in SIZED}
    env.update(
        PYTHONUNBUFFERED="1",
        NO_COLOR="1",
        AGENTUI_WORKFLOW="plain",
        AGENTUI_PACE="0",
        AGENTUI_DATA_DIR=str(home / "data"),
        AGENTUI_CONFIG_DIR=str(home / "config"),
        AGENTUI_STATE_DIR=str(home / "state"),
    )
    env.update(extra)  # a test's own value wins (e.g. a data dir that cannot be written)
    return env


async def agentui(*args: str, env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """Run `agentui ARGS` with nothing on its stdin; its exit code, stdout and stderr. Forked
    from a process that has imported the command already (preloaded_cli.py)."""
    code, out, err = await anyio.to_thread.run_sync(
        functools.partial(PRELOADED.run, list(args), env=env, cwd=cwd)
    )
    return code, out.decode(), err.decode()


def events(stdout: str) -> list[dict[str, Any]]:
    """`agentui run --json`'s events, one a line."""
    return [json.loads(line) for line in stdout.splitlines()]


def without_timing(event: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in event.items() if k not in ("ts", "duration_s")}
