"""Text that grows by many small pieces: linear to build, compact while nobody reads it."""

from __future__ import annotations

JOIN_EVERY = 256  # pieces joined into one string while unread


class GrowingText:
    """`append` keeps pieces in a list and `value` joins them when read (keeping the join), so
    n pieces cost O(n), not the O(n²) of `text += piece`. Unread, every `JOIN_EVERY` pieces
    become one string: a few-character string costs ~50 bytes of its own, ten times its text."""

    __slots__ = ("_loose", "_parts")

    def __init__(self, text: str = "") -> None:
        self._parts = [text]
        self._loose = 0  # pieces at the end of `_parts` not yet joined

    @property
    def value(self) -> str:
        parts = self._parts
        if len(parts) != 1:
            self._parts = parts = ["".join(parts)]
            self._loose = 0
        return parts[0]

    @property
    def pieces(self) -> int:
        """How many strings it holds now."""
        return len(self._parts)

    def append(self, piece: str) -> None:
        parts = self._parts
        parts.append(piece)
        self._loose += 1
        if self._loose == JOIN_EVERY:
            parts[-JOIN_EVERY:] = ["".join(parts[-JOIN_EVERY:])]
            self._loose = 0
