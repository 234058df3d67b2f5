"""Gemini's streamed chunks as neutral events, how a response ends, and the SDK's failures as
ProviderErrors: the cases a stub stream rarely produces."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

import httpx2
import pytest

from agentui.core.agent.turn import TurnBuilder
from agentui.core.protocol.conversation import TextBlock, ThinkingBlock, ToolUseBlock
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    StreamEnd,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)
from agentui.core.providers.google import thought_signature
from agentui.core.providers.google.http_client import connect_briefly
from agentui.core.support.errors import ProviderError

if TYPE_CHECKING:
    from google.genai import errors, types

    from agentui.core.providers.google.stream import StreamTranslator

# The SDK (and stream.py and errors.py, which import it) is imported where it is used:
# collecting this module imports no SDK.

SIG = b"signed-by-gemini"
SIG_TEXT = thought_signature.to_text(SIG)


def chunk(*parts: dict[str, Any], **candidate: Any) -> types.GenerateContentResponse:
    from google.genai import types

    return types.GenerateContentResponse.model_validate(
        {"candidates": [{"content": {"role": "model", "parts": list(parts)}, **candidate}]}
    )


def signed(part: dict[str, Any]) -> dict[str, Any]:
    return {**part, "thoughtSignature": SIG}


def translate(*chunks: types.GenerateContentResponse) -> tuple[list[Any], StreamTranslator]:
    from agentui.core.providers.google.stream import StreamTranslator

    translator = StreamTranslator()
    return [event for c in chunks for event in translator.feed(c)], translator


def test_text_thoughts_and_a_signed_call_keep_their_order_and_build_the_turn() -> None:
    out, translator = translate(
        chunk({"text": "Plan ", "thought": True}),
        chunk(signed({"text": "it.", "thought": True})),
        chunk({"text": "Checking."}),
        chunk(
            signed({"functionCall": {"id": "c-1", "name": "lookup", "args": {"q": "port"}}}),
            {"functionCall": {"id": "c-2", "name": "lookup", "args": {"q": "host"}}},
            finishReason="STOP",
        ),
    )

    assert [*out, translator.end()] == [
        ThinkingChunk("Plan "),
        ThinkingChunk("it."),
        ThinkingChunk("", signature=SIG_TEXT),
        TextChunk("Checking."),
        ToolUseStart("c-1", "lookup"),
        ToolArgsDelta("c-1", '{"q": "port"}'),
        ToolUseStop("c-1"),
        ThinkingChunk("", signature=SIG_TEXT),
        ToolUseStart("c-2", "lookup"),
        ToolArgsDelta("c-2", '{"q": "host"}'),
        ToolUseStop("c-2"),
        StreamEnd("tool_use"),
    ]
    builder = TurnBuilder()
    for event in out:
        builder.feed(event)
    assert builder.finish().content == [
        ThinkingBlock(thinking="Plan it.", signature=SIG_TEXT),
        TextBlock(text="Checking."),
        ToolUseBlock(id="c-1", name="lookup", input={"q": "port"}),
        ThinkingBlock(thinking="", signature=SIG_TEXT),  # goes back on the call before it
        ToolUseBlock(id="c-2", name="lookup", input={"q": "host"}),
    ]


def test_a_call_without_an_id_gets_a_fresh_one_each_time() -> None:
    part = {"functionCall": {"name": "lookup", "args": {}}}
    out, _ = translate(chunk(part, part))

    starts = [e for e in out if isinstance(e, ToolUseStart)]
    assert len({s.id for s in starts}) == 2
    assert [e.partial_json for e in out if isinstance(e, ToolArgsDelta)] == ["{}", "{}"]


def test_parts_the_loop_cannot_use_are_skipped() -> None:
    out, _ = translate(
        chunk(
            {"executableCode": {"code": "print(1)", "language": "PYTHON"}},
            {"codeExecutionResult": {"outcome": "OUTCOME_OK", "output": "1"}},
            {"text": ""},
            {"text": "Done."},
        )
    )

    assert out == [TextChunk("Done.")]


def test_usage_splits_cached_tokens_off_the_prompt_and_counts_thinking_as_output() -> None:
    from google.genai import types

    first = types.GenerateContentResponse.model_validate(
        {"usageMetadata": {"promptTokenCount": 1000, "cachedContentTokenCount": 600}}
    )
    same = types.GenerateContentResponse.model_validate(
        {"usageMetadata": {"promptTokenCount": 1000, "cachedContentTokenCount": 600}}
    )
    grown = types.GenerateContentResponse.model_validate(
        {
            "usageMetadata": {
                "promptTokenCount": 1000,
                "cachedContentTokenCount": 600,
                "toolUsePromptTokenCount": 50,
                "candidatesTokenCount": 30,
                "thoughtsTokenCount": 70,
            }
        }
    )
    out, _ = translate(first, same, grown)

    assert out == [
        UsageReport(Usage(input_tokens=400, cache_read_input_tokens=600)),
        UsageReport(Usage(input_tokens=450, output_tokens=100, cache_read_input_tokens=600)),
    ], "reported as it grows, not again when unchanged"


@pytest.mark.parametrize(
    ("finish", "stop_reason"),
    [("STOP", "end_turn"), ("MAX_TOKENS", "max_tokens"), ("CONTINUATION", "max_tokens")],
)
def test_a_response_that_ends_normally_gives_its_stop_reason(finish: str, stop_reason: str) -> None:
    _, translator = translate(chunk({"text": "Hi."}, finishReason=finish))

    assert translator.end() == StreamEnd(stop_reason)


@pytest.mark.parametrize(
    ("finish", "message", "retryable"),
    [
        ("SAFETY", "Gemini stopped the answer: it may break the safety policies (SAFETY)", False),
        (
            "SPII",
            "Gemini stopped the answer: it may hold sensitive personal information (SPII)",
            False,
        ),
        ("BLOCKLIST", "Gemini stopped the answer: it holds a blocked term (BLOCKLIST)", False),
        (
            "MISSING_THOUGHT_SIGNATURE",
            "Gemini stopped the answer: a thought signature Gemini needs is missing from the "
            "conversation (MISSING_THOUGHT_SIGNATURE)",
            False,
        ),
        ("OTHER", "Gemini stopped the answer: for a reason it does not say (OTHER)", False),
        (
            "UNEXPECTED_TOOL_CALL",
            "the model called a function it was not given (UNEXPECTED_TOOL_CALL)",
            True,
        ),
        ("MALFORMED_RESPONSE", "the model sent a malformed response (MALFORMED_RESPONSE)", True),
    ],
)
def test_a_response_gemini_cut_off_fails_with_its_reason(
    finish: str, message: str, retryable: bool
) -> None:
    _, translator = translate(chunk({"text": "Well"}, finishReason=finish))

    with pytest.raises(ProviderError) as raised:
        translator.end()
    assert (str(raised.value), raised.value.retryable) == (message, retryable)


def test_the_finish_message_is_said_too() -> None:
    _, translator = translate(
        chunk(finishReason="MALFORMED_FUNCTION_CALL", finishMessage="Malformed call: lookup(")
    )

    with pytest.raises(
        ProviderError, match=r"\(MALFORMED_FUNCTION_CALL\): Malformed call: lookup\($"
    ):
        translator.end()


def test_a_response_without_a_finish_reason_was_cut_short() -> None:
    _, translator = translate(chunk({"text": "Hal"}))

    with pytest.raises(ProviderError, match="ended before it was complete") as raised:
        translator.end()
    assert raised.value.retryable


def test_a_blocked_prompt_fails_with_its_reason_and_is_not_retryable() -> None:
    from google.genai import types

    _, translator = translate(
        types.GenerateContentResponse.model_validate(
            {"promptFeedback": {"blockReason": "JAILBREAK"}}
        )
    )

    with pytest.raises(ProviderError) as raised:
        translator.end()
    assert str(raised.value) == "Gemini refused the prompt: it looks like a jailbreak (JAILBREAK)"
    assert not raised.value.retryable


# -- failures as ProviderErrors -------------------------------------------------------------------


def api_error(code: int, status: str, message: str) -> errors.APIError:
    from google.genai import errors

    body = {"error": {"code": code, "status": status, "message": message}}
    return (errors.ClientError if code < 500 else errors.ServerError)(code, body)


def not_json() -> Exception:
    from google.genai import errors

    return errors.UnknownApiResponseError("<html>")


def mapped(exc: Exception, *, mid_stream: bool = False) -> ProviderError | None:
    from agentui.core.providers.google.errors import provider_error

    return provider_error(
        exc, model="gemini-x", base_url="http://gw", timeout_s=30, mid_stream=mid_stream
    )


@pytest.mark.parametrize(
    ("make_exc", "mid_stream", "message", "retryable"),
    [
        (
            lambda: api_error(403, "PERMISSION_DENIED", "No."),
            False,
            "the API key is not allowed to do this: No.",
            False,
        ),
        (
            lambda: api_error(404, "NOT_FOUND", "Not found."),
            False,
            "nothing answers at http://gw (check GOOGLE_GEMINI_BASE_URL)",
            False,
        ),
        (
            lambda: api_error(413, "", "Too big."),
            False,
            "the request is too large for the API (413)",
            False,
        ),
        (lambda: api_error(408, "", "Slow."), False, "the API failed (408): Slow.", True),
        (
            lambda: api_error(400, "INVALID_ARGUMENT", "Bad."),
            True,
            "the API failed mid-response (400 INVALID_ARGUMENT: Bad.)",
            False,
        ),
        (
            lambda: api_error(429, "RESOURCE_EXHAUSTED", "Busy."),
            True,
            "the API failed mid-response (429 RESOURCE_EXHAUSTED: Busy.)",
            True,
        ),
        (lambda: httpx2.ReadTimeout("slow"), False, "the API did not answer within 30 s", True),
        (
            lambda: httpx2.ReadTimeout("slow"),
            True,
            "the API stopped sending for 30 s mid-response",
            True,
        ),
        (lambda: httpx2.ConnectError("refused"), False, "cannot reach the API at http://gw", True),
        (
            lambda: httpx2.RemoteProtocolError("gone"),
            False,
            "the connection to the API dropped before the response",
            True,
        ),
        (
            not_json,
            True,
            "the API sent a response that is not JSON",
            True,
        ),
    ],
)
def test_failures_map_to_messages_a_person_can_act_on(
    make_exc: Callable[[], Exception], mid_stream: bool, message: str, retryable: bool
) -> None:
    error = mapped(make_exc(), mid_stream=mid_stream)

    assert error is not None
    assert (str(error), error.retryable) == (message, retryable)


def test_a_bug_of_ours_is_not_dressed_up_as_a_provider_error() -> None:
    assert mapped(ValueError("routing_config parameter is only supported in ...")) is None


@pytest.mark.anyio
async def test_connecting_gets_at_most_five_seconds_of_the_one_timeout_the_sdk_gives() -> None:
    async with httpx2.AsyncClient() as client:
        request = client.build_request("POST", "http://gw/v1/models", timeout=600.0)
    await connect_briefly(request)

    assert request.extensions["timeout"] == {
        "connect": 5.0,
        "read": 600.0,
        "write": 600.0,
        "pool": 600.0,
    }
