"""A command mistyped is not a task: `agentui sesions` would open the app and run an agent
titled `sesions` (and spend a model call on it). A task of one word close to a command's name
is refused with the command it was probably meant to be, and how to run it as a task anyway
(`agentui -- WORD`)."""

from __future__ import annotations

import shlex
from collections.abc import Iterable

# How many edits (a letter added, dropped, changed, or two swapped) still read as a typo: one
# in a short name, two once either word is 7 letters or more ('sesion' for 'sessions').
_LONG = 7


def mistyped_command(task: str | None, commands: Iterable[str]) -> str | None:
    """The message for a one-word `task` that looks like one of `commands` mistyped; None for
    any other task ('configure' is 3 edits from 'config': a task)."""
    if task is None or len(task.split()) != 1 or task != task.strip():
        return None
    from rapidfuzz.distance import OSA  # only for a one-word task: start-up stays light

    word = task.lower()
    close = [
        (distance, name)
        for name in sorted(commands)
        if (distance := OSA.distance(word, name))
        <= (2 if max(len(word), len(name)) >= _LONG else 1)
    ]
    if not close:
        return None
    _, meant = min(close)
    return (
        f"unknown command '{task}'; did you mean '{meant}'? "
        f"(a one-word task: agentui -- {shlex.quote(task)})"
    )
