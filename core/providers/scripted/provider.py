"""The scripted provider: the offline default model. Deterministic, with no network.

Without a script it plays the demo (see demo.py); with one it plays exactly the scripted turns.
Workflow decisions (`purpose="decision"`) are played from the script's decision lists, or the
demo's, apart from the agent's turns; a decision no list covers gets the smallest value valid
for the schema the request declares (for the workflow's decisions, "no").
Text streams in chunks of a few characters at `pace_s` seconds per chunk (0: as fast as the
event loop allows, still yielding between chunks so other agents and commands interleave); a
paced agent's answer starts FIRST_CHUNK_TICKS chunks' time after its request, like a real
model's.
"""

from __future__ import annotations

import json
import random
import zlib
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace

import anyio
import anyio.lowlevel

from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    ProviderRequest,
    StreamEnd,
    StreamEvent,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)
from agentui.core.providers.scripted.defaults import DEFAULT_MODEL
from agentui.core.providers.scripted.demo import demo_decision, demo_turn
from agentui.core.providers.scripted.narration import narration_turn
from agentui.core.providers.scripted.sample_args import minimal_instance
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.support.errors import ProviderError
from agentui.core.support.utf8 import model_json

CHARS_PER_TOKEN = 3.5  # the usual offline estimate; real providers report exact usage
YIELD_EVERY_CHUNKS = 4
# An agent's answer starts this many chunks' time after it is asked, as a real model's first
# token comes a moment after the request (paced only: at pace 0 nothing waits).
FIRST_CHUNK_TICKS = 12


def _estimate_tokens(text: str) -> int:
    return max(1, round(len(text) / CHARS_PER_TOKEN)) if text else 0


def _request_chars(request: ProviderRequest) -> int:
    total = len(request.instructions)
    for message in request.messages:
        total += len(model_json(message))
    return total


