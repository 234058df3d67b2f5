"""Token budgets: each section's share of `max_context_tokens` as a whole number of tokens.

A share resolves to tokens rounded down. The shares of sections with nothing to send this
call go to the sections that have something, in proportion to their own shares; then each
section's hard cap, if any, applies. Fractions are exact, so the budgets never add up to more
than the split allows, whatever the numbers.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from fractions import Fraction

from agentui.core.scene.settings import SECTIONS, SceneSettings, Section


def resolve_budgets(settings: SceneSettings, present: Collection[Section]) -> dict[Section, int]:
    """Tokens per section for a call whose non-empty sections are `present`; absent ones get 0."""
    # str(): a float's shortest decimal (7.5, 0.1), so percentages stay the numbers written.
    shares = {s: Fraction(str(settings.split.share(s))) for s in SECTIONS}
    present_total = sum((shares[s] for s in present), Fraction(0))
    whole = sum(shares.values(), Fraction(0))
    budgets: dict[Section, int] = dict.fromkeys(SECTIONS, 0)
    if present_total == 0:
        return budgets  # nothing present has a share to grow in proportion to
    for section in set(present):
        percent = shares[section] * whole / present_total
        tokens = math.floor(settings.max_context_tokens * percent / 100)
        cap = settings.caps.get(section)
        budgets[section] = tokens if cap is None else min(tokens, cap)
    return budgets
