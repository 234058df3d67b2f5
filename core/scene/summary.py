"""Summaries: a round that left the history window becomes a few bullets, once.

The summariser is any async callable from a round to its bullets, so a model (the narrator)
can write them later; the offline default makes them from the messages themselves: the
person's request, then each speaker's opening words, the same every time.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence

from agentui.core.scene.record import RoundRecord
from agentui.core.scene.tokens import CharacterCounter
from agentui.core.scene.truncation import CUT_MARK, cut_text

Summariser = Callable[[RoundRecord], Awaitable[list[str]]]

BULLET_CHARS = 160  # of one speaker's words, in an offline bullet


async def summarise_offline(round_record: RoundRecord) -> list[str]:
    request = round_record.request
    if request.kind == "user_input":
        bullets = [f"The person: {_opening(request.text)}"]
    else:
        bullets = ["The person let the scene continue."]
    bullets += [f"{m.speaker}: {_opening(m.text)}" for m in round_record.messages if m.text.strip()]
    return bullets


def _opening(text: str) -> str:
    """The first sentences that fit BULLET_CHARS, on one line (a longer first word is sliced)."""
    flat = " ".join(text.split())
    return cut_text(flat, BULLET_CHARS, CharacterCounter()) or f"{flat[:BULLET_CHARS]} {CUT_MARK}"


async def summarise_rounds(rounds: Sequence[RoundRecord], summariser: Summariser) -> None:
    """Write the bullets of each of `rounds` that has none yet, in order."""
    for round_record in rounds:
        if round_record.summary is None:
            round_record.summary = list(await summariser(round_record))
