"""Fitting text to a token budget without cutting mid-thought.

A section is a list of pieces (a message, a lore entry, a note) in the order they should be
kept: the newest history last, the most important lore first. Pieces are kept whole while they
fit; the first that does not is cut between sentences (or, if no sentence fits, between words)
and marked with CUT_MARK; the pieces after it are left out and counted, so the renderer can
say so.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from agentui.core.scene.tokens import TokenCounter

CUT_MARK = "[…]"

# Where text may be cut: after a sentence's end (closing quotes and brackets stay with it), at
# a line break, and failing those, between words. Each match is the gap between two parts.
_SENTENCE_GAP = re.compile(r"(?<=[.!?…])[\"'”’)\]]*\s+|\s*\n\s*")
_WORD_GAP = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Piece:
    """One unit of a section: a fixed `head` (a speaker's name, a title) and its `body`."""

    head: str
    body: str

    @property
    def text(self) -> str:
        return self.head + self.body


@dataclass(frozen=True, slots=True)
class Fitted:
    """What of a section's pieces fits: (index, body) in the pieces' own order."""

    kept: list[tuple[int, str]]
    left_out: int  # pieces dropped whole
    cut: int | None  # the index of the piece whose body was cut, if one was
    used: int  # tokens of the kept pieces, heads included


def cut_text(
    text: str,
    budget: int,
    counter: TokenCounter,
    *,
    keep: Literal["start", "end"] = "start",
    head: str = "",
) -> str | None:
    """`text` whole if `head + text` fits `budget`; else its longest start (or end) that fits
    with CUT_MARK, cut between sentences, or between words if no sentence fits; None if not
    even one word does."""
    if counter.count(head + text) <= budget:
        return text
    for gap in (_SENTENCE_GAP, _WORD_GAP):
        part = _longest_part(text, budget, counter, gap, keep, head)
        if part is not None:
            return part
    return None


def _longest_part(
    text: str,
    budget: int,
    counter: TokenCounter,
    gap: re.Pattern[str],
    keep: Literal["start", "end"],
    head: str,
) -> str | None:
    def part(position: int) -> str:
        if keep == "start":
            return f"{text[:position].rstrip()} {CUT_MARK}"
        return f"{CUT_MARK} {text[position:]}"

    def fits(position: int) -> bool:
        return counter.count(head + part(position)) <= budget

    # The gaps' ends, ordered so that a later candidate keeps more text; a longer part never
    # counts fewer tokens, so the last one that fits is found by bisection.
    ends = [
        m.end() for m in gap.finditer(text) if text[: m.start()].strip() and m.end() < len(text)
    ]
    candidates = ends if keep == "start" else ends[::-1]
    low, high = 0, len(candidates)  # candidates[:low] fit; candidates[high:] do not
    while low < high:
        middle = (low + high) // 2
        if fits(candidates[middle]):
            low = middle + 1
        else:
            high = middle
    return part(candidates[low - 1]) if low else None


def fit_pieces(
    pieces: Sequence[Piece],
    budget: int,
    counter: TokenCounter,
    *,
    keep: Literal["first", "last"] = "first",
) -> Fitted:
    """The pieces that fit `budget`, kept from the first on (or from the last back)."""
    indexes = range(len(pieces)) if keep == "first" else range(len(pieces) - 1, -1, -1)
    kept: dict[int, str] = {}
    used = 0
    cut: int | None = None
    for index in indexes:
        piece = pieces[index]
        cost = counter.count(piece.text)
        if used + cost <= budget:
            kept[index] = piece.body
            used += cost
            continue
        side: Literal["start", "end"] = "start" if keep == "first" else "end"
        body = cut_text(piece.body, budget - used, counter, keep=side, head=piece.head)
        if body is not None:
            kept[index] = body
            used += counter.count(piece.head + body)
            cut = index
        break
    return Fitted(sorted(kept.items()), len(pieces) - len(kept), cut, used)
