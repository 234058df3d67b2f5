"""EnvelopeOverrides: content given to the builder instead of what the scene record holds.

For tests, pre-fetched memories (a retriever that ran ahead, a vector store), or a scene
driven by something other than its record. A field left None means "from the record"; a
given value replaces that part whole and is then fitted to the budget like the record's own.
(Synthetic input needs no override: the request is always the caller's.)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.memory import Memory
from agentui.core.scene.notes import SceneNotes
from agentui.core.scene.states import CharacterState, WorldState


class EnvelopeOverrides(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    memories: dict[str, list[Memory]] | None = None  # per character; skips retrieval
    lore: list[LoreEntry] | None = None
    notes: SceneNotes | None = None
    world: WorldState | None = None
    characters: list[CharacterState] | None = None
    running_summary: str | None = None
    director_guidance: str | None = None
    character_guidance: dict[str, CharacterGuidance] | None = None
