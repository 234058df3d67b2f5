"""Keys typed while the app is still starting: the terminal does not echo them.

Until Textual puts the terminal in raw mode, it is in the shell's mode, which echoes what is
typed. Those keys do reach the app (its prompt gets them), but the echo stays on the shell's
screen and shows again after agentui quits, run together with its last message. The `agentui`
executable turns echo off before importing anything else (launch.py); a command that is not the
app gives it back before its work (it may read the person's answers), the app when it ends.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from typing import Any

# The terminal's own settings while echo is held off; None when it is not.
_held: tuple[int, list[Any]] | None = None


def hold_typed_keys() -> None:
    """Echo off until `release_typed_keys()`; nothing without a terminal or when held already."""
    global _held
    if _held is not None:
        return
    try:
        import termios
    except ImportError:  # not a POSIX terminal
        return
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError, AttributeError):  # no terminal: nothing to do
        return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHO  # lflags; the line discipline still buffers the keys for the app
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    _held = (fd, saved)


def release_typed_keys() -> None:
    """The terminal's own settings back (Textual restores what it found: echo off)."""
    global _held
    if _held is None:
        return
    import termios

    fd, saved = _held
    _held = None
    with suppress(termios.error, OSError):  # the terminal is gone
        termios.tcsetattr(fd, termios.TCSANOW, saved)


@contextmanager
def unechoed_terminal() -> Iterator[None]:
    hold_typed_keys()
    try:
        yield
    finally:
        release_typed_keys()
