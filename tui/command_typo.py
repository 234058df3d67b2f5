"""A command mistyped is not a task: `agentui sesions` would open the app and run an agent
titled `sesions` (and spend a model call on it). A task of one word close to a command's name
is refused with the command it was probably meant to be, and how to run it as a task anyway
(`agentui -- WORD`)."""

from __future__ import annotations

import difflib
import shlex
from collections.abc import Iterable

# difflib's ratio: 'sesions'/'sessions' 0.93, 'scene'/'scenes' 0.91, 'haiku' against any 0.5 or less.
_CLOSE = 0.8


def mistyped_command(task: str | None, commands: Iterable[str]) -> str | None:
    """The message for a one-word `task` that looks like one of `commands` mistyped; None for
    any other task."""
    if task is None or len(task.split()) != 1 or task != task.strip():
        return None
    names = sorted(commands)
    word = task.lower()
    matches = difflib.get_close_matches(word, names, n=1, cutoff=_CLOSE)
    if not matches:
        return None
    return (
        f"unknown command '{task}'; did you mean '{matches[0]}'? "
        f"(a one-word task: agentui -- {shlex.quote(task)})"
    )
