"""The offline demo of a directed scene: the director's JSON, the characters' turns, the world.

Answers from what the request declares as data (`request.scene`, the call's place in the scene)
and its response schema, never from the round's wording. Deterministic from the cue, varied
from round to round:

- director, pass 1: the active characters in an order that turns with the round; in odd rounds
  one of them is left for later (so pass 2 has someone to call); a character named in the
  person's words acts first; in round 2, or when the person names one, a character not in the
  scene is brought in; from round 4 on, every third round, someone leaves; moods shift;
- director, pass 2: whoever is in the scene and has not acted yet acts now;
- a character: enters or leaves as guided, answers the person or the last speaker, and says
  what it will do (its intentions), with gestures the state heuristics can read; the
  director's guidance shapes the turn but is never read out, and no two characters say the
  same line in a round;
- the world agent: the tension of the scene, a step past the director's.

A director whose schema is not the built-in's shape gets a value filled from its schema.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence

from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scene_cue import CueCharacter, SceneCue
from agentui.core.providers.scripted.sample_args import sample_value
from agentui.core.providers.scripted.script import Turn

DIRECTOR_KEYS = frozenset(
    {"acting_characters", "activations", "deactivations", "state_updates", "open_guidance"}
)
MOODS = ("curious", "wary", "amused", "tense", "hopeful", "resolute", "uneasy", "warm")
TENSION = ("low", "rising", "high", "easing")
GESTURES = (
    ("smiles", "amused"),
    ("frowns", "displeased"),
    ("hesitates", "uncertain"),
    ("leans in", "curious"),
    ("sighs", "weary"),
)


def _rng(cue: SceneCue, *extra: object) -> random.Random:
    key = f"{cue.round_number}:{cue.director_pass}:{cue.speaker}:{cue.request}:{extra}"
    return random.Random(key)  # a str seed is hashed (sha512): the same in every run


def _short(text: str, limit: int = 70) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1].rstrip() + "…"


def _named(cue: SceneCue, characters: Sequence[CueCharacter]) -> list[CueCharacter]:
    words = cue.request.lower()
    return [c for c in characters if c.name.lower() in words]


def scene_turn(request: ProviderRequest) -> Turn:
    cue = request.scene
    assert cue is not None
    if cue.role == "character":
        return Turn(text=_character_text(cue))
    if cue.role == "world":
        value: object = {
            # A step past the director's: the round raised the stakes.
            "world_updates": [{"key": "tension", "value": TENSION[(cue.round_number + 1) % 4]}]
        }
    else:
        schema = request.response_schema or {}
        properties = set(schema.get("properties", {}))
        if schema and not properties >= DIRECTOR_KEYS:
            value = sample_value(schema)  # a scene's own director shape
        elif cue.director_pass <= 1:
            value = _first_pass(cue)
        else:
            value = _reconciliation(cue)
    return Turn(text=json.dumps(value, ensure_ascii=False, indent=2))


# -- the director ------------------------------------------------------------------------------


def _guidance(cue: SceneCue, character: CueCharacter, rng: random.Random) -> str:
    aim = character.intentions or "what you came here for"
    if cue.request:
        said = _short(cue.request, 50)
        options = (
            f"Answer the person's “{said}” your own way; your aim stays: {aim}.",
            f"React to “{said}” first, then push on: {aim}.",
            f"Take the person's words seriously without giving up your aim: {aim}.",
        )
    else:
        options = (
            f"Move things on; your aim: {aim}.",
            f"Press the others; your aim: {aim}.",
            f"Show, without saying it outright, what you want: {aim}.",
        )
    return rng.choice(options)


def _first_pass(cue: SceneCue) -> dict[str, object]:
    rng = _rng(cue)
    active = [c for c in cue.characters if c.active]
    waiting = [c for c in cue.characters if not c.active]
    named = _named(cue, cue.characters)
    shift = (cue.round_number - 1) % max(len(active), 1)
    turning = active[shift:] + active[:shift]
    # Who the person named speaks first.
    turning.sort(key=lambda c: c not in named)
    keep = len(turning) - 1 if cue.round_number % 2 == 1 and len(turning) > 1 else len(turning)
    acting = turning[:keep]
    activations = []
    entering = [c for c in waiting if c in named] or (waiting[:1] if cue.round_number == 2 else [])
    state_updates = []
    for character in entering[:1]:
        place = acting[0].location if acting and acting[0].location else "the scene"
        state_updates.append(
            {"name": character.name, "location": place, "activity": "catching their breath"}
        )
        activations.append(
            {
                "name": character.name,
                "entry_guidance": f"Arrive at {place}. What brings you: {character.intentions or 'a reason of your own'}.",
            }
        )
    deactivations = []
    if cue.round_number >= 4 and cue.round_number % 3 == 1 and len(active) > 2:
        leaving = turning[-1]
        deactivations.append(
            {
                "name": leaving.name,
                "exit_guidance": "Leave with a reason that fits your intentions; say where you are going.",
            }
        )
    if acting:
        mood = rng.choice([m for m in MOODS if m != acting[0].mood])
        state_updates.append({"name": acting[0].name, "mood": mood})
    focus = (
        f"the person's “{_short(cue.request, 50)}”" if cue.request else "what each of them wants"
    )
    return {
        "acting_characters": [
            {"name": c.name, "guidance": _guidance(cue, c, rng), "priority": rank}
            for rank, c in enumerate(acting, start=1)
        ],
        "activations": activations,
        "deactivations": deactivations,
        "state_updates": state_updates,
        "world_updates": [{"key": "tension", "value": TENSION[cue.round_number % 4]}],
        "open_guidance": f"Round {cue.round_number}: keep the scene on {focus}; short turns.",
    }


def _reconciliation(cue: SceneCue) -> dict[str, object]:
    rng = _rng(cue, "reconcile")
    remaining = [c for c in cue.characters if c.active and not c.acted]
    speaker = cue.last_line[0] if cue.last_line is not None else "the others"
    return {
        "acting_characters": [
            {
                "name": c.name,
                "guidance": rng.choice(
                    (
                        f"You have not spoken yet this round: answer {speaker}.",
                        f"Step in now and take a side in what {speaker} started.",
                    )
                ),
                "priority": rank,
            }
            for rank, c in enumerate(remaining, start=1)
        ],
        "activations": [],
        "deactivations": [],
        "state_updates": [],
        "world_updates": [],
        "open_guidance": (
            f"Let {', '.join(c.name for c in remaining)} have their say, then close the round."
            if remaining
            else "Everyone has acted: close the round."
        ),
    }


# -- a character -------------------------------------------------------------------------------

REPLIES = (
    "Not yet. Not like this.",
    "Maybe you're right. I don't like it, but maybe.",
    "Say that again, slowly.",
    "We've been here before, and it ended badly.",
    "Then we do it together, or not at all.",
    "You're asking the wrong person.",
)
TO_THE_PERSON = (
    "*{name} weighs your words: “{said}”* “All right. But we do it my way.”",
    "*{name} repeats it under their breath: “{said}”* “That changes things.”",
    "“{said}” *{name} shakes their head.* “You don't know what you're asking.”",
)
# The character's own intentions (from the scene), in its own words: each a phrasing the
# state heuristics read as an intention.
INTENTIONS = (
    "“I'll {aim}.”",
    "“Say what you like. I mean to {aim}.”",
    "“Nothing has changed for me: I intend to {aim}.”",
)


def _character_text(cue: SceneCue) -> str:
    """A character's turn. Its lines are picked by its place in the cast and the round, so no
    two characters say the same line in a round and one character's lines change from round to
    round. The director's guidance steers the turn but is never read out: it is a note to the
    actor, not a line."""
    rng = _rng(cue, "turn")
    me = next((c for c in cue.characters if c.name == cue.speaker), None)
    name = cue.speaker or "Someone"
    place = cue.characters.index(me) if me is not None else 0
    turn = cue.round_number + place
    aim = (me.intentions if me is not None and me.intentions else "see this through").rstrip(".")
    gesture, _ = rng.choice(GESTURES)
    parts: list[str] = []
    if cue.entry:
        parts.append(f"*{name} comes in from outside and {gesture}.*")
    elif me is not None and me.activity:
        parts.append(f"*{name} looks up from {me.activity} and {gesture}.*")
    else:
        parts.append(f"*{name} {gesture}.*")
    if cue.request:
        said = _short(cue.request, 60)
        parts.append(TO_THE_PERSON[turn % len(TO_THE_PERSON)].format(name=name, said=said))
    if cue.last_line is not None and cue.last_line[0] != name:
        parts.append(f"*{name} turns to {cue.last_line[0]}.* “{REPLIES[turn % len(REPLIES)]}”")
    if cue.exit:
        parts.append(
            f"“I'm going to leave you to it.” *{name} walks to the door and steps outside.*"
        )
    else:
        parts.append(INTENTIONS[turn % len(INTENTIONS)].format(aim=aim))
    return "\n\n".join(parts)
