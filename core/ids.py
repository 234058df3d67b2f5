"""Readable, deterministic ids: `a1`, `a2` for agents, `q1` for queries, per runtime."""

from __future__ import annotations

from collections import defaultdict


class IdSource:
    def __init__(self) -> None:
        self._counters: defaultdict[str, int] = defaultdict(int)

    def next(self, prefix: str) -> str:
        self._counters[prefix] += 1
        return f"{prefix}{self._counters[prefix]}"
