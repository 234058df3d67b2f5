"""SceneCue: an agent's place in a directed scene, as data.

A director's or character's request carries its context twice: as prose in its messages (the
rendered envelope, for a model) and as this value, for a provider that answers from data rather
than by reading prose (the scripted model). The round workflow writes both from the same scene
state, so they always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

CueRole = Literal["director", "character", "world"]


@dataclass(frozen=True, slots=True)
class CueCharacter:
    name: str
    active: bool
    location: str = ""
    mood: str = ""
    activity: str = ""
    intentions: str = ""
    acted: bool = False  # has acted this round


@dataclass(frozen=True, slots=True)
class SceneCue:
    role: CueRole
    round_number: int
    director_pass: int = 0  # the director's pass (1, 2); 0 for the others
    speaker: str = ""  # the character the call is for
    persona: str = ""
    directive: str = ""  # the director's guidance for this character now
    entry: str = ""  # how it enters (activated this round)
    exit: str = ""  # how it leaves (deactivated this round)
    request: str = ""  # the person's words this round; empty for a continuation
    characters: tuple[CueCharacter, ...] = ()
    world: tuple[tuple[str, str], ...] = ()  # the world's facts, as (name, value)
    last_line: tuple[str, str] | None = None  # (speaker, text) said last this round
