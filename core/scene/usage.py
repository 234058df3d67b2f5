"""SectionUsageLog: tokens each section used in the last 500 envelopes, for telemetry.

The seed asks for rolling per-section usage "capped to last 500 messages to avoid storage
bloat": one entry per envelope built (one agent call), the oldest forgotten first.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from .settings import SECTIONS, Section

USAGE_HISTORY = 500


@dataclass(frozen=True, slots=True)
class SectionUsage:
    """One envelope's sections: the tokens each was given and the tokens it used."""

    recipient: str  # "director", "world", or a character's name
    round_number: int
    budgets: dict[Section, int]
    used: dict[Section, int]


class SectionUsageLog:
    def __init__(self, size: int = USAGE_HISTORY) -> None:
        self._entries: deque[SectionUsage] = deque(maxlen=size)

    def record(self, usage: SectionUsage) -> None:
        self._entries.append(usage)

    def __len__(self) -> int:
        return len(self._entries)

    def __iter__(self) -> Iterator[SectionUsage]:
        return iter(self._entries)

    def mean_used(self) -> dict[Section, float]:
        """Average tokens used per section over the entries kept (0 when there are none)."""
        count = len(self._entries)
        return {
            section: sum(entry.used.get(section, 0) for entry in self._entries) / count
            if count
            else 0.0
            for section in SECTIONS
        }
