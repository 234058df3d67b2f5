"""The Messages API's raw stream events, translated to the neutral ones the loop reads.

AnthropicProvider reads `client.messages.create(stream=True)`: the raw events as the SDK types
them (`message_start`, `content_block_start`, `content_block_delta`, `content_block_stop`,
`message_delta`, `message_stop`; the SDK itself skips `ping` and raises on `error`). Not the
SDK's `messages.stream` helper: it keeps a snapshot of the whole message and adds each delta to
it, a copy of all the text so far per piece (quadratic in the answer's length: at a million
characters it cost four times the rest of the provider, tests/bench/pipeline_profile.py), and
parses a tool call's JSON again at each piece. What we took from it is done here instead, once a
block:

- a tool call's argument JSON (and a server tool's) is checked at its block's end by jiter, the
  SDK's own parser, in the partial mode the helper used: JSON that could not become valid is a
  retryable ProviderError (the model may do better on another attempt), JSON merely cut short
  goes on to the loop, which tells the model its arguments did not parse;
- usage is reported as it grows (at `message_start` and each `message_delta`), not only at the
  end, so an attempt that fails half-way still counts the tokens it cost.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from jiter import from_json

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
from agentui.core.support.errors import ProviderError

# Blocks whose input arrives as `input_json_delta` pieces, checked at their end.
_JSON_INPUT_BLOCKS = frozenset({"tool_use", "server_tool_use"})

BAD_TOOL_JSON = "the model sent tool arguments that are not valid JSON"


@dataclass(slots=True)
class _OpenBlock:
    kind: str  # "text", "thinking", "tool_use", or another type the loop does not model
    tool_id: str = ""
    signature: str = ""
    initial_input: str = ""  # a tool_use that came with its input whole instead of as deltas
    json_pieces: list[str] = field(default_factory=list)  # its input_json_delta pieces


def _check_input_json(block: _OpenBlock) -> None:
    """Raise the retryable error when the block's argument JSON cannot become valid JSON.

    jiter's partial mode accepts JSON cut anywhere (the helper parsed each piece so far that
    way); `json.loads` would refuse a cut-short object, which the loop reports to the model."""
    if not block.json_pieces:
        return
    try:
        from_json("".join(block.json_pieces).encode(), partial_mode=True)
    except ValueError as exc:
        raise ProviderError(BAD_TOOL_JSON, retryable=True) from exc


class StreamTranslator:
    """Feed it the SDK's raw events in order; it returns the neutral events each one makes."""

    def __init__(self) -> None:
        self._blocks: dict[int, _OpenBlock] = {}
        self._usage = Usage()
        self._stop_reason: str | None = None
        self.finished = False  # message_stop arrived: anything less is a cut-off response

    def feed(self, event: Any) -> list[StreamEvent]:
        # Dispatch on the `type` string, not the class: the SDK builds an event of a type it
        # does not know as the first class of its union, with that type string kept.
        kind = event.type
        if kind == "content_block_delta":  # nearly every event: first
            return self._block_delta(event.index, event.delta)
        match kind:
            case "message_start":
                self._start(event.message.usage)
                return [UsageReport(self._usage)]
            case "content_block_start":
                return self._block_start(event.index, event.content_block)
            case "content_block_stop":
                return self._block_stop(event.index)
            case "message_delta":
                self._stop_reason = event.delta.stop_reason or self._stop_reason
                self._update_usage(event.usage)
                return [UsageReport(self._usage)]
            case "message_stop":
                for block in self._blocks.values():  # a block never stopped is checked too
                    _check_input_json(block)
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
            case "input_json_delta" if block.kind in _JSON_INPUT_BLOCKS and delta.partial_json:
                block.json_pieces.append(delta.partial_json)
                if block.kind == "tool_use":
                    return [ToolArgsDelta(block.tool_id, delta.partial_json)]
        return []

    def _block_stop(self, index: int) -> list[StreamEvent]:
        block = self._blocks.pop(index, None)
        if block is None:
            return []
        _check_input_json(block)
        if block.kind == "thinking" and block.signature:
            # An empty chunk carrying the signature closes the block in the TurnBuilder.
            return [ThinkingChunk("", signature=block.signature)]
        if block.kind == "tool_use":
            events: list[StreamEvent] = []
            if not block.json_pieces and block.initial_input:
                events.append(ToolArgsDelta(block.tool_id, block.initial_input))
            events.append(ToolUseStop(block.tool_id))
            return events
        return []
