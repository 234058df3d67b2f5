"""What the person asked of an agent that it has not acted on yet, each as one value.

- StopRequest: the agent's current run is to end (cancelled, or deleted), and why.
- Modification: new instructions and/or task content for its next model call.
- Note: a message (a steer, a word about a deleted subagent) for its next model call.
"""

from __future__ import annotations

from dataclasses import dataclass

from agentui.core.protocol.conversation import Conversation
from agentui.core.protocol.intervention_kinds import ModifiedPart
from agentui.core.protocol.person_words import FROM_THE_PERSON


@dataclass(frozen=True, slots=True)
class StopRequest:
    reason: str  # the first reason given: the one the agent's end reports
    delete: bool = False  # end as deleted, not cancelled

    def also(self, *, delete: bool) -> StopRequest:
        """The same request asked again: the first reason stays; a delete, once asked, stays."""
        return self if self.delete or not delete else StopRequest(self.reason, True)


@dataclass(frozen=True, slots=True)
class Modification:
    instructions: str | None = None
    content: str | None = None  # the task text

    def then(self, later: Modification) -> Modification:
        """This modification with a later one on top (what the later one sets wins)."""
        return Modification(
            later.instructions if later.instructions is not None else self.instructions,
            later.content if later.content is not None else self.content,
        )

    @property
    def parts(self) -> list[ModifiedPart]:
        parts: list[ModifiedPart] = []
        if self.instructions is not None:
            parts.append("instructions")
        if self.content is not None:
            parts.append("task")
        return parts

    def apply_to(self, conversation: Conversation) -> None:
        if self.instructions is not None:
            conversation.set_instructions(self.instructions)
        if self.content is not None:
            conversation.replace_task(self.content)


@dataclass(frozen=True, slots=True)
class Note:
    id: str
    text: str  # as the model reads it

    @classmethod
    def of(cls, note_id: str, text: str, *, from_person: bool) -> Note:
        """A queued note as the model will read it: it is told whose words a steer is (the
        `note:queued` event keeps them as typed)."""
        return cls(note_id, FROM_THE_PERSON + text if from_person else text)
