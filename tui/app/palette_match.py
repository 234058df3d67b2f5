"""A palette hit's words with the typed query's letters marked, as plain text.

Textual's `Matcher.highlight` reads its candidate as markup: an agent's name, a session's
task or a model's name holding `[bold]` would be styled, and one holding `[2J` (an escape
sequence made visible) makes the search fail. Words from a model, a file or a person are
marked here instead, on plain Content, at the offsets Textual's own fuzzy search found.
"""

from __future__ import annotations

from textual.content import Content
from textual.fuzzy import Matcher


def marked(matcher: Matcher, candidate: str) -> Content:
    """`candidate` as plain text, the letters `matcher`'s query matched in its match style
    (as Matcher.highlight marks them)."""
    content = Content(candidate)
    _, offsets = matcher.fuzzy_search.match(matcher.query, candidate)
    for offset in offsets:
        if not candidate[offset].isspace():
            content = content.stylize(matcher.match_style, offset, offset + 1)
    return content
