"""How a transcript block shows the matches of a search: every match marked, the one the search
is at marked more strongly.

A block drawn as Text is marked in its Text; one drawn as Markdown (an answer) is marked in the
lines Rich renders from it (`Highlighted`), so a match shows wherever the Markdown puts its
words. A match that Markdown's wrapping splits over two lines is not marked there.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from itertools import pairwise

from rich.console import Console, ConsoleOptions, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.style import Style
from rich.text import Text

# Dark text on yellow reads on every theme, light or dark.
MATCH = Style(color="black", bgcolor="yellow")
CURRENT = Style(color="black", bgcolor="dark_orange", bold=True, underline=True)


@dataclass(frozen=True, slots=True)
class Highlight:
    """The matches of `pattern` in one block; `current`: which of them (in the block's order)
    the search is at, or None."""

    pattern: re.Pattern[str]
    current: int | None = None

    def count(self, text: str) -> int:
        return sum(1 for _ in self.pattern.finditer(text))

    def shifted(self, before: int) -> Highlight:
        """For a part of a block that follows `before` matches of it."""
        current = self.current
        if current is None or current < before:
            return Highlight(self.pattern, None)
        return Highlight(self.pattern, current - before)


def search_pattern(query: str) -> re.Pattern[str] | None:
    """What a search for `query` finds: the words as typed, case ignored; None for nothing."""
    if not query:
        return None
    return re.compile(re.escape(query), re.IGNORECASE)


def mark_text(text: Text, highlight: Highlight | None) -> Text:
    """`text` with its matches styled (in place; returned for convenience)."""
    if highlight is None:
        return text
    for number, found in enumerate(highlight.pattern.finditer(text.plain)):
        style = CURRENT if number == highlight.current else MATCH
        text.stylize(style, found.start(), found.end())
    return text


class Highlighted:
    """A renderable with the matches of a search marked in the lines it renders to."""

    __slots__ = ("_highlight", "_renderable")

    def __init__(self, renderable: RenderableType, highlight: Highlight) -> None:
        self._renderable = renderable
        self._highlight = highlight

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> Iterator[Segment]:
        lines = console.render_lines(self._renderable, options, pad=False, new_lines=False)
        number = 0
        for line in lines:
            marked, number = _mark_line(line, self._highlight, number)
            yield from marked
            yield Segment.line()  # every line ends so (Textual counts them to size a widget)

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._renderable)


def _mark_line(line: list[Segment], highlight: Highlight, number: int) -> tuple[list[Segment], int]:
    """The segments of one rendered line with its matches styled; and how many matches the
    block has had up to its end."""
    plain = "".join(segment.text for segment in line if not segment.control)
    spans: list[tuple[int, int, Style]] = []
    for found in highlight.pattern.finditer(plain):
        spans.append(
            (found.start(), found.end(), CURRENT if number == highlight.current else MATCH)
        )
        number += 1
    if not spans:
        return line, number
    return list(_restyled(line, spans)), number


def _restyled(line: Iterable[Segment], spans: list[tuple[int, int, Style]]) -> Iterator[Segment]:
    position = 0
    for segment in line:
        if segment.control:
            yield segment
            continue
        text, style = segment.text, segment.style
        start, end = position, position + len(text)
        position = end
        cuts = sorted(
            {start, end} | {max(start, min(end, edge)) for s, e, _ in spans for edge in (s, e)}
        )
        for left, right in pairwise(cuts):
            piece = text[left - start : right - start]
            marked = next((st for s, e, st in spans if s <= left and right <= e), None)
            yield Segment(piece, (style + marked) if style and marked else (marked or style))
