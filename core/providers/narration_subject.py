"""NarrationSubject: what a narrator request asks to have narrated, as data.

A narrator request (`purpose="narrator"`) carries its subject twice: as prose in its messages,
for a model, and as this value, for a provider that answers from data rather than by reading
prose (the scripted model). Both are written from the same steps, so they always agree.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class StepKind(StrEnum):
    CALL = "call"  # the agent called a tool
    RESULT = "result"  # a tool's result (or failure) came back
    THOUGHT = "thought"
    TEXT = "text"  # text the agent wrote


@dataclass(frozen=True, slots=True)
class Step:
    """One thing the agent did, cut as the request's prose shows it."""

    kind: StepKind
    detail: str = ""  # the arguments, the result, the thought or the text
    tool: str = ""  # for calls and results
    failed: bool = False  # a result that is a failure (an error, a timeout, a rejection)


@dataclass(frozen=True, slots=True)
class NarrationSubject:
    steps: tuple[Step, ...] = ()  # since the narrator's last line, oldest first
    earlier: tuple[str, ...] = ()  # the narrator's earlier lines, oldest first
    may_wait: bool = True  # it may answer "..." to wait for more
    ended: str | None = None  # how the agent's run ended, when this is its closing line
