"""Gemini API streams for the stub server, built from a few words instead of raw SSE.

    sse_reply(response(text("Hel"), text("lo")))

`POST /v1/models/{model}:streamGenerateContent?alt=sse` answers with data-only server-sent
events, each one whole `GenerateContentResponse` (no `event:` lines, CRLF line ends, as
Google's servers send them). `response` sends each part in its own chunk and ends with the
finish reason and the usage; `MinimalGemini` answers from the request itself.
"""

from __future__ import annotations

import base64
import json
from dataclasses import dataclass
from typing import Any

from .stub_server import Reply, SeenRequest, Sse, Step, json_reply, minimal_instance, sse_reply

MODEL = "gemini-3.8-flash"
Part = dict[str, Any]


@dataclass(frozen=True)
class Chunk(Sse):
    """One streamed response: `data: {json}` alone."""

    def encode(self) -> bytes:
        return f"data: {json.dumps(self.data)}\r\n\r\n".encode()


def signature(text: str) -> str:
    """A thought signature as the API sends it: opaque bytes, base64."""
    return base64.b64encode(text.encode()).decode()


def text(piece: str, *, signed: str | None = None) -> Part:
    part: Part = {"text": piece}
    if signed is not None:
        part["thoughtSignature"] = signature(signed)
    return part


def thought(piece: str, *, signed: str | None = None) -> Part:
    return {**text(piece, signed=signed), "thought": True}


def call(
    name: str, args: dict[str, Any], *, call_id: str | None = None, signed: str | None = None
) -> Part:
    function_call: dict[str, Any] = {"name": name, "args": args}
    if call_id is not None:
        function_call["id"] = call_id
    part: Part = {"functionCall": function_call}
    if signed is not None:
        part["thoughtSignature"] = signature(signed)
    return part


def usage(
    prompt: int = 12, output: int = 7, *, thoughts: int = 0, cached: int = 0
) -> dict[str, Any]:
    metadata = {
        "promptTokenCount": prompt,
        "candidatesTokenCount": output,
        "totalTokenCount": prompt + output + thoughts,
    }
    if thoughts:
        metadata["thoughtsTokenCount"] = thoughts
    if cached:
        metadata["cachedContentTokenCount"] = cached
    return metadata


def chunk(
    *parts: Part, finish: str | None = None, tokens: dict[str, Any] | None = None, **extra: Any
) -> Chunk:
    candidate: dict[str, Any] = {"content": {"role": "model", "parts": list(parts)}, "index": 0}
    if finish is not None:
        candidate["finishReason"] = finish
    data: dict[str, Any] = {"candidates": [candidate], "modelVersion": MODEL, **extra}
    if tokens is not None:
        data["usageMetadata"] = tokens
    return Chunk("", data)


def response(
    *parts: Part,
    finish: str = "STOP",
    prompt: int = 12,
    output: int = 7,
    thoughts: int = 0,
    cached: int = 0,
) -> list[Step]:
    """A whole streamed answer: a chunk per part (usage growing), the last one finishing."""
    steps: list[Step] = [
        chunk(part, tokens=usage(prompt, index + 1, cached=cached))
        for index, part in enumerate(parts)
    ]
    steps.append(
        chunk(finish=finish, tokens=usage(prompt, output, thoughts=thoughts, cached=cached))
    )
    return steps


def blocked_prompt(reason: str = "SAFETY", message: str | None = None) -> list[Step]:
    """The answer to a prompt Gemini refuses: feedback, no candidate."""
    feedback: dict[str, Any] = {"blockReason": reason}
    if message is not None:
        feedback["blockReasonMessage"] = message
    return [Chunk("", {"promptFeedback": feedback, "usageMetadata": usage(12, 0)})]


def stream_error(
    code: int = 503, status: str = "UNAVAILABLE", message: str = "The model is overloaded."
) -> Chunk:
    """The error the API sends in place of the next chunk when a stream fails after it began."""
    return Chunk("", {"error": {"code": code, "message": message, "status": status}})


def error_reply(
    code: int, status: str, message: str, details: list[dict[str, Any]] | None = None
) -> Reply:
    error: dict[str, Any] = {"code": code, "message": message, "status": status}
    if details is not None:
        error["details"] = details
    return json_reply(code, {"error": error})


def wire_parts(request: SeenRequest, index: int) -> list[Part]:
    """The parts of the request's content `index`, as sent."""
    parts: list[Part] = request.json()["contents"][index]["parts"]
    return parts


@dataclass
class MinimalGemini:
    """Answers a request that asks for JSON (`responseJsonSchema`) with the smallest instance
    of its schema, and anything else with a short plain text; each answer in two pieces."""

    plain_text: str = "Done."

    def answer(self, body: dict[str, Any]) -> str:
        schema = (body.get("generationConfig") or {}).get("responseJsonSchema")
        if schema is not None:
            return json.dumps(minimal_instance(schema))
        return self.plain_text

    def __call__(self, request: SeenRequest) -> Reply:
        answer = self.answer(request.json())
        middle = len(answer) // 2
        return sse_reply(response(text(answer[:middle]), text(answer[middle:])))
