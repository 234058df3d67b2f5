"""Messages API streams for the stub server, built from a few words instead of raw SSE.

    sse_reply(response(text("Hel", "lo"), stop_reason="end_turn"))

`response` numbers the content blocks and wraps them in `message_start` ... `message_stop`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .stub_server import Sse, Step

MODEL = "claude-sonnet-4-6"


@dataclass(frozen=True)
class Block:
    """One content block: its start, its deltas (any number), and the step list it makes."""

    start: dict[str, Any]
    deltas: list[dict[str, Any]] = field(default_factory=list)

    def steps(self, index: int) -> list[Step]:
        return [
            Sse(
                "content_block_start",
                {"type": "content_block_start", "index": index, "content_block": self.start},
            ),
            *(
                Sse(
                    "content_block_delta",
                    {"type": "content_block_delta", "index": index, "delta": d},
                )
                for d in self.deltas
            ),
            Sse("content_block_stop", {"type": "content_block_stop", "index": index}),
        ]


def text(*pieces: str) -> Block:
    return Block({"type": "text", "text": ""}, [{"type": "text_delta", "text": p} for p in pieces])


def thinking(*pieces: str, signature: str) -> Block:
    deltas = [{"type": "thinking_delta", "thinking": p} for p in pieces]
    deltas.append({"type": "signature_delta", "signature": signature})
    return Block({"type": "thinking", "thinking": "", "signature": ""}, deltas)


def redacted_thinking(data: str) -> Block:
    """Thinking the API encrypted: the whole block at its start, no deltas."""
    return Block({"type": "redacted_thinking", "data": data})


def tool_use(call_id: str, name: str, *json_pieces: str) -> Block:
    return Block(
        {"type": "tool_use", "id": call_id, "name": name, "input": {}},
        [{"type": "input_json_delta", "partial_json": p} for p in json_pieces],
    )


def message_start(
    *, input_tokens: int = 12, cache_creation: int = 0, cache_read: int = 0, model: str = MODEL
) -> Sse:
    return Sse(
        "message_start",
        {
            "type": "message_start",
            "message": {
                "id": "msg_stub",
                "type": "message",
                "role": "assistant",
                "model": model,
                "content": [],
                "stop_reason": None,
                "stop_sequence": None,
                "usage": {
                    "input_tokens": input_tokens,
                    "output_tokens": 1,
                    "cache_creation_input_tokens": cache_creation,
                    "cache_read_input_tokens": cache_read,
                },
            },
        },
    )


def message_end(stop_reason: str = "end_turn", *, output_tokens: int = 7) -> list[Step]:
    return [
        Sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                "usage": {"output_tokens": output_tokens},
            },
        ),
        Sse("message_stop", {"type": "message_stop"}),
    ]


def response(
    *blocks: Block,
    stop_reason: str = "end_turn",
    input_tokens: int = 12,
    output_tokens: int = 7,
    cache_creation: int = 0,
    cache_read: int = 0,
) -> list[Step]:
    """A whole streamed message."""
    steps: list[Step] = [
        message_start(
            input_tokens=input_tokens, cache_creation=cache_creation, cache_read=cache_read
        ),
        Sse("ping", {"type": "ping"}),
    ]
    for index, block in enumerate(blocks):
        steps += block.steps(index)
    return steps + message_end(stop_reason, output_tokens=output_tokens)


def stream_error(error_type: str = "overloaded_error", message: str = "Overloaded") -> Sse:
    """The `error` event the API sends when a stream fails after it began."""
    return Sse("error", {"type": "error", "error": {"type": error_type, "message": message}})
