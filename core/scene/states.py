"""CharacterState and WorldState: where everyone is and what is true, as the director set it."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class CharacterState(BaseModel):
    """One character's state. Only `name` is required; an empty field is "not known yet".

    `active` characters are in the scene now; inactive ones are available to the director
    (to bring in with entry guidance).
    """

    model_config = ConfigDict(extra="forbid")

    name: str = Field(min_length=1)
    location: str = ""
    mood: str = ""
    clothing: str = ""
    activity: str = ""
    intentions: str = ""
    active: bool = True


class WorldState(BaseModel):
    """Named facts about the world (time of day, weather, what is on the table); none by default."""

    model_config = ConfigDict(extra="forbid")

    facts: dict[str, str] = Field(default_factory=dict)
