"""The kind of question a directed scene asks the person before each round.

Front ends know it (tui/app/widgets/blocks.py): for this question, enter with nothing typed is an
answer (the scene goes on by itself), not a decline. A module of its own, loaded by the app
at start without any of the scene's machinery.
"""

from __future__ import annotations

QUESTION_KIND = "scene"
# Question kinds that enter with nothing typed answers (with "") instead of declining.
EMPTY_IS_AN_ANSWER = frozenset({QUESTION_KIND})


def answer_of(kind: str, words: str) -> str | None:
    """What the person's words answer to a question of `kind`: None declines it."""
    return words if words or kind in EMPTY_IS_AN_ANSWER else None