class ScriptedProvider:
    name = "scripted"

    def __init__(
        self,
        script: Script | None = None,
        *,
        model: str = DEFAULT_MODEL,
        pace_s: float = 0.0,
        chunk_chars: tuple[int, int] = (3, 8),
        seed: int = 0,
        record_requests: bool = True,
    ) -> None:
        if chunk_chars[0] < 1 or chunk_chars[1] < chunk_chars[0]:
            raise ValueError("chunk_chars must be (min, max) with 1 <= min <= max")
        self.script = script
        self.model = model
        self.pace_s = pace_s
        self.chunk_chars = chunk_chars
        self.seed = seed
        self.record_requests = record_requests
        self.requests: list[ProviderRequest] = []
        self.closed_early = 0  # streams closed before they finished (cancel, pause + cancel)
        self._cursor: defaultdict[str, int] = defaultdict(int)
        self._decision_cursor: defaultdict[tuple[str, str], int] = defaultdict(int)
        self._tool_ids = 0
        self._ticks = 0

    async def aclose(self) -> None:
        """Nothing to release: the scripted model holds no connection or file."""

    def _next_turn(self, request: ProviderRequest) -> Turn:
        if request.purpose == "narrator":
            # The monologue's narrator, not an agent: answer from the request itself, and leave
            # every agent's script (and its cursor) untouched.
            return narration_turn(request)
        if request.purpose == "decision":
            return self._decision_turn(request)
        if self.script is None:
            return demo_turn(request)
        turns = self.script.turns_for(request.agent_name)
        if turns is None:
            raise ProviderError(
                f"the script has no turns for agent {request.agent_name!r} and no '*' entry"
            )
        index = self._cursor[request.agent_id]
        if request.sent_again and index > 0:
            return turns[index - 1]  # the turn given up mid-response, played again
        if index >= len(turns):
            raise ProviderError(
                f"the script ran out of turns for agent {request.agent_name!r} "
                f"(it has {len(turns)}, call {index + 1} asked for another)"
            )
        self._cursor[request.agent_id] = index + 1
        return turns[index]

    def _decision_turn(self, request: ProviderRequest) -> Turn:
        if self.script is None:
            return demo_decision(request)
        turns = self.script.decision_turns(request.agent_name, request.decision)
        if turns is None:
            return Turn(text=json.dumps(minimal_instance(request.response_schema or {})))
        key = (request.agent_id, request.decision)
        index = self._decision_cursor[key]
        if index >= len(turns):
            raise ProviderError(
                f"the script ran out of {request.decision!r} decisions for agent "
                f"{request.agent_name!r} (it has {len(turns)}, call {index + 1} asked for another)"
            )
        self._decision_cursor[key] = index + 1
        return turns[index]

    def _chunks(self, text: str, rng: random.Random) -> Iterator[str]:
        """The text in random-sized pieces, cut as they are sent (a long answer cut up front
        held every piece of every streaming agent at once)."""
        low, high = self.chunk_chars
        position = 0
        while position < len(text):
            size = rng.randint(low, high)
            yield text[position : position + size]
            position += size

    async def _tick(self) -> None:
        if self.pace_s > 0:
            await anyio.sleep(self.pace_s)
            return
        # As fast as possible, but yielding to the event loop every few chunks so other
        # agents, subscribers and commands interleave and cancellation lands promptly.
        self._ticks += 1
        if self._ticks % YIELD_EVERY_CHUNKS == 0:
            await anyio.lowlevel.checkpoint()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        if self.record_requests:
            self.requests.append(
                replace(request, messages=[m.model_copy(deep=True) for m in request.messages])
            )
        return self._stream(request)

    async def _stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        finished = False
        try:
            turn = self._next_turn(request)
            seed = zlib.crc32(f"{self.seed}:{request.agent_id}:{request.iteration}".encode())
            rng = random.Random(seed)
            chunks_sent = 0

            async def hang_if_due() -> None:
                if turn.hang_after_chunks is not None and chunks_sent >= turn.hang_after_chunks:
                    await anyio.sleep_forever()

            def fail_if_due() -> None:
                if turn.error is not None and chunks_sent >= turn.error.after_chunks:
                    raise ProviderError(turn.error.message, retryable=turn.error.retryable)

            fail_if_due()
            await hang_if_due()
            if self.pace_s > 0 and request.purpose == "agent":
                await anyio.sleep(self.pace_s * FIRST_CHUNK_TICKS)
            for piece in self._chunks(turn.thinking, rng):
                await self._tick()
                yield ThinkingChunk(piece)
            # The stream's bulk: a hang or failure is looked for only when the turn has one.
            due = turn.error is not None or turn.hang_after_chunks is not None
            for piece in self._chunks(turn.text, rng):
                await self._tick()
                yield TextChunk(piece)
                chunks_sent += 1
                if due:
                    fail_if_due()
                    await hang_if_due()
            # A failure or hang scheduled past the end of the text still happens (chunk sizes
            # are random, so a script cannot know how many chunks its text makes).
            if turn.error is not None:
                raise ProviderError(turn.error.message, retryable=turn.error.retryable)
            if turn.hang_after_chunks is not None:
                await anyio.sleep_forever()
            for call in turn.tool_calls:
                self._tool_ids += 1
                call_id = f"toolu_{self._tool_ids:04d}"
                raw = (
                    call.raw_arguments
                    if call.raw_arguments is not None
                    else json.dumps(call.arguments)
                )
                await self._tick()
                yield ToolUseStart(call_id, call.name)
                middle = len(raw) // 2
                for piece in (raw[:middle], raw[middle:]):
                    if piece:
                        yield ToolArgsDelta(call_id, piece)
                yield ToolUseStop(call_id)
            usage = turn.usage or Usage(
                input_tokens=round(_request_chars(request) / CHARS_PER_TOKEN),
                output_tokens=_estimate_tokens(turn.thinking + turn.text)
                + sum(_estimate_tokens(json.dumps(c.arguments)) for c in turn.tool_calls),
            )
            yield UsageReport(usage)
            yield StreamEnd(turn.effective_stop_reason)
            finished = True
        finally:
            if not finished:
                self.closed_early += 1
