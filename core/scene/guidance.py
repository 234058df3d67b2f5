"""The director's guidance for a round: for everyone, and for each character."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CharacterGuidance(BaseModel):
    """What the director asks of one character this round; each part optional."""

    model_config = ConfigDict(extra="forbid")

    directive: str = ""  # what to do now
    entry: str = ""  # how to enter, when the director activated it this round
    exit: str = ""  # how to leave, when the director deactivated it this round

    def is_empty(self) -> bool:
        return not (self.directive or self.entry or self.exit)


class DirectorGuidance(BaseModel):
    """Guidance is rebuilt by the director every pass (the seed keeps none between passes)."""

    model_config = ConfigDict(extra="forbid")

    overall: str = ""  # the director's open guidance, for every character
    per_character: dict[str, CharacterGuidance] = Field(default_factory=dict)


class PlannedTurn(BaseModel):
    """One character's turn in a director's pass: who, and what the director asks of it."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    guidance: CharacterGuidance = Field(default_factory=CharacterGuidance)
