"""The order characters act in: the director's priorities, ties by name (the seed's rule)."""

from __future__ import annotations

from collections.abc import Sequence

from agentui.core.protocol.director_payloads import ActingCharacter


def acting_order(acting: Sequence[ActingCharacter]) -> list[ActingCharacter]:
    """A stable sort by priority (1 first), then by name; equal keys keep the director's order."""
    return sorted(acting, key=lambda one: (one.priority, one.name))
