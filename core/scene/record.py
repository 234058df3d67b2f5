"""SceneRecord: a plain in-memory account of a scene so far, the builder's one source.

The round workflow keeps it: it opens a round with the person's request, appends each
agent's message, sets the director's guidance and the states, and closes the round. The
builder only reads it, except for the bullets of rounds that left the history window, which
it writes once into `RoundRecord.summary` so no later call summarises that round again.
"""

from __future__ import annotations

from typing import Literal, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from agentui.core.scene.guidance import DirectorGuidance
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.notes import SceneNotes
from agentui.core.scene.states import CharacterState, WorldState

RequestKind = Literal["user_input", "continuation"]
MessageRole = Literal["person", "character", "director", "world", "narration"]


class SceneRequest(BaseModel):
    """What starts a round: the person's input, or a continuation (they typed nothing)."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: RequestKind
    text: str = ""  # the person's input; empty for a continuation

    @model_validator(mode="after")
    def _text_matches_kind(self) -> Self:
        if self.kind == "user_input" and not self.text.strip():
            raise ValueError("a user_input request needs the person's text")
        if self.kind == "continuation" and self.text:
            raise ValueError("a continuation carries no text")
        return self

    @classmethod
    def user_input(cls, text: str) -> SceneRequest:
        return cls(kind="user_input", text=text)

    @classmethod
    def continuation(cls) -> SceneRequest:
        return cls(kind="continuation")


class SceneMessage(BaseModel):
    """One agent's contribution to a round, as the scene shows it."""

    model_config = ConfigDict(extra="forbid")

    speaker: str = Field(min_length=1)  # a character's name, "director", "world", "person"
    role: MessageRole = "character"
    text: str


class RoundRecord(BaseModel):
    number: int = Field(ge=1)
    request: SceneRequest
    messages: list[SceneMessage] = Field(default_factory=list)
    guidance: DirectorGuidance = Field(default_factory=DirectorGuidance)
    # Bullets, written once when the round leaves the history window; None until then.
    summary: list[str] | None = None
    closed: bool = False

    @property
    def message_count(self) -> int:
        """Its messages, the person's input counted as one."""
        return len(self.messages) + (self.request.kind == "user_input")


class SceneRecord(BaseModel):
    """The scene so far. Only `scene_id` is required; everything else starts empty."""

    model_config = ConfigDict(extra="forbid")

    scene_id: str = Field(min_length=1)
    title: str = ""
    notes: SceneNotes = Field(default_factory=SceneNotes)
    lore: list[LoreEntry] = Field(default_factory=list)  # most important first
    world: WorldState = Field(default_factory=WorldState)
    characters: list[CharacterState] = Field(default_factory=list)
    rounds: list[RoundRecord] = Field(default_factory=list)  # oldest first
    running_summary: str = ""  # the whole scene so far, kept by the round workflow

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        names = [c.name for c in self.characters]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"characters named more than once: {', '.join(doubled)}")
        numbers = [r.number for r in self.rounds]
        if numbers != list(range(1, len(numbers) + 1)):
            raise ValueError(f"rounds must be numbered 1, 2, 3... in order (got {numbers})")
        if any(not r.closed for r in self.rounds[:-1]):
            raise ValueError("only the last round may still be open")
        return self

    def character(self, name: str) -> CharacterState | None:
        return next((c for c in self.characters if c.name == name), None)

    @property
    def current_round(self) -> RoundRecord | None:
        """The round being played: the last one, while it is open."""
        if self.rounds and not self.rounds[-1].closed:
            return self.rounds[-1]
        return None

    @property
    def finished_rounds(self) -> list[RoundRecord]:
        return [r for r in self.rounds if r.closed]
