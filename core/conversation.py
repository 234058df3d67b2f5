"""The message model every provider maps to and from, and the tool-pair-safe sliding window."""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

Role = Literal["system", "user", "assistant"]


class TextBlock(BaseModel):
    type: Literal["text"] = "text"
    text: str


class ThinkingBlock(BaseModel):
    type: Literal["thinking"] = "thinking"
    thinking: str
    # Anthropic signs thinking; the signature goes back unchanged or tool use breaks.
    signature: str | None = None


class RedactedThinkingBlock(BaseModel):
    """Thinking the API encrypted. Opaque to us; it goes back verbatim in later requests, or
    multi-turn tool use with thinking is rejected."""

    type: Literal["redacted_thinking"] = "redacted_thinking"
    data: str


class ToolUseBlock(BaseModel):
    type: Literal["tool_use"] = "tool_use"
    id: str
    name: str
    input: dict[str, Any] = Field(default_factory=dict)


class ToolResultBlock(BaseModel):
    type: Literal["tool_result"] = "tool_result"
    tool_use_id: str
    content: str
    is_error: bool = False


ContentBlock = Annotated[
    TextBlock | ThinkingBlock | RedactedThinkingBlock | ToolUseBlock | ToolResultBlock,
    Field(discriminator="type"),
]


class Message(BaseModel):
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


class Conversation(BaseModel):
    """Instructions plus the growing list of messages of one agent, kept across its runs."""

    instructions: str = ""
    messages: list[Message] = Field(default_factory=list)

    def append(self, message: Message) -> None:
        self.messages.append(message)

    def add_user_note(self, text: str) -> None:
        """Attach text to the next user turn: into a trailing user message, else as a new one."""
        if self.messages and self.messages[-1].role == "user":
            self.messages[-1].content.append(TextBlock(text=text))
        else:
            self.messages.append(user_text(text))

    def replace_task(self, content: str) -> None:
        """Swap the task text (the first user text) for new content; notes beside it stay."""
        for message in self.messages:
            if message.role == "user" and not message.tool_results:
                for index, block in enumerate(message.content):
                    if isinstance(block, TextBlock):
                        message.content[index] = TextBlock(text=content)
                        return
        self.messages.insert(0, user_text(content))


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
