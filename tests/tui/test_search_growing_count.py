"""The transcript search counts a streamed text that grows in its new part only, and counts
exactly what a count of the whole would: a match across the place where the last count
stopped, the characters shown by their neighbours (joiners, selectors, flags, CR before LF),
the title above the text."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentui.core.state.transcript import TranscriptItem
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app import transcript_search
from agentui.tui.app.transcript_search import TranscriptSearch
from agentui.tui.app.widgets.search_highlight import search_pattern


def searching(query: str) -> TranscriptSearch:
    """A search for `query`, with no screen: only its counting is used."""
    search = TranscriptSearch(screen=None)  # type: ignore[arg-type]
    search.pattern = search_pattern(query)
    search._longest = len(query)
    return search


def whole_count(query: str, entry: TranscriptItem) -> int:
    parts = (entry.title, entry.text, entry.detail)
    searched = "\n".join(visible_controls(part) for part in parts if part)
    pattern = search_pattern(query)
    assert pattern is not None
    return sum(1 for _ in pattern.finditer(searched))


# Letters of the query and the characters visible_controls decides by their neighbours.
PIECES = st.lists(
    st.sampled_from(
        [
            "a",
            "b",
            " ",
            "\n",
            "\r",
            "\u200d",
            "\u200c",
            "\ufe0f",
            "\U0001f3fb",
            "\u0628",
            "\U0001f468",
            "\U0001f3f4",
            "\U000e0067",
            "\U000e007f",
            "\u0600",
            "1",
            "\x1b",
            "é",
        ]
    ),
    max_size=6,
).map("".join)
# Whole words a joiner keeps, or loses when cut apart: some pieces end inside them.
JOINED = st.lists(
    st.sampled_from(["\u0628\u200d\u0628", "\u0628\u200d", "\u0628", "a", "\r", "\n"]),
    max_size=4,
).map("".join)


@settings(max_examples=200, deadline=None)
@given(
    # Some find what a character shown by its neighbours turns into, kept or stood in for.
    query=st.sampled_from(
        ["ab", "aba", "a b", "Ab\nA", "\u0628\u200d\u0628", "<U+200D>", "\u240d", "a\n"]
    ),
    title=st.sampled_from(["", "ab", "a"]),
    pieces=st.lists(PIECES | JOINED, min_size=1, max_size=12),
)
def test_a_growing_text_counts_as_the_whole_would(
    query: str, title: str, pieces: list[str]
) -> None:
    search = searching(query)
    entry = TranscriptItem("a1", "text", "", title=title)
    for piece in pieces:
        entry.append_text(piece)
        assert search._count(entry) == whole_count(query, entry)


def test_a_match_across_the_end_of_the_last_count_is_found() -> None:
    search = searching("zebra")
    entry = TranscriptItem("a1", "text", "a striped ze")
    assert search._count(entry) == 0
    entry.append_text("bra, and a zebra")
    assert search._count(entry) == 2


def test_a_joiner_kept_by_the_letter_that_came_after_it_is_found() -> None:
    search = searching("\u0628\u200d\u0628")
    entry = TranscriptItem("a1", "text", "words \u0628\u0628\u200d")  # a joiner at the end: shown
    assert search._count(entry) == 0
    entry.append_text("\u0628 and more words")  # now it joins two letters: kept
    assert search._count(entry) == 1


def test_only_the_new_part_is_shown_again(monkeypatch: pytest.MonkeyPatch) -> None:
    search = searching("zebra")
    entry = TranscriptItem("a1", "text", "A zebra is striped. " * 5000)
    assert search._count(entry) == 5000
    shown_lengths: list[int] = []

    def recording(text: str) -> Any:
        shown_lengths.append(len(text))
        return visible_controls(text)

    monkeypatch.setattr(transcript_search, "shown", recording)
    entry.append_text("One more zebra.")
    assert search._count(entry) == 5001
    assert shown_lengths and max(shown_lengths) <= 40, "the new part, not the 100k before it"


def test_a_text_with_a_detail_after_it_is_counted_whole() -> None:
    search = searching("zebra")
    entry = TranscriptItem("a1", "tool", "zebra", title="look", detail="a zebra")
    assert search._count(entry) == 2
    entry.detail = "a zebra and a zebra"
    assert search._count(entry) == 3
