"""Keys typed while the app is still starting: the terminal does not echo them.

Until Textual puts the terminal in raw mode, it is in the shell's mode, which echoes what is
typed. Those keys do reach the app (its prompt gets them), but the echo stays on the shell's
screen and shows again after agentui quits, run together with its last message. Echo goes off
as soon as the app's command is chosen; the terminal's own settings come back after the app.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def unechoed_terminal() -> Iterator[None]:
    try:
        import termios
    except ImportError:  # not a POSIX terminal
        yield
        return
    try:
        fd = sys.stdin.fileno()
        saved = termios.tcgetattr(fd)
    except (termios.error, OSError, ValueError, AttributeError):  # no terminal: nothing to do
        yield
        return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHO  # lflags; the line discipline still buffers the keys for the app
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    try:
        yield
    finally:
        # Textual restores what it found (echo off): the shell gets its own settings back.
        termios.tcsetattr(fd, termios.TCSANOW, saved)
