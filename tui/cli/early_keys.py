"""Keys typed while the app is still starting: the terminal does not echo them.

Until Textual puts the terminal in raw mode, it is in the shell's mode, which echoes what is
typed. Those keys do reach the app (its prompt gets them), but the echo stays on the shell's
screen and shows again after agentui quits, run together with its last message. The `agentui`
executable turns echo off before importing anything else (launch.py); a command that is not the
app gives it back before its work (it may read the person's answers), the app when it ends.

When the app closes before its runtime started (a bad setting), keys typed in its last moment
are still in the terminal's buffer: `take_typed_keys` takes them, so they are said with the
error ("not sent: ...") instead of running in the shell once agentui has ended.

A background job (`agentui serve &`) leaves the terminal alone: changing it from outside the
foreground would stop the job (SIGTTOU). SIGTERM or SIGHUP while echo is held give the terminal
back before the process dies of them, until the app installs its own orderly handlers.
"""

from __future__ import annotations

import os
import re
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from types import FrameType
from typing import Any

# The terminal's own settings while echo is held off; None when it is not.
_held: tuple[int, list[Any]] | None = None
# The handlers ours replaced while echo is held, by signal.
_replaced: dict[int, Any] = {}
ENDING_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


def hold_typed_keys() -> None:
    """Echo off until `release_typed_keys()`; nothing without a terminal, for a background job,
    or when held already."""
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
    with suppress(OSError):  # ENOTTY: a terminal that is not ours to be in the background of
        if os.tcgetpgrp(fd) != os.getpgrp():
            return
    quiet = list(saved)
    quiet[3] &= ~termios.ECHO  # lflags; the line discipline still buffers the keys for the app
    termios.tcsetattr(fd, termios.TCSANOW, quiet)
    _held = (fd, saved)
    with suppress(ValueError):  # not the main thread: no handlers (tests)
        for signum in ENDING_SIGNALS:
            _replaced[signum] = signal.signal(signum, _give_back_then_end)


def release_typed_keys() -> None:
    """The terminal's own settings back (Textual restores what it found: echo off)."""
    global _held
    for signum, handler in _replaced.items():
        if signal.getsignal(signum) is _give_back_then_end:  # the app's own stay
            signal.signal(signum, handler)
    _replaced.clear()
    if _held is None:
        return
    import termios

    fd, saved = _held
    _held = None
    with suppress(termios.error, OSError):  # the terminal is gone
        termios.tcsetattr(fd, termios.TCSANOW, saved)


def take_typed_keys() -> str:
    """What was typed and not read while echo is held (the app ended meanwhile), taken out of
    the terminal's buffer; "" without a held terminal."""
    if _held is None:
        return ""
    import termios

    fd, _saved = _held
    chunks: list[bytes] = []
    with suppress(termios.error, OSError):  # the terminal is gone
        mode = termios.tcgetattr(fd)
        # Not line by line: a line not ended by enter is read too. VMIN 0: never waits.
        reading = list(mode)
        reading[3] &= ~(termios.ICANON | termios.ECHO)
        reading[6] = list(mode[6])
        reading[6][termios.VMIN], reading[6][termios.VTIME] = 0, 0
        termios.tcsetattr(fd, termios.TCSANOW, reading)
        try:
            while chunk := os.read(fd, 4096):
                chunks.append(chunk)
        finally:
            termios.tcsetattr(fd, termios.TCSANOW, mode)
    return b"".join(chunks).decode("utf-8", "replace")


# A key that is no text: an escape sequence (arrows, function keys, a paste's brackets).
_KEY_SEQUENCE = re.compile(r"\x1b(\[[0-?]*[ -/]*[@-~]|O.|.)?", re.DOTALL)
_ERASE = ("\x7f", "\x08")


def typed_lines(keys: str) -> list[str]:
    """Keys as the words they type: enter ends a line, backspace erases, other keys are not
    text; lines keep their spaces (the first may continue words typed before)."""
    lines = [""]
    for char in _KEY_SEQUENCE.sub("", keys):
        if char in "\r\n":
            lines.append("")
        elif char in _ERASE:
            lines[-1] = lines[-1][:-1]
        elif char.isprintable():
            lines[-1] += char
    return lines


def _give_back_then_end(signum: int, frame: FrameType | None) -> None:
    release_typed_keys()  # puts the handler it replaced back (the default: end the process)
    os.kill(os.getpid(), signum)


@contextmanager
def unechoed_terminal() -> Iterator[None]:
    hold_typed_keys()
    try:
        yield
    finally:
        release_typed_keys()
