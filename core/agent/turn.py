"""Assembling one assistant response from a provider's neutral stream events."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from agentui.core.protocol.conversation import (
    ContentBlock,
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolUseBlock,
)
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    RedactedThinking,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)
from agentui.core.support.growing_text import GrowingText


@dataclass(slots=True)
class ToolCall:
    id: str
    name: str
    arguments: dict[str, Any]
    # Set when the model's argument JSON did not parse; the call then fails with this message.
    argument_error: str | None = None


@dataclass(slots=True)
class AssistantTurn:
    content: list[ContentBlock] = field(default_factory=list)
    tool_calls: list[ToolCall] = field(default_factory=list)
    stop_reason: str | None = None
    usage: Usage = field(default_factory=Usage)

    @property
    def text(self) -> str:
        return "".join(b.text for b in self.content if isinstance(b, TextBlock))

    def to_message(self, *, interrupted: bool = False) -> Message:
        return Message(role="assistant", content=list(self.content), interrupted=interrupted)


class TurnBuilder:
    """Feed it stream events in order; it keeps blocks in the order the model produced them.

    Text arrives in many small pieces: the open block's is a `GrowingText`, so building a long
    answer stays linear and its pieces do not pile up. The partial answer is read from the
    blocks, not kept beside them: a second copy would double what many agents streaming at
    once hold.
    """

    def __init__(self) -> None:
        self._turn = AssistantTurn()
        self._open_kind: str | None = None  # "text" or "thinking" while a block is streaming
        self._open_text = GrowingText()
        self._open_signature: str | None = None
        self.usage_counted = False  # the loop counted this (cut) attempt's tokens already
        self._args: dict[str, list[str]] = {}
        self._names: dict[str, str] = {}

    def feed(self, event: StreamEvent) -> None:
        if type(event) is TextChunk and self._open_kind == "text":
            self._open_text.append(event.text)  # the stream's bulk, past the match's cases
            return
        match event:
            case TextChunk(text=text):
                self._open("text")
                self._open_text.append(text)
            case ThinkingChunk(text=text, signature=signature):
                self._open("thinking")
                self._open_text.append(text)
                if signature:
                    self._open_signature = signature
                    self._close()  # a signature ends its thinking block
            case RedactedThinking(data=data):
                self._close()
                self._turn.content.append(RedactedThinkingBlock(data=data))
            case ToolUseStart(id=call_id, name=name):
                self._close()
                self._args[call_id] = []
                self._names[call_id] = name
            case ToolArgsDelta(id=call_id, partial_json=piece):
                self._args.setdefault(call_id, []).append(piece)
            case ToolUseStop(id=call_id):
                self._finish_tool(call_id)
            case UsageReport(usage=usage):
                self._turn.usage = usage
            case StreamEnd(stop_reason=reason):
                self._turn.stop_reason = reason

    def _open(self, kind: str) -> None:
        if self._open_kind != kind:
            self._close()
            self._open_kind = kind

    def _close(self) -> None:
        if self._open_kind is None:
            return
        joined = self._open_text.value
        if self._open_kind == "text":
            self._turn.content.append(TextBlock(text=joined))
        else:
            self._turn.content.append(
                ThinkingBlock(thinking=joined, signature=self._open_signature)
            )
        self._open_kind, self._open_text, self._open_signature = None, GrowingText(), None

    def _finish_tool(self, call_id: str) -> None:
        raw = "".join(self._args.pop(call_id, [])).strip()
        name = self._names.pop(call_id, "?")
        arguments: dict[str, Any] = {}
        error: str | None = None
        try:
            parsed = json.loads(raw) if raw else {}
            if isinstance(parsed, dict):
                arguments = parsed
            else:
                error = f"arguments must be a JSON object, got {type(parsed).__name__}"
        except json.JSONDecodeError as exc:
            error = f"arguments were not valid JSON ({exc.msg} at position {exc.pos}): {raw[:200]}"
        self._turn.content.append(ToolUseBlock(id=call_id, name=name, input=arguments))
        self._turn.tool_calls.append(ToolCall(call_id, name, arguments, error))

    def finish(self) -> AssistantTurn:
        """The whole turn (call once the stream has ended)."""
        self._close()
        return self._turn

    def partial_text(self) -> str:
        """Every text piece so far, in order (the answer as far as it got)."""
        streaming = self._open_text.value if self._open_kind == "text" else ""
        return self._turn.text + streaming

    @property
    def usage(self) -> Usage:
        """The newest usage the stream reported: what an attempt cut short has cost so far."""
        return self._turn.usage
