"""What a director's pass decides, as the scene events carry it.

A directed scene's director answers each pass with a DirectorDecision; the round plans turns
from it (PlannedTurn, each with the CharacterGuidance the director gave). The event vocabulary
(events.py) carries these payloads, so they live here, beside it, rather than in the scene
package that plays them (core/scene): events depend on no feature package.

The built-in director profile's JSON contract holds the model to the decision's shape; a
scene's own director profile may add fields (ignored here) or leave lists out (empty). Names
are the scene's characters' names; which of them a round can use is decided by the scene's
vetting (core/scene/vetting.py).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

# The character state fields a director (or the heuristics) may set: the one list of them.
STATE_FIELDS = ("location", "mood", "clothing", "activity", "intentions")

# What models write into a field they mean to leave alone (a strict JSON schema makes them fill
# every field). Kept to words that are never a state or a fact themselves: a value is compared
# stripped, without case, brackets or a final full stop.
PLACEHOLDERS = frozenset({"unchanged", "no change", "same", "same as before"})


def set_value(value: str | None) -> str | None:
    """The value a director's field sets, stripped; None when it sets nothing: left out, empty,
    only whitespace, or a placeholder such as "unchanged" (never a wiped field)."""
    if value is None:
        return None
    text = value.strip()
    if text.strip("()[].").strip().lower() in PLACEHOLDERS or not text:
        return None
    return text


class _Part(BaseModel):
    # A scene's own director schema may carry more per item; only these fields are used.
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(extra="ignore", frozen=True, defer_build=True)


class ActingCharacter(_Part):
    name: str
    guidance: str = ""
    priority: int = 1  # 1 acts first; ties go by name


class Activation(_Part):
    name: str
    entry_guidance: str = ""


class Deactivation(_Part):
    name: str
    exit_guidance: str = ""


class StateUpdate(_Part):
    name: str
    location: str | None = None
    mood: str | None = None
    clothing: str | None = None
    activity: str | None = None
    intentions: str | None = None

    def changes(self) -> dict[str, str]:
        """The fields it sets (see `set_value`), in STATE_FIELDS order."""
        return {
            field: value
            for field in STATE_FIELDS
            if (value := set_value(getattr(self, field))) is not None
        }


class WorldUpdate(_Part):
    key: str
    value: str

    def change(self) -> tuple[str, str] | None:
        """The fact it sets, (key, value); None when its key or value sets nothing."""
        key, value = self.key.strip(), set_value(self.value)
        return (key, value) if key and value is not None else None


class DirectorDecision(_Part):
    acting_characters: list[ActingCharacter] = Field(default_factory=list)
    activations: list[Activation] = Field(default_factory=list)
    deactivations: list[Deactivation] = Field(default_factory=list)
    state_updates: list[StateUpdate] = Field(default_factory=list)
    world_updates: list[WorldUpdate] = Field(default_factory=list)
    open_guidance: str = ""


class CharacterGuidance(BaseModel):
    """What the director asks of one character this round; each part optional."""

    model_config = ConfigDict(extra="forbid", defer_build=True)

    directive: str = ""  # what to do now
    entry: str = ""  # how to enter, when the director activated it this round
    exit: str = ""  # how to leave, when the director deactivated it this round

    def is_empty(self) -> bool:
        return not (self.directive or self.entry or self.exit)


class PlannedTurn(BaseModel):
    """One character's turn in a director's pass: who, and what the director asks of it."""

    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)

    name: str = Field(min_length=1)
    guidance: CharacterGuidance = Field(default_factory=CharacterGuidance)
