"""Scenes for the envelope tests: rounds built from (speaker, text) pairs."""

from __future__ import annotations

from collections.abc import Sequence

from agentui.core.scene.record import RoundRecord, SceneMessage, SceneRecord, SceneRequest
from agentui.core.scene.states import CharacterState


def a_round(
    number: int,
    lines: Sequence[tuple[str, str]],
    *,
    said: str | None = None,
    closed: bool = True,
) -> RoundRecord:
    """Round `number`: the person `said` something (None: a continuation), then `lines`."""
    request = SceneRequest.continuation() if said is None else SceneRequest.user_input(said)
    messages = [SceneMessage(speaker=speaker, text=text) for speaker, text in lines]
    return RoundRecord(number=number, request=request, messages=messages, closed=closed)


def a_scene(
    rounds: Sequence[RoundRecord] = (),
    characters: Sequence[str] = ("Ada", "Bo"),
    **fields: object,
) -> SceneRecord:
    states = [CharacterState(name=name) for name in characters]
    return SceneRecord(scene_id="inn", characters=states, rounds=list(rounds), **fields)  # type: ignore[arg-type]


def long_scene(rounds: int, characters: Sequence[str] = ("Ada", "Bo")) -> SceneRecord:
    """`rounds` finished rounds in which each character says one numbered line (past the
    summarising threshold from round 4 on), and an open round after them."""
    played = [
        a_round(n, [(name, f"{name} line {n}.") for name in characters], said=f"Input {n}.")
        for n in range(1, rounds + 1)
    ]
    return a_scene([*played, a_round(rounds + 1, [], said="Now.", closed=False)], characters)
