"""Claude's raw event stream (`messages.create(stream=True)`), read by our own translation instead
of the SDK's `messages.stream` helper: what the helper used to do for us still holds.

The real SDK against the stub server on 127.0.0.1 (tests/e2e), through the whole runtime: tool
arguments in many pieces, thinking and its signature sent back, usage from `message_delta`, a
stream cut before `message_stop`, `error` events mid-stream, tool JSON that is malformed or cut
short, server tool blocks and events the SDK does not know.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.usage import Usage
from agentui.core.providers.anthropic.stream import BAD_TOOL_JSON, StreamTranslator
from agentui.core.providers.base import ToolArgsDelta, ToolUseStart
from agentui.core.support.errors import ProviderError
from tests.e2e.messages_api import (
    Block,
    message_end,
    message_start,
    response,
    stream_error,
    text,
    thinking,
    tool_use,
)
from tests.e2e.provider_runs import deltas, of_type, run
from tests.e2e.stub_server import Sse, StubServer, sse_reply

if TYPE_CHECKING:
    from agentui.core.providers.anthropic.provider import AnthropicProvider

# The SDK (and the provider, which imports it) is imported where it is used: collecting this
# module imports no SDK.

ARGUMENTS = {"query": "port", "note": 'café ☕ "quoted"\n', "depth": [1, 2.5, None, True]}


@asynccontextmanager
async def claude(stub: StubServer, **options: Any) -> AsyncIterator[AnthropicProvider]:
    import anthropic

    from agentui.core.providers.anthropic.provider import AnthropicProvider

    client = anthropic.AsyncAnthropic(base_url=stub.url, api_key="sk-test", max_retries=0)
    try:
        yield AnthropicProvider(client=client, **options)
    finally:
        await client.close()


def server_tool_use(*json_pieces: str) -> Block:
    return Block(
        {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}},
        [{"type": "input_json_delta", "partial_json": p} for p in json_pieces],
    )


# -- tool arguments ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_a_tool_calls_json_one_character_a_delta_reassembles() -> None:
    # ensure_ascii: the \u escapes are cut in their middle too.
    whole = json.dumps(ARGUMENTS)
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(response(tool_use("toolu_1", "lookup", *whole), stop_reason="tool_use")),
            sse_reply(response(text("It is 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    (started,) = of_type(events, "tool:start")
    assert started.call.arguments == ARGUMENTS
    sent_back = stub.requests[1].json()["messages"][1]["content"]
    assert sent_back == [
        {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": ARGUMENTS}
    ]


@pytest.mark.anyio
async def test_malformed_tool_json_is_one_retryable_error_and_the_next_attempt_runs() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(
                response(
                    text("Looking."),
                    tool_use("toolu_1", "lookup", '{"query": ', "port}"),
                    stop_reason="tool_use",
                )
            ),
            sse_reply(
                response(tool_use("toolu_2", "lookup", '{"query": "port"}'), stop_reason="tool_use")
            ),
            sse_reply(response(text("It is 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    (llm_error,) = of_type(events, "llm:error")
    assert (llm_error.error, llm_error.retryable) == (BAD_TOOL_JSON, True)
    assert [e.call.id for e in of_type(events, "tool:start")] == ["toolu_2"], "never run"
    assert "Looking." not in json.dumps(stub.requests[1].json()), "the failed attempt is dropped"


@pytest.mark.anyio
async def test_tool_json_cut_short_reaches_the_model_as_the_calls_error() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(response(tool_use("toolu_1", "lookup", '{"query": "po'))),
            sse_reply(response(text("I will send whole JSON."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert not of_type(events, "llm:error"), "JSON that could still become valid is no failure"
    (failed,) = of_type(events, "tool:error")
    assert failed.error.startswith("arguments were not valid JSON (")
    (result,) = stub.requests[1].json()["messages"][2]["content"]
    assert (result["tool_use_id"], result["is_error"]) == ("toolu_1", True)


@pytest.mark.anyio
async def test_server_tool_blocks_are_skipped_and_their_malformed_json_fails_as_a_tool_calls() -> (
    None
):
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(response(server_tool_use('{"query": ', "port}"), text("Lost."))),
            sse_reply(response(server_tool_use('{"query": ', '"port"}'), text("Found it."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Found it."
    assert [e.error for e in of_type(events, "llm:error")] == [BAD_TOOL_JSON]
    assert not of_type(events, "tool:start"), "the server ran it: nothing for the loop to run"


# -- thinking ------------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_thinking_in_many_pieces_and_its_signature_go_back_with_the_next_request() -> None:
    pieces = ["I ", "should ", "look ", "it ", "up", "."]
    async with StubServer() as stub, claude(stub, thinking_budget=1024) as provider:
        stub.reply(
            sse_reply(
                response(
                    thinking(*pieces, signature="sig-one"),
                    tool_use("toolu_1", "lookup", '{"query": "port"}'),
                    stop_reason="tool_use",
                )
            ),
            sse_reply(
                response(thinking("Now answer.", signature="sig-two"), text("It ", "is 8080."))
            ),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It is 8080."
    assert deltas(events, "thinking:delta") == [*pieces, "Now answer."]
    assert stub.requests[1].json()["messages"][1]["content"][0] == {
        "type": "thinking",
        "thinking": "I should look it up.",
        "signature": "sig-one",
    }


# -- usage and the end of the stream --------------------------------------------------------------


@pytest.mark.anyio
async def test_usage_in_message_delta_overrides_message_starts_and_is_what_counts() -> None:
    final_usage = {
        "input_tokens": 300,
        "output_tokens": 42,
        "cache_creation_input_tokens": 20,
        "cache_read_input_tokens": 100,
    }
    steps = [
        message_start(input_tokens=12),
        *text("Counted.").steps(0),
        Sse(
            "message_delta",
            {
                "type": "message_delta",
                "delta": {"stop_reason": "max_tokens", "stop_sequence": None},
                "usage": final_usage,
            },
        ),
        Sse("message_stop", {"type": "message_stop"}),
    ]
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(steps))
        events, node = await run(provider)

    assert node.usage == Usage(**final_usage)
    (completed,) = of_type(events, "execution:complete")
    assert completed.stop_reason == "max_tokens"


@pytest.mark.anyio
@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "close-delimited"])
async def test_a_stream_that_ends_without_message_stop_is_retried(chunked: bool) -> None:
    cut = [message_start(input_tokens=50), *text("Almost").steps(0), *message_end()[:1]]
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(cut, chunked=chunked),
            sse_reply(response(text("Whole."), input_tokens=50, output_tokens=3)),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Whole."
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.error == "the response ended before it was complete"
    assert llm_error.retryable is True
    assert node.usage == Usage(input_tokens=100, output_tokens=10), "the cut attempt counts too"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("error_type", "retried"),
    [("rate_limit_error", True), ("api_error", True), ("invalid_request_error", False)],
)
async def test_an_error_event_mid_stream_gives_one_clear_error(
    error_type: str, retried: bool
) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply([message_start(), *text("Hal").steps(0)[:2], stream_error(error_type, "no")]),
            sse_reply(response(text("Whole."))),
        )
        events, node = await run(provider)

    expected = f"the API failed mid-response ({error_type}: no)"
    assert [(e.error, e.retryable) for e in of_type(events, "llm:error")] == [(expected, retried)]
    if retried:
        assert (node.status, node.result) == (AgentStatus.COMPLETED, "Whole.")
    else:
        assert (node.status, node.error) == (AgentStatus.ERROR, expected)
        assert len(stub.requests) == 1


@pytest.mark.anyio
async def test_pings_and_events_the_sdk_does_not_know_are_passed_over() -> None:
    citation = {
        "type": "char_location",
        "cited_text": "port = 8080",
        "document_index": 0,
        "document_title": None,
        "start_char_index": 0,
        "end_char_index": 11,
    }
    steps = [
        message_start(),
        Sse("ping", {"type": "ping"}),
        *text("It is 8080.").steps(0)[:2],
        Sse(
            "content_block_delta",
            {
                "type": "content_block_delta",
                "index": 0,
                "delta": {"type": "citations_delta", "citation": citation},
            },
        ),
        Sse("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {}}),
        Sse("a_future_event", {"type": "a_future_event", "index": 0}),
        Sse("content_block_stop", {"type": "content_block_stop", "index": 0}),
        *message_end(),
    ]
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(steps))
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It is 8080."
    assert not of_type(events, "llm:error")


# -- the translation alone: what a stub stream cannot show ---------------------------------------


def feed(translator: StreamTranslator, event: dict[str, Any]) -> list[Any]:
    from anthropic.types import (
        RawContentBlockDeltaEvent,
        RawContentBlockStartEvent,
        RawMessageStopEvent,
    )

    kinds = {
        "content_block_start": RawContentBlockStartEvent,
        "content_block_delta": RawContentBlockDeltaEvent,
        "message_stop": RawMessageStopEvent,
    }
    return translator.feed(kinds[event["type"]].model_validate(event))


def test_a_tool_blocks_json_is_checked_at_message_stop_if_its_block_never_stopped() -> None:
    translator = StreamTranslator()
    feed(
        translator,
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "t1", "name": "lookup", "input": {}},
        },
    )
    out = feed(
        translator,
        {
            "type": "content_block_delta",
            "index": 0,
            "delta": {"type": "input_json_delta", "partial_json": "{oops"},
        },
    )

    assert out == [ToolArgsDelta("t1", "{oops")], "pieces go on as they come"
    with pytest.raises(ProviderError) as raised:
        feed(translator, {"type": "message_stop"})
    assert (str(raised.value), raised.value.retryable) == (BAD_TOOL_JSON, True)
    assert not translator.finished


def test_a_delta_for_a_block_that_never_started_is_ignored() -> None:
    translator = StreamTranslator()
    out = feed(
        translator,
        {"type": "content_block_delta", "index": 3, "delta": {"type": "text_delta", "text": "x"}},
    )
    started = feed(
        translator,
        {
            "type": "content_block_start",
            "index": 0,
            "content_block": {"type": "tool_use", "id": "t1", "name": "lookup", "input": {}},
        },
    )

    assert (out, started) == ([], [ToolUseStart("t1", "lookup")])
