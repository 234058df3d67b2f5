"""Text as a client renders it: ACP clients (Zed, Toad) show content blocks as Markdown."""

from __future__ import annotations

from agentui.core.support.terminal_text import clipped


def one_line(text: str, limit: int = 80) -> str:
    """The first line of `text` that says something, shortened to `limit`, for a title."""
    first = next((line for line in text.splitlines() if line.strip()), "")
    return clipped(" ".join(first.split()), limit)
