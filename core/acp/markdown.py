"""Text as a client renders it: ACP clients (Zed, Toad) show content blocks as Markdown."""

from __future__ import annotations

import re

from ..terminal_text import clipped

_BACKTICK_RUNS = re.compile(r"`+")


def fenced(text: str, language: str = "") -> str:
    """`text` verbatim in a fenced code block whose fence no run of backticks in it can close
    (code and tool output keep their lines and indentation; Markdown would reflow them)."""
    longest = max((len(run) for run in _BACKTICK_RUNS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip(chr(10))}\n{fence}"


def one_line(text: str, limit: int = 80) -> str:
    """The first line of `text` that says something, shortened to `limit`, for a title."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return clipped(" ".join(first.split()), limit)
