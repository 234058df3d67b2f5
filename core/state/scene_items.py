"""A directed scene's events in words: the lines a transcript, an export or `agentui run` shows.

One place for the wording, so the app's transcript and the headless printer say the same.
Each scene event that is worth a line gives a `SceneLine` (what kind of line, its title, its
text); the others give None. Text from models and files is copied as it is: whoever shows it
on a terminal passes it through terminal_text.
"""

from __future__ import annotations

import functools
from typing import TYPE_CHECKING, Literal, NamedTuple

from agentui.core.protocol.events_on_use import events_on_first_use

if TYPE_CHECKING:
    from agentui.core.protocol import events as ev
else:
    ev = events_on_first_use(globals())  # the fold's functions load it


@functools.cache
def scene_line_events() -> tuple[type[ev.Event], ...]:
    """The scene events shown as lines (`scene_line`); a function, not a tuple, so that this
    module loads without the events' models."""
    return (
        ev.SceneStarted, ev.RoundStarted, ev.DirectorPassCompleted, ev.CharacterCompleted,
        ev.StateUpdated, ev.CharacterActivated, ev.CharacterDeactivated, ev.RoundCompleted,
    )  # fmt: skip


LineKind = Literal["scene", "line", "error"]


class SceneLine(NamedTuple):
    kind: LineKind  # "line": a character's turn; "scene": the round's bookkeeping
    title: str
    text: str


def scene_line(event: ev.Event) -> SceneLine | None:
    match event:
        case ev.SceneStarted(scene=scene, source=source, continues=continues):
            cast = ", ".join(
                c["name"] + ("" if c.get("active", True) else " (waiting)")
                for c in scene.get("characters", [])
            )
            verb = "goes on" if continues else "begins"
            opening = f"{scene.get('title', source)} {verb}: {cast}"
            premise = _premise(scene)
            return SceneLine("scene", "scene", f"{opening}\n\n{premise}" if premise else opening)
        case ev.RoundStarted(round=number, request=kind, text=text, resumed=resumed):
            said = f"you: {text}" if kind == "user_input" else "the scene goes on by itself"
            again = " (resumed where the session ended)" if resumed else ""
            return SceneLine("scene", f"round {number}", said + again)
        case ev.DirectorPassCompleted(decision=None, director_pass=number, error=error):
            return SceneLine("error", f"director, pass {number}", error or "no decision")
        case ev.DirectorPassCompleted(director_pass=number):
            return SceneLine("scene", f"director, pass {number}", _decision_text(event))
        case ev.CharacterCompleted(name=name, ended="completed", text=text):
            return SceneLine("line", name, text.strip())
        case ev.CharacterCompleted(name=name, ended=ended, error=error):
            return SceneLine("scene", name, f"no turn: {ended}" + (f" ({error})" if error else ""))
        case ev.StateUpdated(character=who, changes=changes, source=source):
            what = "; ".join(f"{key}: {value}" for key, value in changes.items())
            return SceneLine("scene", f"{who or 'world'} ({source})", what)
        case ev.CharacterActivated(name=name, entry_guidance=entry):
            return SceneLine("scene", f"{name} enters", entry or "(no entry guidance)")
        case ev.CharacterDeactivated(name=name, exit_guidance=exit_guidance, by=by):
            if by == "person":
                return SceneLine("scene", f"{name} leaves", "you deleted its agent")
            return SceneLine("scene", f"{name} leaves", exit_guidance or "(no exit guidance)")
        case ev.RoundCompleted(round=number, ended=ended, acted=acted, error=error):
            who = ", ".join(acted) if acted else "no one"
            said = f"{ended}; acted: {who}" + (f" ({error})" if error else "")
            return SceneLine("error" if ended == "failed" else "scene", f"round {number}", said)
        case _:
            return None


def _premise(scene: dict[str, object]) -> str:
    """What the scene is about, as its file says (its scenario, else its description): the
    person reads it before the first round asks them anything."""
    notes = scene.get("notes")
    scene_notes = notes.get("scene") if isinstance(notes, dict) else None
    for text in (
        scene.get("scenario"),
        scene_notes.get("scenario") if isinstance(scene_notes, dict) else None,
        scene.get("description"),
    ):
        if isinstance(text, str) and text.strip():
            return " ".join(text.split())
    return ""


def _decision_text(event: ev.DirectorPassCompleted) -> str:
    parts = []
    for place, turn in enumerate(event.turns, start=1):
        guidance = turn.guidance
        asked = guidance.exit or guidance.entry or guidance.directive or "(no guidance)"
        parts.append(f"{place}. {turn.name}: {asked}")
    if not parts:
        parts.append("no one acts")
    decision = event.decision
    if decision is not None and decision.open_guidance:
        parts.append(f"for everyone: {decision.open_guidance}")
    if event.ignored:
        parts.append(f"ignored: {'; '.join(event.ignored)}")
    return "\n".join(parts)
