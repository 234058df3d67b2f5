"""What the round says to its agents and to the person, beside the envelope.

An agent's task is one line saying what is asked of it now (the tree shows it), then the
rendered envelope. The agents' standing instructions are their profiles'.
"""

from __future__ import annotations

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.scene.record import SceneRequest

DIRECTOR_FIRST = (
    "Round {round}, pass 1: decide who acts this round and how, who enters or leaves, and "
    "what changes, before anyone acts."
)
DIRECTOR_RECONCILE = (
    "Round {round}, pass {director_pass} (reconciliation): the characters have acted. List "
    "in acting_characters only those who still have to act this round (none: the round "
    "closes), activate only who must enter now, and correct any state the turns changed."
)
CHARACTER_TURN = "{name}, round {round}: {ask}"
CHARACTER_DEFAULT_ASK = "your turn; act as your character would now."
WORLD_TURN = (
    "Round {round} is over: say which world facts it changed, and any new fact it made true."
)

# Asked in the app and by `agentui run` alike: it names no key.
NEXT_ROUND = (
    "Round {round} of {title}: what do you say or do? Send nothing to let the scene go on "
    "by itself; cancel the scene to end it."
)
ROUND_TASK_INPUT = "Round {round}: {text}"
ROUND_TASK_CONTINUATION = "Round {round}: the scene goes on"


def director_task(round_number: int, director_pass: int, envelope: str) -> str:
    template = DIRECTOR_FIRST if director_pass == 1 else DIRECTOR_RECONCILE
    heading = template.format(round=round_number, director_pass=director_pass)
    return f"{heading}\n\n{envelope}"


def character_task(name: str, round_number: int, guidance: CharacterGuidance, envelope: str) -> str:
    ask = guidance.exit or guidance.entry or guidance.directive or CHARACTER_DEFAULT_ASK
    heading = CHARACTER_TURN.format(name=name, round=round_number, ask=" ".join(ask.split()))
    return f"{heading}\n\n{envelope}"


def world_task(round_number: int, envelope: str) -> str:
    return f"{WORLD_TURN.format(round=round_number)}\n\n{envelope}"


def round_task(round_number: int, request: SceneRequest) -> str:
    if request.kind == "user_input":
        return ROUND_TASK_INPUT.format(round=round_number, text=request.text)
    return ROUND_TASK_CONTINUATION.format(round=round_number)


def next_round_question(round_number: int, title: str) -> str:
    return NEXT_ROUND.format(round=round_number, title=title)
