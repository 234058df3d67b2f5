"""Inferring a character's state changes from its turn's text.

A character answers in prose; what it says and does often changes its state: it walks to the
harbour, puts on a coat, smiles, says what it will do next. These heuristics read such phrases
and propose changes. They are hints: the round applies them only to fields the director did
not set this round, and the director's next pass overrides them (reconciliation.py).

Each field takes the LAST match in the text (the state the turn ends in). Nothing is invented:
no phrase, no change.
"""

from __future__ import annotations

import re

# Cue words -> the mood they show. Matched as whole words, any case.
MOOD_CUES: dict[str, tuple[str, ...]] = {
    "amused": ("smiles", "smiled", "smiling", "grins", "grinned", "laughs", "laughed", "chuckles"),
    "displeased": ("frowns", "frowned", "scowls", "scowled", "grimaces"),
    "weary": ("sighs", "sighed", "yawns", "rubs her eyes", "rubs his eyes", "rubs their eyes"),
    "afraid": ("trembles", "trembled", "flinches", "flinched", "shivers", "shudders"),
    "angry": ("shouts", "shouted", "snaps", "snapped", "slams", "slammed", "glares"),
    "uncertain": ("hesitates", "hesitated", "falters", "frowns slightly"),
    "sad": ("weeps", "wept", "cries", "sobs", "tears up"),
    "relieved": ("relieved", "exhales", "relaxes"),
    "curious": ("leans in", "leans closer", "tilts her head", "tilts his head", "wonders"),
    "determined": ("squares her shoulders", "squares his shoulders", "sets her jaw", "nods firmly"),
}

_END = r"(?=[.,;:!?\"”*)]|\s+(?:and|to|with|as|where|while|before|after)\b|$)"
_PHRASE = r"[a-z][a-z0-9' -]{1,40}?"

_LOCATION = re.compile(
    r"\b(?:walks|walked|goes|went|heads|headed|steps|stepped|moves|moved|climbs|climbed|"
    r"hurries|hurried|returns|returned|crosses|crossed|comes|came|runs|ran|wanders|wandered)"
    r"\s+(?:back\s+|over\s+|up\s+|down\s+)?(?:into|to|towards|toward|onto)\s+"
    rf"((?:the|a|an|her|his|their)\s+{_PHRASE}){_END}"
    rf"|\benters\s+((?:the|a|an)\s+{_PHRASE}){_END}"
    r"|\b(?:steps|goes|went|heads|walks)\s+(outside|inside|upstairs|downstairs)\b",
    re.IGNORECASE,
)
_CLOTHING = re.compile(
    r"\b(?:puts on|pulls on|slips into|changes into|shrugs on|buttons up|wraps herself in|"
    r"wraps himself in|wraps themself in)\s+"
    rf"((?:a|an|the|her|his|their|my)\s+{_PHRASE}){_END}",
    re.IGNORECASE,
)
_ACTIVITY = re.compile(
    r"\b(?:starts|started|begins|began|keeps|kept|goes on|went on|continues|continued)\s+"
    r"(\w+ing(?:\s+(?:the|a|an|her|his|their|my|to|at|on|with|over)?\s*[a-z][a-z'-]*){0,3})"
    rf"{_END}",
    re.IGNORECASE,
)
_INTENTION = re.compile(
    r"\b(?:I'll|I will|I'm going to|I am going to|I mean to|I intend to|I have to|I need to|"
    r"intends to|means to|resolves to|decides to|plans to)\s+([^.!?\"”*\n]{3,80})",
    re.IGNORECASE,
)


def infer_changes(text: str) -> dict[str, str]:
    """State changes the text suggests, by field (location, mood, clothing, activity,
    intentions); only the fields it gives evidence for."""
    changes: dict[str, str] = {}
    location = _last(_LOCATION, text)
    if location:
        changes["location"] = location
    mood = _mood(text)
    if mood:
        changes["mood"] = mood
    clothing = _last(_CLOTHING, text)
    if clothing:
        changes["clothing"] = clothing
    activity = _last(_ACTIVITY, text)
    if activity:
        changes["activity"] = activity
    intention = _last(_INTENTION, text)
    if intention:
        changes["intentions"] = intention
    return changes


def _last(pattern: re.Pattern[str], text: str) -> str:
    found = ""
    for match in pattern.finditer(text):
        found = next(group for group in match.groups() if group)
    return " ".join(found.split()).strip(" ,;:-") if found else ""


def _mood(text: str) -> str:
    """The mood whose cue comes last in the text."""
    lowered = text.lower()
    best, where = "", -1
    for mood, cues in MOOD_CUES.items():
        for cue in cues:
            for match in re.finditer(rf"\b{re.escape(cue)}\b", lowered):
                if match.start() > where:
                    best, where = mood, match.start()
    return best
