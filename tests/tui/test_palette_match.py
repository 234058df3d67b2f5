"""A palette hit's words are marked where the query matched, and read as plain text: Textual's
Matcher.highlight reads them as markup (styled, or failing on `[2J`)."""

from __future__ import annotations

from textual.fuzzy import Matcher
from textual.style import Style

from agentui.tui.app.palette_match import marked

NAME = "main ␛[2J[bold red]x[/bold red]"


def test_words_that_look_like_markup_are_shown_as_they_are_with_the_match_marked() -> None:
    matcher = Matcher("mx", match_style=Style(bold=True))
    shown = marked(matcher, NAME)
    assert shown.plain == NAME
    styled = sorted(span.start for span in shown.spans)
    assert styled and NAME[styled[0]] == "m", "the match is marked"
    assert all(NAME[offset] in "mx" for offset in styled)
