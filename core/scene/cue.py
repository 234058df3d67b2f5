"""The SceneCue of a director's, character's or world agent's call, from the scene's state.

Written from the same state as the call's envelope (see providers/scene_cue.py for why).
"""

from __future__ import annotations

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.providers.scene_cue import CueCharacter, CueRole, SceneCue
from agentui.core.scene.scene_state import SceneState


def scene_cue(
    state: SceneState,
    role: CueRole,
    *,
    director_pass: int = 0,
    speaker: str = "",
    persona: str = "",
    guidance: CharacterGuidance | None = None,
) -> SceneCue:
    record, progress = state.record, state.round
    acted = set(progress.acted) if progress is not None else set()
    current = record.current_round
    last = current.messages[-1] if current is not None and current.messages else None
    guidance = guidance if guidance is not None else CharacterGuidance()
    return SceneCue(
        role=role,
        round_number=progress.number if progress is not None else state.next_round_number,
        director_pass=director_pass,
        speaker=speaker,
        persona=persona,
        directive=guidance.directive,
        entry=guidance.entry,
        exit=guidance.exit,
        request=current.request.text if current is not None else "",
        characters=tuple(
            CueCharacter(
                name=c.name,
                active=c.active,
                location=c.location,
                mood=c.mood,
                activity=c.activity,
                intentions=c.intentions,
                acted=c.name in acted,
            )
            for c in record.characters
        ),
        world=tuple(record.world.facts.items()),
        last_line=(last.speaker, last.text) if last is not None else None,
    )
