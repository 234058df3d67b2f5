"""LoreEntry: a fact of the setting that every agent in the scene may draw on."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class LoreEntry(BaseModel):
    """A titled piece of lore. A scene lists its lore most important first: when the budget
    is short, the entries at the end are the ones left out."""

    model_config = ConfigDict(extra="forbid")

    title: str = Field(min_length=1)
    text: str
