"""Chat Completions chunks, translated to the neutral stream events the loop reads.

A chunk's `choices[0].delta` carries text (`content`), reasoning (`reasoning_content` from
vLLM, llama.cpp and DeepSeek; `reasoning` from Ollama, OpenRouter and newer vLLM), a refusal,
and tool calls. A tool call comes in pieces keyed by `index`: the first names its id and
function, the rest add to its arguments' JSON text; several calls (parallel tool calls) each
have their own index. `finish_reason` comes on the last chunk with choices; the usage (asked
for with `stream_options`) on a chunk after it with no choices.

What the finish reason means for the run:
    stop            the answer is complete ("end_turn")
    tool_calls      run the tools and go on ("tool_use")
    length          the answer was cut at the token limit: kept as it is ("max_tokens"), as
                    on Claude; a tool call it cut short fails with its arguments' JSON error
    content_filter  the server withheld the rest: a ProviderError, not retried
and a refusal (OpenAI's structured output) is a ProviderError quoting it, not retried. A stream
that ends without a finish reason was cut off: a retryable ProviderError.
"""

from __future__ import annotations

import secrets
from dataclasses import dataclass, field
from typing import Any

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
from agentui.core.support.errors import ProviderError

STOP_REASONS = {
    "stop": "end_turn",
    "tool_calls": "tool_use",
    "function_call": "tool_use",  # the deprecated single-function form; some servers send it
    "length": "max_tokens",
}
CONTENT_FILTERED = "the server's content filter withheld the rest of the response"
CUT_OFF = "the response ended before it was complete"


@dataclass(slots=True)
class _Call:
    """One tool call being streamed: started once its name is known."""

    id: str = ""
    name: str = ""
    pending: list[str] = field(default_factory=list)  # argument pieces before the start
    started: bool = False


def usage_of(usage: Any) -> Usage:
    """OpenAI's usage in our terms: cached prompt tokens are cache reads, the rest input.
    Reasoning tokens are part of `completion_tokens` (and billed as output)."""
    details = getattr(usage, "prompt_tokens_details", None)
    cached = getattr(details, "cached_tokens", None) or 0
    prompt = getattr(usage, "prompt_tokens", None) or 0
    return Usage(
        input_tokens=max(prompt - cached, 0),
        output_tokens=getattr(usage, "completion_tokens", None) or 0,
        cache_read_input_tokens=cached,
    )


class ChunkTranslator:
    """Feed it the SDK's chunks in order, then call `end()` once the stream ran out."""

    def __init__(self) -> None:
        self._calls: dict[int, _Call] = {}
        self._refusal: list[str] = []
        self.finish_reason: str | None = None

    def feed(self, chunk: Any) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        for choice in getattr(chunk, "choices", None) or []:
            if getattr(choice, "index", 0) not in (0, None):
                continue  # one choice is asked for (n=1); another would be a server's extra
            delta = getattr(choice, "delta", None)
            if delta is not None:
                events += self._delta(delta)
            if getattr(choice, "finish_reason", None):
                self.finish_reason = choice.finish_reason
                events += self._close_calls()
        usage = getattr(chunk, "usage", None)
        if usage is not None:
            events.append(UsageReport(usage_of(usage)))
        return events

    def end(self) -> list[StreamEvent]:
        """The events that close the response; raises ProviderError for one that failed."""
        if self.finish_reason is None:
            raise ProviderError(CUT_OFF, retryable=True)
        if self._refusal:
            raise ProviderError(f"the model refused: {''.join(self._refusal)}")
        if self.finish_reason == "content_filter":
            raise ProviderError(CONTENT_FILTERED)
        return [StreamEnd(STOP_REASONS.get(self.finish_reason, self.finish_reason))]

    # -- one delta -----------------------------------------------------------------------

    def _delta(self, delta: Any) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        # A server sends one of the two names (vLLM sent both for a while: the older wins).
        reasoning = getattr(delta, "reasoning_content", None) or getattr(delta, "reasoning", None)
        if isinstance(reasoning, str) and reasoning:
            events.append(ThinkingChunk(reasoning))
        content = getattr(delta, "content", None)
        if content:
            events.append(TextChunk(content))
        refusal = getattr(delta, "refusal", None)
        if refusal:
            self._refusal.append(refusal)
        for call in getattr(delta, "tool_calls", None) or []:
            events += self._tool_delta(call)
        return events

    def _index_of(self, call: Any) -> int:
        index = getattr(call, "index", None)
        if isinstance(index, int):
            return index
        # A server that leaves the index out: a new id starts a new call, else the last goes on.
        call_id = getattr(call, "id", None)
        known = {entry.id for entry in self._calls.values()}
        if not self._calls or (call_id and call_id not in known):
            return len(self._calls)
        return max(self._calls)

    def _tool_delta(self, call: Any) -> list[StreamEvent]:
        entry = self._calls.setdefault(self._index_of(call), _Call())
        call_id = getattr(call, "id", None)
        if call_id and not entry.id:
            entry.id = call_id
        function = getattr(call, "function", None)
        name = getattr(function, "name", None)
        if name and not entry.started:
            entry.name = name
        events: list[StreamEvent] = []
        if entry.name and not entry.started:
            events += self._start(entry)
        arguments = getattr(function, "arguments", None)
        if arguments:
            if entry.started:
                events.append(ToolArgsDelta(entry.id, arguments))
            else:
                entry.pending.append(arguments)
        return events

    @staticmethod
    def _start(entry: _Call) -> list[StreamEvent]:
        entry.started = True
        # A server that gives no id (some local ones): one of ours, unique enough to pair the
        # result with its call for the rest of the conversation.
        entry.id = entry.id or f"call_{secrets.token_hex(8)}"
        events: list[StreamEvent] = [ToolUseStart(entry.id, entry.name)]
        if entry.pending:
            events.append(ToolArgsDelta(entry.id, "".join(entry.pending)))
            entry.pending.clear()
        return events

    def _close_calls(self) -> list[StreamEvent]:
        events: list[StreamEvent] = []
        for index in sorted(self._calls):
            entry = self._calls[index]
            if not entry.started:
                events += self._start(entry)  # no name ever came: the call fails as unknown
            events.append(ToolUseStop(entry.id))
        self._calls.clear()
        return events
