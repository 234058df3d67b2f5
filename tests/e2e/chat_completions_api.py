"""Chat Completions streams for the stub server, built from a few words instead of raw SSE.

    sse_reply(completion(content("Hel", "lo"), finish="stop"))

Every event is a data-only line (`data: {...}`) and the stream ends with `data: [DONE]`, as
OpenAI and the compatible servers send them. `completion` wraps chunks in the role chunk
first, the finish chunk and the usage chunk (no choices) last.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .stub_server import Reply, SeenRequest, Sse, Step, json_reply, minimal_instance, sse_reply

MODEL = "gpt-5.4"


@dataclass(frozen=True)
class Chunk(Sse):
    """A data-only event: `data: JSON`."""

    def encode(self) -> bytes:
        return f"data: {json.dumps(self.data)}\n\n".encode()


@dataclass(frozen=True)
class Done(Sse):
    """The end of the stream: `data: [DONE]`."""

    def encode(self) -> bytes:
        return b"data: [DONE]\n\n"


def chunk(delta: dict[str, Any], *, finish: str | None = None, model: str = MODEL) -> Chunk:
    return Chunk(
        "",
        {
            "id": "chatcmpl-stub",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}],
        },
    )


def content(*pieces: str) -> list[Step]:
    return [chunk({"content": piece}) for piece in pieces]


def reasoning(*pieces: str, field: str = "reasoning_content") -> list[Step]:
    return [chunk({field: piece}) for piece in pieces]


def tool_call(index: int, call_id: str, name: str, *json_pieces: str) -> list[Step]:
    """A tool call: its id and name first (with no arguments), then the arguments in pieces."""
    first = {
        "index": index,
        "id": call_id,
        "type": "function",
        "function": {"name": name, "arguments": ""},
    }
    steps: list[Step] = [chunk({"tool_calls": [first]})]
    steps += [
        chunk({"tool_calls": [{"index": index, "function": {"arguments": piece}}]})
        for piece in json_pieces
    ]
    return steps


def usage_chunk(prompt: int = 12, completion: int = 7, cached: int = 0) -> Chunk:
    return Chunk(
        "",
        {
            "id": "chatcmpl-stub",
            "object": "chat.completion.chunk",
            "created": 1,
            "model": MODEL,
            "choices": [],
            "usage": {
                "prompt_tokens": prompt,
                "completion_tokens": completion,
                "total_tokens": prompt + completion,
                "prompt_tokens_details": {"cached_tokens": cached},
            },
        },
    )


def completion(
    *parts: list[Step],
    finish: str = "stop",
    prompt: int = 12,
    completion_tokens: int = 7,
    cached: int = 0,
    usage: bool = True,
) -> list[Step]:
    """A whole streamed completion: the role chunk, the parts, the finish, usage, [DONE]."""
    steps: list[Step] = [chunk({"role": "assistant", "content": ""})]
    for part in parts:
        steps += part
    steps.append(chunk({}, finish=finish))
    if usage:
        steps.append(usage_chunk(prompt, completion_tokens, cached))
    return [*steps, Done("", {})]


def stream_error(
    message: str = "The server had an error",
    error_type: str = "server_error",
    *,
    code: int | None = None,
) -> Chunk:
    """The error object a server sends in place of a chunk when a stream fails after it began
    (vLLM puts the HTTP status it would have answered in `code`)."""
    return Chunk("", {"error": {"message": message, "type": error_type, "code": code}})


def error_reply(
    status: int,
    message: str,
    error_type: str = "invalid_request_error",
    headers: dict[str, str] | None = None,
) -> Reply:
    body = {"error": {"message": message, "type": error_type, "param": None, "code": None}}
    return json_reply(status, body, {"x-request-id": f"req_stub_{status}", **(headers or {})})


@dataclass
class MinimalChatModel:
    """Answers a request that declares `response_format` json_schema with the smallest valid
    instance of its schema, and anything else with a short plain text (independent of ours)."""

    plain_text: str = "Done."

    def answer(self, body: dict[str, Any]) -> str:
        declared = body.get("response_format") or {}
        if declared.get("type") == "json_schema":
            return json.dumps(minimal_instance(declared["json_schema"]["schema"]))
        return self.plain_text

    def __call__(self, request: SeenRequest) -> Reply:
        answer = self.answer(request.json())
        middle = len(answer) // 2
        return sse_reply(completion(content(answer[:middle], answer[middle:])))
