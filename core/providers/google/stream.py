"""The SDK's streamed chunks (`GenerateContentResponse`), translated to the neutral events the
loop reads.

Each chunk holds the next parts of the first candidate: text, thoughts (`thought: true`) and
function calls, which Gemini sends whole (the name and all the arguments in one part, never in
pieces); two calls in one response are two parts. A part may carry a thought signature: it
follows the part's events as an empty signed thinking chunk (see thought_signature.py).

Usage comes with the chunks as running totals and is reported whenever it grows, so an attempt
cut short still counts what it cost. Gemini's prompt count includes the cached tokens and its
thinking is billed as output: they are split and joined to match our Usage.
"""

from __future__ import annotations

import json

from google.genai import types

from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)
from agentui.core.providers.google import finish, thought_signature
from agentui.core.providers.google.call_ids import new_call_id
from agentui.core.support.errors import ProviderError


def usage_of(metadata: types.GenerateContentResponseUsageMetadata) -> Usage:
    prompt = metadata.prompt_token_count or 0
    cached = metadata.cached_content_token_count or 0
    return Usage(
        input_tokens=prompt - cached + (metadata.tool_use_prompt_token_count or 0),
        output_tokens=(metadata.candidates_token_count or 0) + (metadata.thoughts_token_count or 0),
        cache_read_input_tokens=cached,
    )


class StreamTranslator:
    """Feed it the SDK's chunks in order; it returns the neutral events each one makes. Once
    the chunks end, `end()` says how the response ended (or raises why it failed)."""

    def __init__(self) -> None:
        self._usage = Usage()
        self._finish: types.FinishReason | None = None
        self._finish_message: str | None = None
        self._blocked: ProviderError | None = None
        self._called_functions = False
        self.received = False  # a chunk came: a failure from now on is one mid-response

    def feed(self, chunk: types.GenerateContentResponse) -> list[StreamEvent]:
        self.received = True
        events: list[StreamEvent] = []
        feedback = chunk.prompt_feedback
        if feedback is not None and feedback.block_reason is not None:
            self._blocked = finish.prompt_blocked(
                feedback.block_reason, feedback.block_reason_message
            )
        if chunk.candidates:
            candidate = chunk.candidates[0]  # we ask for one
            if candidate.content is not None:
                for part in candidate.content.parts or []:
                    events += self._part(part)
            if candidate.finish_reason is not None:
                self._finish = candidate.finish_reason
                self._finish_message = candidate.finish_message
        if chunk.usage_metadata is not None:
            usage = usage_of(chunk.usage_metadata)
            if usage != self._usage:
                self._usage = usage
                events.append(UsageReport(usage))
        return events

    def _part(self, part: types.Part) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        if part.function_call is not None:
            call = part.function_call
            call_id = call.id or new_call_id()
            self._called_functions = True
            events += [
                ToolUseStart(call_id, call.name or ""),
                ToolArgsDelta(call_id, json.dumps(call.args or {})),
                ToolUseStop(call_id),
            ]
        elif part.text:
            events.append(ThinkingChunk(part.text) if part.thought else TextChunk(part.text))
        # Other parts (code Gemini ran, inline data) are nothing the loop can show or run.
        if part.thought_signature:
            events.append(
                ThinkingChunk("", signature=thought_signature.to_text(part.thought_signature))
            )
        return events

    def end(self) -> StreamEnd:
        """The end of a response whose chunks all came; raises ProviderError for one Gemini
        blocked or cut off."""
        if self._blocked is not None:
            raise self._blocked
        return StreamEnd(
            finish.stop_reason(
                self._finish, self._finish_message, called_functions=self._called_functions
            )
        )
