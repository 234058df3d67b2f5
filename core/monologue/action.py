"""Action: one thing an agent did, as the monologue buffers it for the narrator.

The bus speaks in fine-grained events (a thinking block arrives as dozens of deltas); the
narrator needs whole steps. An Action is one such step: a tool call, a tool's result, a thought,
or a piece of text the agent wrote.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

# Details are cut when buffered so a failing narrator (whose buffer is kept for the next try)
# never holds an agent's whole tool output in memory. The prompt cuts far shorter still.
MAX_DETAIL_CHARS = 1000


class ActionKind(StrEnum):
    TOOL_CALL = "tool_call"
    TOOL_RESULT = "tool_result"
    THINKING = "thinking"
    TEXT = "text"


@dataclass(frozen=True, slots=True)
class Action:
    kind: ActionKind
    ts: float  # wall-clock seconds, from the event that reported it
    detail: str = ""  # arguments as JSON, the result, the thought or the text
    tool: str = ""  # tool name, for tool calls and results
    is_error: bool = False  # a tool result that is a failure (error, timeout, rejection)

    def __post_init__(self) -> None:
        if len(self.detail) > MAX_DETAIL_CHARS:
            object.__setattr__(self, "detail", self.detail[:MAX_DETAIL_CHARS])

    @property
    def counts(self) -> bool:
        """Whether it counts toward the buffer thresholds.

        Text is the least telling part of an agent's work (the seed passes it through without
        buffering): it is shown to the narrator as context, but never makes a narrative due.
        """
        return self.kind is not ActionKind.TEXT

    @property
    def is_natural_point(self) -> bool:
        """A tool result completes an action: a good moment to ask the narrator."""
        return self.kind is ActionKind.TOOL_RESULT
