"""SectionUsageLog: tokens each section used in the last 500 envelopes, for telemetry.

The seed asks for rolling per-section usage "capped to last 500 messages to avoid storage
bloat": one entry per envelope an agent call received, the oldest forgotten first. The scene's
fold keeps it (SceneState.context_usage, from the usage each director:start and
character:start carries: the director's and the characters' calls, not the world agent's), so
the F2 view and `export --format rounds` show it, and a resumed scene keeps it.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass

from agentui.core.scene.settings import SECTIONS, Section

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
        return self._mean([entry.used for entry in self._entries])

    def mean_budgets(self) -> dict[Section, float]:
        """Average tokens given per section over the entries kept (0 when there are none)."""
        return self._mean([entry.budgets for entry in self._entries])

    @staticmethod
    def _mean(values: list[dict[Section, int]]) -> dict[Section, float]:
        count = len(values)
        return {
            section: sum(value.get(section, 0) for value in values) / count if count else 0.0
            for section in SECTIONS
        }
