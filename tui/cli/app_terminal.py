"""The app needs a terminal: without one it is refused at once, with one message.

Textual's terminal driver reads stdin and draws on stderr. On anything but a terminal its input
thread spins: at the end of a file (`agentui TASK </dev/null`, a pipe whose writer closed, a
terminal already hung up) select() says "readable", read() returns nothing, and it selects
again, for ever, at full CPU (textual/drivers/linux_driver.py, run_input_thread); the screen
is drawn for nobody. A terminal that hangs up later is terminal_watch.py's.

`agentui web`'s apps are not in a terminal: textual-serve runs them with its own driver, which
talks through pipes (terminal_watch.py ends them when those close).
"""

from __future__ import annotations

import os
import sys


def missing_terminal() -> str | None:
    """Why the app cannot run here, or None when it can."""
    if os.environ.get("TEXTUAL_DRIVER"):
        # agentui web's pipes (served_to_a_browser), or a driver of someone's own choosing:
        # its input and output are not a terminal's.
        return None
    for role, stream in (("input (stdin)", sys.__stdin__), ("screen (stderr)", sys.__stderr__)):
        if not _is_terminal(stream):
            return (
                f"the app needs a terminal, and its {role} is not one; "
                "`agentui run TASK` runs a task without a screen"
            )
    return None


def _is_terminal(stream: object) -> bool:
    try:
        return os.isatty(stream.fileno())  # type: ignore[attr-defined]
    except (AttributeError, OSError, ValueError):  # no stream, or closed
        return False
