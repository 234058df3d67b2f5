"""AgentContextEnvelope: everything one agent call in a scene receives, in one shape.

The director, every character and the world agent get the same fields; what differs is the
content the builder puts in them (see builder.py). Required: `scene_id`, `recipient`,
`request` and `round`. Every other field defaults to empty, which means "none this call":
an empty section is not sent, and its token share goes to the others.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.memory import Memory
from agentui.core.scene.notes import SceneNotes
from agentui.core.scene.record import SceneMessage, SceneRequest
from agentui.core.scene.settings import Section
from agentui.core.scene.states import CharacterState, WorldState

RecipientKind = Literal["director", "character", "world"]


class Recipient(BaseModel):
    """Whom an envelope is for: the director, the world agent, or one character by name."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: RecipientKind
    character: str | None = None  # required for a character, absent otherwise

    @model_validator(mode="after")
    def _character_named_once(self) -> Self:
        if (self.kind == "character") != (self.character is not None):
            raise ValueError("a character recipient needs its name; the others take none")
        return self

    @classmethod
    def director(cls) -> Recipient:
        return cls(kind="director")

    @classmethod
    def world(cls) -> Recipient:
        return cls(kind="world")

    @classmethod
    def for_character(cls, name: str) -> Recipient:
        return cls(kind="character", character=name)

    @property
    def label(self) -> str:
        return self.character if self.character is not None else self.kind


class Persona(BaseModel):
    """Who the agent speaks as (from its profile); optional."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    name: str = Field(min_length=1)
    description: str = ""


class RoundMeta(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)  # the round being played
    finished_rounds: int = Field(0, ge=0)
    active_characters: list[str] = Field(default_factory=list)
    available_characters: list[str] = Field(default_factory=list)  # inactive, may be brought in
    acted_this_round: list[str] = Field(default_factory=list)  # in the order they first spoke


class RoundHistory(BaseModel):
    """One round word for word; a finished round's input is its first message (role person)."""

    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    messages: list[SceneMessage] = Field(default_factory=list)


class RoundSummary(BaseModel):
    model_config = ConfigDict(extra="forbid")

    number: int = Field(ge=1)
    bullets: list[str] = Field(default_factory=list)


class AgentContextEnvelope(BaseModel):
    model_config = ConfigDict(extra="forbid")

    scene_id: str = Field(min_length=1)
    title: str = ""
    recipient: Recipient
    request: SceneRequest  # the person's input this round, or a continuation
    round: RoundMeta
    persona: Persona | None = None

    # Budgeted sections (settings.Section).
    history: list[RoundHistory] = Field(default_factory=list)  # oldest first, word for word
    running_summary: str = ""  # the scene so far
    round_summaries: list[RoundSummary] = Field(default_factory=list)  # rounds out of view
    lore: list[LoreEntry] = Field(default_factory=list)
    memories: dict[str, list[Memory]] = Field(default_factory=dict)  # per character, best first
    notes: SceneNotes = Field(default_factory=SceneNotes)
    director_guidance: str = ""  # the director's guidance for everyone
    character_guidance: dict[str, CharacterGuidance] = Field(default_factory=dict)

    # Sent whole, outside the budget.
    world: WorldState = Field(default_factory=WorldState)
    characters: list[CharacterState] = Field(default_factory=list)  # active or not

    # How the budget went: tokens given and used per section, and pieces left out whole
    # (a piece cut short carries truncation.CUT_MARK in its text instead).
    budgets: dict[Section, int] = Field(default_factory=dict)
    used: dict[Section, int] = Field(default_factory=dict)
    left_out: dict[Section, int] = Field(default_factory=dict)

    def context_usage(self) -> dict[str, tuple[int, int]]:
        """Per section, (tokens budgeted, tokens used): what the scene's events record."""
        return {
            section: (given, self.used.get(section, 0)) for section, given in self.budgets.items()
        }
