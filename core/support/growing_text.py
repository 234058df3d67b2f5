"""Text that grows by many small pieces: linear to build, compact while nobody reads it, and
its length or a part of it read without joining the whole."""

from __future__ import annotations

from bisect import bisect_right

JOIN_EVERY = 256  # pieces joined into one string while unread


class GrowingText:
    """`append` keeps pieces in a list and `value` joins them when read (keeping the join), so
    n pieces cost O(n), not the O(n²) of `text += piece`. Unread, every `JOIN_EVERY` pieces
    become one string: a few-character string costs ~50 bytes of its own, ten times its text.
    `slice` and `len` read a part, or the length, in time of that part: a screen that shows
    the end of an answer millions of characters long reads its new end, not all of it."""

    __slots__ = ("_ends", "_loose", "_parts")

    def __init__(self, text: str = "") -> None:
        self._parts = [text]
        self._ends = [len(text)]  # where each part ends in the text
        self._loose = 0  # pieces at the end of `_parts` not yet joined

    @property
    def value(self) -> str:
        parts = self._parts
        if len(parts) != 1:
            self._parts = parts = ["".join(parts)]
            self._ends = [self._ends[-1]]
            self._loose = 0
        return parts[0]

    @property
    def pieces(self) -> int:
        """How many strings it holds now."""
        return len(self._parts)

    def __len__(self) -> int:
        return self._ends[-1]

    def slice(self, start: int, end: int | None = None) -> str:
        """`value[start:end]` for 0 <= start (and end), joining only the parts it spans."""
        ends = self._ends
        length = ends[-1]
        end = length if end is None else min(end, length)
        if start >= end:
            return ""
        first = bisect_right(ends, start)  # the part holding `start`
        last = bisect_right(ends, end - 1)
        offset = ends[first - 1] if first else 0
        parts = self._parts
        if first == last:
            return parts[first][start - offset : end - offset]
        first_part, last_part = parts[first][start - offset :], parts[last][: end - ends[last - 1]]
        return "".join([first_part, *parts[first + 1 : last], last_part])

    def append(self, piece: str) -> None:
        parts = self._parts
        parts.append(piece)
        self._ends.append(self._ends[-1] + len(piece))
        self._loose += 1
        if self._loose == JOIN_EVERY:
            parts[-JOIN_EVERY:] = ["".join(parts[-JOIN_EVERY:])]
            self._ends[-JOIN_EVERY:] = [self._ends[-1]]
            self._loose = 0
