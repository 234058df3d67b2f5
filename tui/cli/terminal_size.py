"""The app is as big as its terminal, whatever COLUMNS and LINES say.

Textual's terminal driver asks shutil.get_terminal_size(), which trusts COLUMNS and LINES
over the terminal itself, at the start and at every resize. Exported once (a shell profile,
a script, a CI job), they are stale: the app drew 80x24 in a 120x36 terminal and never
followed a resize. When the terminal reports its size, the variables go (from this process
and what it starts: they would be as stale there).
"""

from __future__ import annotations

import os
import sys

SIZE_VARIABLES = ("COLUMNS", "LINES")


def use_the_terminals_own_size() -> None:
    """Drop COLUMNS and LINES when the terminal Textual falls back to (stdout) has a size."""
    try:
        size = os.get_terminal_size(sys.__stdout__.fileno())  # type: ignore[union-attr]
    except (AttributeError, OSError, ValueError):  # not a terminal: the variables are all
        return
    if size.columns > 0 and size.lines > 0:
        for name in SIZE_VARIABLES:
            os.environ.pop(name, None)
