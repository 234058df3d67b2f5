"""How every benchmark states timings: the median, the 95th percentile (nearest rank) and the
slowest, in milliseconds. One definition, so figures from different scripts compare."""

from __future__ import annotations

import statistics


def percentile(values: list[float], q: float) -> float:
    """Nearest-rank percentile (q in 0..100) of a non-empty list."""
    ordered = sorted(values)
    rank = max(1, min(len(ordered), round(q / 100 * len(ordered) + 0.5)))
    return ordered[rank - 1]


def spread_ms(seconds: list[float], digits: int = 1) -> dict[str, float | int | None]:
    """n, p50, p95 and max of durations in seconds, in milliseconds (None when there are none)."""
    if not seconds:
        return {"n": 0, "p50": None, "p95": None, "max": None}
    return {
        "n": len(seconds),
        "p50": round(statistics.median(seconds) * 1000, digits),
        "p95": round(percentile(seconds, 95) * 1000, digits),
        "max": round(max(seconds) * 1000, digits),
    }
