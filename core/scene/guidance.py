"""The director's guidance for a round as the envelope carries it: for everyone, and for each
character (its parts, CharacterGuidance, are a director's payload: core/protocol/director_payloads.py)."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from agentui.core.protocol.director_payloads import CharacterGuidance


class DirectorGuidance(BaseModel):
    """Guidance is rebuilt by the director every pass (the seed keeps none between passes)."""

    model_config = ConfigDict(extra="forbid")

    overall: str = ""  # the director's open guidance, for every character
    per_character: dict[str, CharacterGuidance] = Field(default_factory=dict)
