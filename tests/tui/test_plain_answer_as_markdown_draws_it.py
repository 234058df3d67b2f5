"""An answer of plain words is drawn without Rich's Markdown (plain_answer.py), and must look
exactly as Markdown draws it: the same segments (text and styles) at every width."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rich.console import Console
from rich.markdown import Markdown
from rich.segment import Segment

from agentui.tui.app.widgets.plain_answer import PlainAnswer, plain_paragraphs

WIDTHS = (1, 7, 20, 51, 120)


def _segments(renderable: object, width: int) -> list[Segment]:
    console = Console(width=width, color_system="truecolor", force_terminal=True)
    return list(console.render(renderable, console.options))  # type: ignore[arg-type]


def _drawn_alike(text: str) -> None:
    paragraphs = plain_paragraphs(text)
    assert paragraphs is not None, text
    for width in WIDTHS:
        assert _segments(PlainAnswer(paragraphs), width) == _segments(Markdown(text), width)


@pytest.mark.parametrize(
    "text",
    [
        "Done.",
        "Done",
        "All 3 parts are done: the first (a list), the second / third at 40%!",
        "It's \"fine\", isn't it? Yes; well-known.",
        " ".join(["a long line of words that wraps at every width it is drawn at, again"] * 3),
        "First paragraph,\nits second line.\n\nSecond paragraph.",
        "\n\nLeading and trailing blank lines.\n\n\n",
        "Two  spaces  inside  a  line.",
        "Ünïcödé wörds, 日本語, and 2 digits",
        "2 agents answered - both agree.",
    ],
)
def test_plain_words_are_drawn_as_markdown_draws_them(text: str) -> None:
    _drawn_alike(text)


@pytest.mark.parametrize(
    "text",
    [
        "",
        "\n\n",
        "1. a list",
        "2) a list",
        "10. still a list",
        "- a bullet",
        "-- dashes first",
        "A heading\n===",
        "A heading\n---",
        "# a heading",
        " leading space",
        "trailing space ",
        "hard break  \nnext",
        "    indented code",
        "**bold**",
        "_emphasis_",
        "snake_case",
        "`code`",
        "[a link](x)",
        "<b>html</b>",
        "&amp; an entity",
        "an escape\\",
        "> a quote",
        "a | table",
        "~~struck~~",
        "a\ttab",
        "+ a bullet",
        "* a bullet",
        "(starts with a mark)",
    ],
)
def test_anything_markdown_may_read_is_left_to_markdown(text: str) -> None:
    assert plain_paragraphs(text) is None


# Mostly the marks taken as plain (so that many examples are), and some that are not.
TEXTS = st.text(alphabet="ab 1.,;:!?'\"()/%-\né", max_size=60).map("a".__add__) | st.text(
    alphabet="ab 1.,:-_*`#>\n\t[]<&\\=+~|", max_size=40
)


@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_whatever_is_taken_as_plain_is_drawn_as_markdown_draws_it(text: str) -> None:
    if plain_paragraphs(text) is not None:
        _drawn_alike(text)
