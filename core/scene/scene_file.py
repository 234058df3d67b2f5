"""SceneFile: what a scene file (TOML) declares, checked by pydantic.

    title = "The Lighthouse Keeper's Letter"
    scenario = "A storm night at the lighthouse; a stranger knocks."   # the scene's situation
    director = "director"            # a profile's name, or an inline profile table
    world_profile = "world"          # the world agent's profile (used with options.world_agent)

    [notes.world]                    # world, campaign, arc, scene: scenario and author_note
    scenario = "A cold northern coast, 1890s."
    author_note = "Keep it quiet and concrete."

    [[lore]]
    title = "The letter"
    text = "..."

    [world]                          # named facts, strings
    weather = "storm"

    [[characters]]
    name = "Mara"                    # one word: it names agents (round-2.Mara) and is typed
    profile = "character"            # a profile's name, or an inline profile table
    persona = "The keeper. Practical, wary of strangers."
    location = "the lamp room"
    mood = "tired"
    clothing = "oilskin coat"
    activity = "trimming the wick"
    intentions = "keep the light burning"
    active = true                    # false: available, for the director to bring in

    [options]
    max_director_passes = 2          # 1 or 2 (the seed's hard cap)
    world_agent = false              # the world agent, off as the seed decides

Profiles named here are looked up, and inline ones checked, by scene_loading.py; this module
loads no profile machinery so that folding a session's scene events stays light.
"""

from __future__ import annotations

from typing import Annotated, Any, Self

from pydantic import BaseModel, ConfigDict, Field, model_validator

from agentui.core.protocol.director_payloads import STATE_FIELDS
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.notes import SceneNotes
from agentui.core.scene.record import SceneRecord
from agentui.core.scene.states import CharacterState, WorldState

# One word: a character's name is part of its agents' names and is typed in steers.
CHARACTER_NAME = r"^[A-Za-z][A-Za-z0-9_'-]*$"
# Names the scene's own roles use in its history and agents.
RESERVED_NAMES = frozenset({"director", "world", "person"})
MAX_DIRECTOR_PASSES = 2  # the seed's hard cap: before the characters act, and after

# A profile's name in the catalog, or a whole profile as a table (checked on load).
ProfileRef = Annotated[str, Field(min_length=1)] | dict[str, Any]


class CharacterEntry(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, Field(pattern=CHARACTER_NAME, max_length=40)]
    profile: ProfileRef = "character"
    persona: str = ""  # who the character is: its envelope's persona
    location: str = ""
    mood: str = ""
    clothing: str = ""
    activity: str = ""
    intentions: str = ""
    active: bool = True

    def state(self) -> CharacterState:
        fields = {field: getattr(self, field) for field in STATE_FIELDS}
        return CharacterState(name=self.name, active=self.active, **fields)


class SceneOptions(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_director_passes: int = Field(
        MAX_DIRECTOR_PASSES,
        ge=1,
        le=MAX_DIRECTOR_PASSES,
        description="director passes per round; 2 (the default) is the hard cap",
    )
    # The seed leaves world facts to the director; a world agent reconciles them once per
    # round, after the director's last pass, only when this is on.
    world_agent: bool = False


class SceneFile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    title: Annotated[str, Field(min_length=1)]
    description: str = ""
    scenario: str = ""  # the scene's situation: the scene-level scenario note
    notes: SceneNotes = Field(default_factory=SceneNotes)
    lore: list[LoreEntry] = Field(default_factory=list)  # most important first
    director: ProfileRef = "director"
    world_profile: ProfileRef = "world"
    characters: Annotated[list[CharacterEntry], Field(min_length=1)]
    world: dict[str, str] = Field(default_factory=dict)
    options: SceneOptions = Field(default_factory=SceneOptions)

    @model_validator(mode="after")
    def _consistent(self) -> Self:
        names = [c.name for c in self.characters]
        doubled = sorted({n for n in names if names.count(n) > 1})
        if doubled:
            raise ValueError(f"characters named more than once: {', '.join(doubled)}")
        reserved = sorted(n for n in names if n.lower() in RESERVED_NAMES)
        if reserved:
            roles = sorted(RESERVED_NAMES)
            raise ValueError(
                f"{', '.join(reserved)}: a character cannot be called "
                f"{', '.join(roles[:-1])} or {roles[-1]} (the scene's own roles)"
            )
        if not any(c.active for c in self.characters):
            raise ValueError("no character is active: at least one must be in the scene")
        if self.scenario and self.notes.scene.scenario:
            raise ValueError("scenario and notes.scene.scenario say the same thing: keep one")
        return self

    def scene_notes(self) -> SceneNotes:
        """The notes, with `scenario` as the scene level's scenario."""
        if not self.scenario:
            return self.notes
        scene = self.notes.scene.model_copy(update={"scenario": self.scenario})
        return self.notes.model_copy(update={"scene": scene})

    def record(self, scene_id: str) -> SceneRecord:
        """The scene before its first round."""
        return SceneRecord(
            scene_id=scene_id,
            title=self.title,
            notes=self.scene_notes(),
            lore=list(self.lore),
            world=WorldState(facts=dict(self.world)),
            characters=[c.state() for c in self.characters],
        )

    def entry(self, name: str) -> CharacterEntry:
        return next(c for c in self.characters if c.name == name)
