"""An answer with no Markdown in it, drawn exactly as Rich's Markdown draws it, without loading
rich.markdown and markdown_it (~25 ms of imports: a resumed session's first frame shows the
selected agent's answer, often a line of plain words such as "Done.").

Plain means: lines of letters, digits, spaces and a few marks that mean nothing to Markdown
anywhere in a line (`. , ; : ! ? ' " ( ) / %`, and `-` inside a line), none with space at
either end, none opening like an ordered list ("1." or "1)"), separated by blank lines into
paragraphs. Markdown (CommonMark, as Rich parses it: no typographer, no linkify) reads such a
text as paragraphs of plain text, each line break within one a space. Anything else is drawn
by Markdown itself (tests/tui/test_plain_answer_as_markdown_draws_it.py compares the two).
"""

from __future__ import annotations

import re

from rich.console import Console, ConsoleOptions, RenderableType, RenderResult
from rich.segment import Segment
from rich.text import Text

# A line of plain words: no character Markdown reads (emphasis, code, links, html, entities,
# escapes, headings, quotes, tables), no space at either end (a hard break, an indented code
# block), no list, rule or heading marker at its start.
_PLAIN_LINE = re.compile(r"[^\W_](?:[^\W_]|[ .,;:!?'\"()/%-])*(?<! )")
_ORDERED_LIST = re.compile(r"\d+[.)]")


def as_markdown(text: str) -> RenderableType:
    """`text` drawn as Markdown: by PlainAnswer when it is plain words alone (rich.markdown is
    loaded only for an answer that needs it)."""
    paragraphs = plain_paragraphs(text)
    if paragraphs is not None:
        return PlainAnswer(paragraphs)
    from rich.markdown import Markdown

    return Markdown(text)


def plain_paragraphs(text: str) -> list[list[str]] | None:
    """`text`'s paragraphs (each a list of its lines) when Markdown reads it as plain
    paragraphs alone; else None."""
    paragraphs: list[list[str]] = []
    current: list[str] = []
    for line in text.split("\n"):
        if not line:
            if current:
                paragraphs.append(current)
                current = []
            continue
        if _ORDERED_LIST.match(line) or not _PLAIN_LINE.fullmatch(line):
            return None
        current.append(line)
    if current:
        paragraphs.append(current)
    return paragraphs or None


class PlainAnswer:
    """Paragraphs of plain words, rendered segment for segment as `Markdown(text)` renders
    them: each a left-justified Text in the markdown.paragraph style (over Markdown's own,
    "none"), a line break within one a space, a blank line between two."""

    __slots__ = ("_paragraphs",)

    def __init__(self, paragraphs: list[list[str]]) -> None:
        self._paragraphs = paragraphs

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        style = console.get_style("none", default="none") + console.get_style(
            "markdown.paragraph", default="none"
        )
        options = options.update(height=None)
        for index, lines in enumerate(self._paragraphs):
            text = Text(justify="left")
            for number, line in enumerate(lines):
                if number:
                    text.append(" ", style)  # a soft break
                text.append(line, style)
            if index:
                yield Segment.line()
            yield from console.render(text, options)
