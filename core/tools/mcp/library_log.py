"""The MCP SDK's log records, one line each: it logs a traceback for what a server does wrong
(a line on stdout that is not JSON-RPC, a notification it cannot read), and Python prints
those whole on stderr when nothing configured logging, a dozen lines per bad line, over the
app's screen or between `agentui mcp list`'s lines. The reason a server failed is said by
agentui itself; the SDK's warning stays, as one line naming the exception.
"""

from __future__ import annotations

import logging
import sys

from pydantic import ValidationError

from agentui.core.support.terminal_text import clipped, visible_controls

SDK_LOGGER = "mcp"
MAX_LINE = 300


class _OneLineToStderr(logging.Handler):
    """Writes a record's message and its exception's gist on one line, to the stderr of the
    moment (a front end may have redirected it since this was made)."""

    def emit(self, record: logging.LogRecord) -> None:
        try:
            line = f"mcp: {record.getMessage()}"
            if record.exc_info is not None and record.exc_info[1] is not None:
                line += f": {gist(record.exc_info[1])}"
            sys.stderr.write(visible_controls(clipped(line, MAX_LINE)) + "\n")
        except Exception:
            self.handleError(record)


def gist(exc: BaseException) -> str:
    """An exception in a few words: a validation error's first problem and the input it was
    about, another's first line."""
    if isinstance(exc, ValidationError) and exc.errors():
        first = exc.errors()[0]
        return f"{first['msg']} (in {clipped(repr(first.get('input')), 80)})"
    lines = str(exc).strip().splitlines()
    return f"{type(exc).__name__}: {lines[0]}" if lines else type(exc).__name__


def install() -> None:
    """Route the SDK's records through one-line output (once; later calls change nothing)."""
    logger = logging.getLogger(SDK_LOGGER)
    if any(isinstance(handler, _OneLineToStderr) for handler in logger.handlers):
        return
    handler = _OneLineToStderr(logging.WARNING)
    logger.addHandler(handler)
    logger.propagate = False  # not also whole through whatever the root logger has
