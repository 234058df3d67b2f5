"""A step's one-line summary reads an answer only as far as it shows it."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from agentui.core.agent.steps import SUMMARY_CHARS, collapsed

# Words and every kind of space str.split() knows (no-break, em, the ASCII separators).
PIECES = ["a", "bc", "é", "longerword", " ", "\t", "\n", "\u00a0", "\u2003", "\x1c", "\r"]
WHITESPACE_AND_WORDS = st.one_of(
    st.lists(st.sampled_from(PIECES), max_size=200).map("".join), st.text(max_size=300)
)


def _cut(text: str) -> str:
    return text if len(text) <= SUMMARY_CHARS else text[: SUMMARY_CHARS - 1] + "…"


@given(WHITESPACE_AND_WORDS)
def test_the_collapsed_start_is_what_splitting_the_whole_text_gives(text: str) -> None:
    whole = " ".join(text.split())
    start = collapsed(text)
    assert whole.startswith(start)
    assert _cut(start) == _cut(whole)


def test_a_long_answer_is_read_no_further_than_its_summary_shows() -> None:
    answer = "word " * 2_000_000
    start = collapsed(answer)
    assert SUMMARY_CHARS < len(start) <= SUMMARY_CHARS + len("word ")
    assert _cut(start) == _cut(" ".join(answer.split()))
