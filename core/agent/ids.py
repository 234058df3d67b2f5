"""Readable, deterministic ids: `a1`, `a2` for agents, `q1` for queries, per runtime."""

from __future__ import annotations

from collections import defaultdict


class IdSource:
    def __init__(self) -> None:
        self._counters: defaultdict[str, int] = defaultdict(int)

    def next(self, prefix: str) -> str:
        self._counters[prefix] += 1
        return f"{prefix}{self._counters[prefix]}"

    def observe(self, identifier: str) -> None:
        """Note an id made earlier (a resumed session) so new ids never repeat it."""
        prefix = identifier.rstrip("0123456789")
        number = identifier[len(prefix) :]
        if prefix and number:
            self._counters[prefix] = max(self._counters[prefix], int(number))
