"""The message model every provider maps to and from, and the tool-pair-safe sliding window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, PrivateAttr

Role = Literal["system", "user", "assistant"]


class TextBlock(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(defer_build=True)

    type: Literal["text"] = "text"
    text: str


class ThinkingBlock(BaseModel):
    model_config = ConfigDict(defer_build=True)

    type: Literal["thinking"] = "thinking"
    thinking: str
    # Anthropic signs thinking; the signature goes back unchanged or tool use breaks.
    signature: str | None = None


class RedactedThinkingBlock(BaseModel):
    """Thinking the API encrypted. Opaque to us; it goes back verbatim in later requests, or
    multi-turn tool use with thinking is rejected."""

    model_config = ConfigDict(defer_build=True)

    type: Literal["redacted_thinking"] = "redacted_thinking"
    data: str


class ToolUseBlock(BaseModel):
    model_config = ConfigDict(defer_build=True)

    type: Literal["tool_use"] = "tool_use"
    id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolResultBlock(BaseModel):
    model_config = ConfigDict(defer_build=True)

    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str
    content: str
    is_error: bool = False


ContentBlock = Annotated[
    TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock,
    Field(discriminator="type"),
]


class Message(BaseModel):
    model_config = ConfigDict(defer_build=True)

    role: Role
    content: list[ContentBlock]
    # Set on an assistant message cut short by cancel or a failed attempt: kept, never merged.
    interrupted: bool = False

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))

    @property
    def tool_uses(self) -> list[ToolUseBlock]:
        return [b for b in self.content if isinstance(b, ToolUseBlock)]

    @property
    def tool_results(self) -> list[ToolResultBlock]:
        return [b for b in self.content if isinstance(b, ToolResultBlock)]


def user_text(text: str) -> Message:
    return Message(role="user", content=[TextBlock(text=text)])


# Told of every change: keep the first `keep` messages, then add these; new instructions or None.
ConversationListener = Callable[[int, list[Message], str | None], None]


class Conversation(BaseModel):
    """Instructions plus the growing list of messages of one agent, kept across its runs.

    Change it only through its methods: each tells the listener (`watch`) what changed, which
    the runtime publishes as a `conversation:changed` event. A message, once in the list, is
    never changed in place (a note replaces the last user message with a longer copy), so the
    events that carried it stay true.
    """

    model_config = ConfigDict(defer_build=True)

    instructions: str = ""
    messages: list[Message] = Field(default_factory=list)
    _listener: ConversationListener | None = PrivateAttr(default=None)

    def watch(self, listener: ConversationListener | None) -> None:
        self._listener = listener

    def set_instructions(self, instructions: str) -> None:
        if instructions != self.instructions:
            self.instructions = instructions
            self._changed(len(self.messages), [], instructions)

    def append(self, message: Message) -> None:
        self.messages.append(message)
        self._changed(len(self.messages) - 1, [message])

    def add_user_note(self, text: str) -> None:
        """Attach text to the next user turn: into a trailing user message, else as a new one."""
        if self.messages and self.messages[-1].role == "user":
            last = self.messages[-1]
            longer = last.model_copy(update={"content": [*last.content, TextBlock(text=text)]})
            self.messages[-1] = longer
            self._changed(len(self.messages) - 1, [longer])
        else:
            self.append(user_text(text))

    def replace_task(self, content: str) -> None:
        """Swap the task text (the first user text) for new content; notes beside it stay."""
        for index, message in enumerate(self.messages):
            if message.role == "user" and not message.tool_results:
                for position, block in enumerate(message.content):
                    if isinstance(block, TextBlock):
                        blocks = list(message.content)
                        blocks[position] = TextBlock(text=content)
                        self.messages[index] = message.model_copy(update={"content": blocks})
                        self._changed(index, self.messages[index:])
                        return
        self.messages.insert(0, user_text(content))
        self._changed(0, list(self.messages))

    def apply_change(self, keep: int, append: list[Message], instructions: str | None) -> None:
        """Take a change as a listener was told it (a fold rebuilding the conversation)."""
        if instructions is not None:
            self.instructions = instructions
        del self.messages[keep:]
        self.messages.extend(append)

    def _changed(self, keep: int, append: list[Message], instructions: str | None = None) -> None:
        if self._listener is not None:
            self._listener(keep, list(append), instructions)


def _orphan_free_starts(messages: list[Message], offset: int) -> list[bool]:
    """safe[i] is True when messages[i:] holds no tool_result whose tool_use lies before i."""
    n = len(messages)
    safe = [True] * (n + 1)
    pending_results: set[str] = set()  # results seen in the suffix whose use is not yet seen
    for i in range(n - 1, offset - 1, -1):
        message = messages[i]
        for block in message.content:
            if isinstance(block, ToolResultBlock):
                pending_results.add(block.tool_use_id)
        for block in message.content:
            if isinstance(block, ToolUseBlock):
                pending_results.discard(block.id)
        safe[i] = not pending_results
    return safe


def sliding_window(messages: list[Message], max_messages: int) -> list[Message]:
    """The newest messages that fit in `max_messages`, cut only where it is safe.

    - A leading system message is always kept (it counts toward the limit).
    - The kept tail never starts with a tool_result whose tool_use was cut away, so a
      tool_use is never separated from its tool_result.
    - When no safe cut fits the limit, correctness wins: the shortest safe tail is kept.
    """
    if max_messages < 1:
        raise ValueError("max_messages must be at least 1")
    if len(messages) <= max_messages:
        return list(messages)
    head = [messages[0]] if messages[0].role == "system" else []
    offset = len(head)
    budget = max(max_messages - offset, 1)
    safe = _orphan_free_starts(messages, offset)
    target = max(len(messages) - budget, offset)
    start = next((i for i in range(target, len(messages)) if safe[i]), None)
    if start is None:
        start = next((i for i in range(target - 1, offset - 1, -1) if safe[i]), offset)
    return head + messages[start:]
