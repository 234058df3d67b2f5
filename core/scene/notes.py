"""Scenario and author notes at four levels: world, campaign, arc and scene."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Literal, get_args

from pydantic import BaseModel, ConfigDict, Field

NoteLevel = Literal["world", "campaign", "arc", "scene"]
# Broadest first: the order notes are read in.
NOTE_LEVELS: tuple[NoteLevel, ...] = get_args(NoteLevel)


class LevelNotes(BaseModel):
    """One level's notes; both optional (empty: none)."""

    model_config = ConfigDict(extra="forbid")

    scenario: str = ""  # what is going on at this level
    author_note: str = ""  # the author's instruction for how to write it


class SceneNotes(BaseModel):
    """Notes at every level; each level defaults to none."""

    model_config = ConfigDict(extra="forbid")

    world: LevelNotes = Field(default_factory=LevelNotes)
    campaign: LevelNotes = Field(default_factory=LevelNotes)
    arc: LevelNotes = Field(default_factory=LevelNotes)
    scene: LevelNotes = Field(default_factory=LevelNotes)

    def levels(self) -> Iterator[tuple[NoteLevel, LevelNotes]]:
        """Every level, broadest first."""
        for level in NOTE_LEVELS:
            yield level, getattr(self, level)
