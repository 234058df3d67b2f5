"""The SDK's stream events, translated to the neutral ones the loop reads.

`client.messages.stream()` yields the raw events (`message_start`, `content_block_*`,
`message_delta`, `message_stop`) and, after each delta, a helper event repeating it (`text`,
`thinking`, `input_json`, `signature`, `citation`). Only the raw ones are read; the helpers would
count every piece twice.

Usage is reported as it grows (at `message_start` and each `message_delta`), not only at the
end, so an attempt that fails half-way still counts the tokens it cost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

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


@dataclass(slots=True)
class _OpenBlock:
    kind: str  # "text", "thinking", "tool_use", or another type the loop does not model
    tool_id: str = ""
    signature: str = ""
    initial_input: str = ""  # a tool_use that came with its input whole instead of as deltas
    got_args: bool = False


class StreamTranslator:
    """Feed it the SDK's events in order; it returns the neutral events each one makes."""

    def __init__(self) -> None:
        self._blocks: dict[int, _OpenBlock] = {}
        self._usage = Usage()
        self._stop_reason: str | None = None
        self.finished = False  # message_stop arrived: anything less is a cut-off response

    def feed(self, event: Any) -> list[StreamEvent]:
        match event.type:
            case "message_start":
                self._start(event.message.usage)
                return [UsageReport(self._usage)]
            case "content_block_start":
                return self._block_start(event.index, event.content_block)
            case "content_block_delta":
                return self._block_delta(event.index, event.delta)
            case "content_block_stop":
                return self._block_stop(event.index)
            case "message_delta":
                self._stop_reason = event.delta.stop_reason or self._stop_reason
                self._update_usage(event.usage)
                return [UsageReport(self._usage)]
            case "message_stop":
                self.finished = True
                return [StreamEnd(self._stop_reason or "end_turn")]
        return []

    # -- usage ---------------------------------------------------------------------------

    def _start(self, usage: Any) -> None:
        self._usage = Usage(
            input_tokens=usage.input_tokens or 0,
            output_tokens=usage.output_tokens or 0,
            cache_creation_input_tokens=usage.cache_creation_input_tokens or 0,
            cache_read_input_tokens=usage.cache_read_input_tokens or 0,
        )

    def _update_usage(self, usage: Any) -> None:
        # message_delta counts are cumulative; the optional ones are absent when unchanged.
        changes: dict[str, int] = {"output_tokens": usage.output_tokens}
        for name in ("input_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"):
            value = getattr(usage, name, None)
            if value is not None:
                changes[name] = value
        self._usage = self._usage.model_copy(update=changes)

    # -- content blocks ------------------------------------------------------------------

    def _block_start(self, index: int, block: Any) -> list[StreamEvent]:
        match block.type:
            case "text":
                self._blocks[index] = _OpenBlock("text")
                return [TextChunk(block.text)] if block.text else []
            case "thinking":
                self._blocks[index] = _OpenBlock("thinking", signature=block.signature or "")
                return [ThinkingChunk(block.thinking)] if block.thinking else []
            case "tool_use":
                initial = json.dumps(block.input) if block.input else ""
                self._blocks[index] = _OpenBlock(
                    "tool_use", tool_id=block.id, initial_input=initial
                )
                return [ToolUseStart(block.id, block.name)]
            case "redacted_thinking":
                # It comes whole, with no deltas; it must go back exactly as it came.
                self._blocks[index] = _OpenBlock("redacted_thinking")
                return [RedactedThinking(block.data)]
        # Server tools and their results: nothing the loop can show or run.
        self._blocks[index] = _OpenBlock(block.type)
        return []

    def _block_delta(self, index: int, delta: Any) -> list[StreamEvent]:
        block = self._blocks.get(index)
        if block is None:
            return []
        match delta.type:
            case "text_delta" if block.kind == "text":
                return [TextChunk(delta.text)] if delta.text else []
            case "thinking_delta" if block.kind == "thinking":
                return [ThinkingChunk(delta.thinking)] if delta.thinking else []
            case "signature_delta" if block.kind == "thinking":
                block.signature = delta.signature
            case "input_json_delta" if block.kind == "tool_use" and delta.partial_json:
                block.got_args = True
                return [ToolArgsDelta(block.tool_id, delta.partial_json)]
        return []

    def _block_stop(self, index: int) -> list[StreamEvent]:
        block = self._blocks.pop(index, None)
        if block is None:
            return []
        if block.kind == "thinking" and block.signature:
            # An empty chunk carrying the signature closes the block in the TurnBuilder.
            return [ThinkingChunk("", signature=block.signature)]
        if block.kind == "tool_use":
            events: list[StreamEvent] = []
            if not block.got_args and block.initial_input:
                events.append(ToolArgsDelta(block.tool_id, block.initial_input))
            events.append(ToolUseStop(block.tool_id))
            return events
        return []
