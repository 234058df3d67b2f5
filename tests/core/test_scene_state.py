"""SceneState, the fold of a scene's events: what each event changes, one event at a time."""

from __future__ import annotations

from typing import Any

from agentui.core.protocol import events as ev
from agentui.core.protocol.director_payloads import PlannedTurn
from agentui.core.scene.scene_state import SceneState

from .scene_helpers import harbour

ROOT, ROUND = "a1", "a2"


class Events:
    """Scene events in order, numbered as a bus would number them."""

    def __init__(self) -> None:
        self.seq = 0

    def __call__(self, cls: type[ev.E], agent_id: str = ROUND, **fields: Any) -> ev.E:
        self.seq += 1
        return cls(seq=self.seq, ts=0.0, agent_id=agent_id, **fields)


def a_round_planned(*names: str) -> tuple[SceneState, Events]:
    """The harbour scene in round 1, its director's first pass planning `names`' turns."""
    scene, make = SceneState(ROOT, harbour().file, "harbour.toml"), Events()
    scene.apply(make(ev.RoundStarted, round=1, request="continuation"))
    scene.apply(make(ev.DirectorPassStarted, round=1, director_pass=1, director_id="a3"))
    turns = [PlannedTurn(name=name) for name in names]
    scene.apply(
        make(ev.DirectorPassCompleted, round=1, director_pass=1, director_id="a3", turns=turns)
    )
    return scene, make


def test_a_skipped_turn_is_played_but_not_acted() -> None:
    scene, make = a_round_planned("Mara", "Tomas")
    turn = {"round": 1, "director_pass": 1}
    scene.apply(make(ev.CharacterCompleted, **turn, name="Mara", character_id="", ended="skipped"))
    scene.apply(
        make(ev.CharacterCompleted, **turn, name="Tomas", character_id="a4", ended="completed")
    )
    progress = scene.round
    assert progress is not None
    assert progress.acted == ["Tomas"], "Mara never spoke"
    assert progress.passes[0].remaining() == [], "but her turn is gone from the pass"
    assert not progress.flags("Mara").has_acted_this_round
