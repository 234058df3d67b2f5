"""A one-line display that gives way by priority when the terminal is too narrow for it.

Each piece of the line comes in the forms it can take, longest first, and says when (at which
rank) each form gives way to the next, the last one to nothing unless the piece is always kept.
The line is shortened rank by rank, lowest first, only as far as it must be: the least useful
parts go first, the room left goes to the most useful first, and no piece is cut in the
middle. Only what is always kept, when it alone is too long, is cut at the end with an
ellipsis.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from rich.text import Text


class Piece(NamedTuple):  # made before the first frame: see first_frame.py
    """`forms`, longest first, each with its separator from the piece before; `gives_way[k]`:
    the rank at which form k gives way to form k+1, or to nothing for the last form (a piece
    with one rank fewer than forms is always kept). Ranks grow along a piece."""

    forms: tuple[Text, ...]
    gives_way: tuple[int, ...] = ()

    @classmethod
    def kept(cls, *forms: Text, gives_way: Sequence[int] = ()) -> Piece:
        assert len(gives_way) == len(forms) - 1, "a kept piece keeps its last form"
        return cls(forms, tuple(gives_way))

    @classmethod
    def dropped_at(cls, *forms: Text, gives_way: Sequence[int]) -> Piece:
        assert len(gives_way) == len(forms), "each form gives way, the last to nothing"
        return cls(forms, tuple(gives_way))


def fit_line(pieces: Sequence[Piece], width: int) -> Text:
    """The pieces on one line of `width` cells, shortened by rank as far as needed.

    Every piece starts at its shortest; then each step is undone, the highest rank (the
    most useful) first, where the line still fits: a part is shortened only when it could not
    be longer even with every less useful part at its shortest."""
    chosen = [0 if width <= 0 else len(piece.gives_way) for piece in pieces]

    def cells(index: int, form: int) -> int:
        forms = pieces[index].forms
        return forms[form].cell_len if form < len(forms) else 0

    total = sum(cells(index, form) for index, form in enumerate(chosen))
    steps = sorted(
        (
            (rank, index, step)
            for index, piece in enumerate(pieces)
            for step, rank in enumerate(piece.gives_way)
        ),
        reverse=True,
    )
    for _rank, index, step in steps:
        # A piece's steps are undone last first: a step is undone only once the later ones are.
        if chosen[index] != step + 1:
            continue
        longer = total + cells(index, step) - cells(index, step + 1)
        if longer <= width:
            chosen[index] = step
            total = longer
    line = Text().join(
        piece.forms[form]
        for piece, form in zip(pieces, chosen, strict=True)
        if form < len(piece.forms)
    )
    if 0 < width < line.cell_len:
        line.truncate(width, overflow="ellipsis")
    return line
