"""`--profile NAME`: the task's agent started with that profile (the app and `agentui run`)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from typing import TYPE_CHECKING

from agentui.core.support.errors import AgentUIError

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime


def check_profile_use(args: argparse.Namespace) -> None:
    """`--profile` goes with a task (its name is looked up when the runtime, which loads the
    profiles, starts that task)."""
    if args.profile is not None and (args.task is None or args.scene is not None):
        raise AgentUIError(
            "--profile names the profile of a TASK's agent: give a task, not --scene"
        )


def profile_start(args: argparse.Namespace) -> Callable[[Runtime], str] | None:
    """The task's agent started with `--profile` (None without it)."""
    check_profile_use(args)
    if args.profile is None:
        return None
    task, profile = args.task, args.profile
    return lambda runtime: runtime.start(task, profile=profile)
