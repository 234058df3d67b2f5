"""Text verbatim in Markdown: a fenced code block no backticks inside it can close."""

from __future__ import annotations

import re

_BACKTICK_RUNS = re.compile(r"`+")


def fenced(text: str, language: str = "") -> str:
    """`text` verbatim in a fenced code block whose fence no run of backticks in it can close
    (code and tool output keep their lines and indentation; Markdown would reflow them)."""
    longest = max((len(run) for run in _BACKTICK_RUNS.findall(text)), default=0)
    fence = "`" * max(3, longest + 1)
    return f"{fence}{language}\n{text.rstrip(chr(10))}\n{fence}"
