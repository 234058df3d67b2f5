"""Which inferred state changes a round applies (the seed's conflict rule: the director wins).

A character's own turn may change its state (inference.py reads it from the text), but a field
the director set this round stays as the director set it; the director's next pass may then
correct anything, and its updates are applied as they come.
"""

from __future__ import annotations

from collections.abc import Collection

from agentui.core.scene.states import CharacterState


def inferred_changes(
    proposed: dict[str, str], state: CharacterState, director_set: Collection[str]
) -> dict[str, str]:
    """The changes of `proposed` that apply: not set by the director this round, and changing
    something."""
    return {
        field: value
        for field, value in proposed.items()
        if field not in director_set and getattr(state, field) != value
    }
