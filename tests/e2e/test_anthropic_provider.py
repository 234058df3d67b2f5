"""Claude end to end: the real anthropic SDK and the full runtime against the local stub server.

No internet: the SDK talks to 127.0.0.1. Waits are on events and conditions, each under an
`anyio.fail_after` safety net; SDK retries wait 1 ms (`retry-after-ms`), the loop's not at all.
"""

from __future__ import annotations

import json
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol.usage import Usage
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.state.transcript import TranscriptBuilder
from agentui.core.support.pricing import DEFAULT_PRICES

from .messages_api import (
    MODEL,
    message_start,
    redacted_thinking,
    response,
    stream_error,
    text,
    thinking,
    tool_use,
)
from .provider_runs import (
    INSTRUCTIONS,
    SAFETY_S,
    TASK,
    deltas,
    make_runtime,
    of_type,
    pause_mid_stream,
    run,
    steer_while_paused_is_sent_again,
    stop_mid_stream,
)
from .stub_server import Drop, Hold, StubServer, error_reply, sse_reply

if TYPE_CHECKING:
    from agentui.core.providers.anthropic.provider import AnthropicProvider

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

SECRET = "sk-test-SECRET"
RETRY_NOW = {"retry-after-ms": "1"}


@asynccontextmanager
async def claude(
    stub: StubServer, *, max_retries: int = 2, timeout_s: float = 30.0, **options: Any
) -> AsyncIterator[AnthropicProvider]:
    import anthropic

    from agentui.core.providers.anthropic.provider import AnthropicProvider

    client = anthropic.AsyncAnthropic(
        base_url=stub.url, api_key=SECRET, max_retries=max_retries, timeout=timeout_s
    )
    try:
        yield AnthropicProvider(client=client, timeout_s=timeout_s, **options)
    finally:
        await client.close()


# -- streaming -----------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_streamed_text_arrives_in_pieces_and_the_request_is_well_formed() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(response(text("The port ", "is ", "8080."))))
        events, node = await run(provider)

    assert deltas(events) == ["The port ", "is ", "8080."]
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The port is 8080."
    (request,) = stub.requests
    assert (request.method, request.path) == ("POST", "/v1/messages")
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    body = request.json()
    assert body["model"] == MODEL
    assert body["stream"] is True
    assert body["system"] == INSTRUCTIONS
    assert body["messages"] == [{"role": "user", "content": [{"type": "text", "text": TASK}]}]
    assert body["tools"][0]["name"] == "lookup"
    assert body["tools"][0]["input_schema"]["properties"]["query"]["type"] == "string"
    assert "thinking" not in body


@pytest.mark.anyio
async def test_thinking_text_and_tool_use_reassemble_and_the_tool_result_goes_back() -> None:
    async with StubServer() as stub, claude(stub, thinking_budget=1024) as provider:
        stub.reply(
            sse_reply(
                response(
                    thinking("I should ", "look it up.", signature="sig-abc"),
                    text("Checking."),
                    tool_use("toolu_01", "lookup", '{"qu', 'ery": "p', 'ort"}'),
                    stop_reason="tool_use",
                )
            ),
            sse_reply(response(text("It is 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It is 8080."
    assert deltas(events, "thinking:delta") == ["I should ", "look it up."]
    (started,) = of_type(events, "tool:start")
    assert started.call.arguments == {"query": "port"}
    (completed,) = of_type(events, "tool:complete")
    assert completed.result == "port = 8080"

    first, second = (r.json() for r in stub.requests)
    assert first["thinking"] == {"type": "adaptive"}, "Sonnet 4.6 thinks adaptively"
    assert first["max_tokens"] == 4096 + 1024, "the budget comes on top of the answer's room"
    assert second["messages"][1:] == [
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "I should look it up.", "signature": "sig-abc"},
                {"type": "text", "text": "Checking."},
                {
                    "type": "tool_use",
                    "id": "toolu_01",
                    "name": "lookup",
                    "input": {"query": "port"},
                },
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_01", "content": "port = 8080"}
            ],
        },
    ]


@pytest.mark.anyio
async def test_redacted_thinking_goes_back_verbatim_with_the_tool_round_trip() -> None:
    opaque = "EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpP"
    async with StubServer() as stub, claude(stub, thinking_budget=1024) as provider:
        stub.reply(
            sse_reply(
                response(
                    thinking("Let me see.", signature="sig-1"),
                    redacted_thinking(opaque),
                    tool_use("toolu_02", "lookup", '{"query": "port"}'),
                    stop_reason="tool_use",
                )
            ),
            sse_reply(response(text("It is 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It is 8080."
    assert deltas(events, "thinking:delta") == ["Let me see."], "no made-up text for it"
    assert [e.iteration for e in of_type(events, "thinking:redacted")] == [1]
    second = stub.requests[1].json()
    assert second["messages"][1] == {
        "role": "assistant",
        "content": [
            {"type": "thinking", "thinking": "Let me see.", "signature": "sig-1"},
            {"type": "redacted_thinking", "data": opaque},
            {"type": "tool_use", "id": "toolu_02", "name": "lookup", "input": {"query": "port"}},
        ],
    }


# -- stop reasons --------------------------------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("stop_reason", ["end_turn", "max_tokens", "stop_sequence"])
async def test_a_stop_reason_that_ends_the_turn_completes_and_is_recorded(stop_reason: str) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(response(text("Cut her"), stop_reason=stop_reason)))
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Cut her"
    (completed,) = of_type(events, "execution:complete")
    assert completed.stop_reason == stop_reason
    assert of_type(events, "llm:response")[0].stop_reason == stop_reason


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("stop_reason", "message"),
    [
        ("refusal", "the model refused to continue"),
        ("model_context_window_exceeded", "no longer fits the model's context window"),
    ],
)
async def test_refusal_and_a_full_context_window_end_with_a_clear_error(
    stop_reason: str, message: str
) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(response(text("I can"), stop_reason=stop_reason)))
        events, node = await run(provider)

    assert node.status is AgentStatus.ERROR
    assert node.error is not None and message in node.error
    (failed,) = of_type(events, "execution:error")
    assert failed.kind == "provider"
    assert len(stub.requests) == 1, "not retried: the same request would end the same way"


@pytest.mark.anyio
async def test_pause_turn_sends_the_paused_turn_back_and_continues() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(response(text("Searching "), stop_reason="pause_turn")),
            sse_reply(response(text("found it."))),
        )
        _, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "found it."
    second = stub.requests[1].json()
    assert second["messages"][-1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Searching"}],  # no trailing space: the API wants none
    }


# -- faults the SDK retries before the first byte ------------------------------------------------


@pytest.mark.anyio
async def test_529_then_success_is_retried_by_the_sdk_honouring_retry_after_ms() -> None:
    async with StubServer() as stub, claude(stub, max_retries=2) as provider:
        stub.reply(
            error_reply(529, "overloaded_error", "Overloaded", RETRY_NOW),
            sse_reply(response(text("Fine now."))),
        )
        with anyio.fail_after(2):  # the SDK's own backoff would be ~0.5 s; 1 ms was asked for
            events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Fine now."
    assert len(stub.requests) == 2
    assert stub.requests[1].headers["x-stainless-retry-count"] == "1"
    assert not of_type(events, "llm:error"), "the SDK's retry is invisible to the loop"


@pytest.mark.anyio
async def test_429_until_the_retries_run_out_shows_on_the_node() -> None:
    async with StubServer() as stub, claude(stub, max_retries=2) as provider:
        stub.reply(*[error_reply(429, "rate_limit_error", "Slow down", RETRY_NOW)] * 5)
        events, node = await run(provider)

    assert len(stub.requests) == 3, "one attempt and the SDK's 2 retries; the loop adds none"
    assert node.status is AgentStatus.ERROR
    assert node.error is not None and node.error.startswith("rate limited by the API (429)")
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is False
    assert "Traceback" not in node.error


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("status", "error_type", "message", "expected"),
    [
        (
            401,
            "authentication_error",
            "invalid x-api-key",
            "the API key was rejected (check ANTHROPIC_API_KEY)",
        ),
        (404, "not_found_error", "model: claude-nope", "unknown model 'claude-nope'"),
        (
            400,
            "invalid_request_error",
            "messages: roles must alternate",
            "the API rejected the request: messages: roles must alternate",
        ),
    ],
)
async def test_a_bad_key_or_model_gives_one_clear_message(
    status: int, error_type: str, message: str, expected: str
) -> None:
    async with StubServer() as stub, claude(stub, model="claude-nope") as provider:
        stub.reply(error_reply(status, error_type, message))
        events, node = await run(provider)

    assert len(stub.requests) == 1, "not worth a retry"
    assert node.status is AgentStatus.ERROR
    assert node.error == expected
    assert [e.error for e in of_type(events, "llm:error")] == [expected]
    assert [e.error for e in of_type(events, "execution:error")] == [expected]


# -- faults after the first byte: agentui retries ------------------------------------------------


@pytest.mark.anyio
async def test_a_mid_stream_error_is_retried_and_its_partial_text_is_never_merged() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply([message_start(), *text("Half an ans").steps(0), stream_error()]),
            sse_reply(response(text("A whole answer."))),
        )
        async with make_runtime(provider) as runtime:
            events_sub = runtime.subscribe(maxsize=None)
            agent_id = runtime.start(TASK)
            with anyio.fail_after(SAFETY_S):
                node = await runtime.wait(agent_id)
            history = runtime.agent(agent_id)["conversation"]["messages"]
        events = events_sub.drain()

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "A whole answer."
    kinds = [e.type for e in events if e.type in ("text:delta", "llm:error", "llm:response")]
    assert kinds == ["text:delta", "llm:error", "text:delta", "llm:response"], (
        "the failed attempt's text is marked off by llm:error"
    )
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is True
    assert "overloaded_error" in llm_error.error
    assert "Half an ans" not in str(history)
    assert len(stub.requests) == 2


@pytest.mark.anyio
@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "close-delimited"])
async def test_a_dropped_connection_is_retried(chunked: bool) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply([message_start(), *text("Going").steps(0)[:2], Drop()], chunked=chunked),
            sse_reply(response(text("Back again."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Back again."
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is True
    assert deltas(events) == ["Going", "Back again."]


@pytest.mark.anyio
async def test_after_the_last_attempt_the_node_shows_the_error() -> None:
    failing = sse_reply([message_start(), *text("Try").steps(0), stream_error()])
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(failing, failing)
        events, node = await run(provider, llm_retries=1)

    assert len(stub.requests) == 2
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, False]
    assert node.status is AgentStatus.ERROR
    assert node.error == "the API failed mid-response (overloaded_error: Overloaded)"


@pytest.mark.anyio
async def test_a_stream_that_stalls_past_the_timeout_is_retried() -> None:
    async with StubServer() as stub, claude(stub, timeout_s=0.2) as provider:
        stub.reply(
            sse_reply([message_start(), *text("Wai").steps(0)[:2], Hold()]),
            sse_reply(response(text("Done."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.error == "the API stopped sending for 0.2 s mid-response"
    assert stub.disconnects == 1, "the stalled stream was closed"


# -- cancel and delete close the stream -----------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("command", ["cancel", "delete"])
async def test_stopping_an_agent_mid_stream_closes_the_connection_at_once(command: str) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply([message_start(input_tokens=40), *text("Slowly, ").steps(0)[:2], Hold()])
        )
        after, node = await stop_mid_stream(provider, stub, command)

    assert stub.disconnects == 1
    assert node.status is (AgentStatus.CANCELLED if command == "cancel" else AgentStatus.DELETED)
    cancelled = [e for e in after if e.type == "execution:cancelled"]
    assert [e.partial_text for e in cancelled] == ["Slowly, "]
    # The cut attempt was billed: its tokens so far count.
    (update,) = [e for e in after if e.type == "usage:updated"]
    assert update.delta.input_tokens == 40  # type: ignore[attr-defined]
    assert node.usage.input_tokens == 40 and node.cost_usd


# -- pause closes the stream; resume asks again -------------------------------------------------


def slow_then_whole(stub: StubServer) -> None:
    stub.reply(
        sse_reply([message_start(input_tokens=12), *text("Half an ").steps(0)[:2], Hold()]),
        sse_reply(response(text("A whole answer."), input_tokens=12, output_tokens=7)),
    )


@pytest.mark.anyio
async def test_pause_mid_stream_closes_the_connection_and_resume_asks_again() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        slow_then_whole(stub)
        events, node, history = await pause_mid_stream(provider, stub)

    assert stub.disconnects == 1
    first, second = stub.requests
    assert second.json() == first.json(), "the same request, from the start"
    assert second.headers["x-stainless-retry-count"] == "0", "a new request, not the SDK's retry"
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "A whole answer."
    assert "Half an" not in str(history), "the abandoned text never enters the conversation"
    model_events = ("text:delta", "llm:request", "llm:error", "llm:abandoned", "llm:response")
    assert [e.type for e in events if e.type in model_events] == [
        "llm:request",
        "text:delta",
        "llm:abandoned",
        "llm:request",
        "text:delta",
        "llm:response",
    ], "not a failure: no llm:error, and llm_retries=0 did not stop it"
    (abandoned,) = of_type(events, "llm:abandoned")
    assert abandoned.partial_text == "Half an "
    transcript = TranscriptBuilder()
    for event in events:
        transcript.apply(event)
    texts = [(i.text, i.interrupted) for i in transcript.items if i.kind == "text"]
    assert texts == [("Half an ", True), ("A whole answer.", False)]
    # The abandoned attempt's tokens count too: it was billed.
    assert [u.delta for u in of_type(events, "usage:updated")] == [
        Usage(input_tokens=12, output_tokens=1),
        Usage(input_tokens=12, output_tokens=7),
    ]
    assert node.usage == Usage(input_tokens=24, output_tokens=8)


@pytest.mark.anyio
async def test_a_steer_given_while_paused_goes_in_the_request_sent_again() -> None:
    """The call sent again on resume reads what the person said meanwhile (an agent making one
    call would otherwise end without it)."""
    async with StubServer() as stub, claude(stub) as provider:
        slow_then_whole(stub)
        await steer_while_paused_is_sent_again(provider, stub)


@pytest.mark.anyio
async def test_a_recorded_pause_replays_the_request_sent_again(tmp_path: Path) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        slow_then_whole(stub)
        recorder = RecordingProvider(provider, tmp_path)
        assert recorder.holds_connection, "the recorder passes the capability through"
        await pause_mid_stream(recorder, stub)

    outcomes = [
        json.loads((tmp_path / f"main-{i:04d}.json").read_text())["outcome"] for i in (0, 1)
    ]
    assert outcomes == ["closed", "complete"]
    events, node = await run(ReplayProvider(tmp_path))  # nobody pauses the replay

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "A whole answer."
    assert deltas(events) == ["A whole answer."], "the cut-off exchange is skipped"
    assert not of_type(events, "llm:abandoned")


# -- usage and cost ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_usage_and_cost_are_reported() -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply(
                response(
                    text("Cached."),
                    input_tokens=1000,
                    output_tokens=500,
                    cache_creation=2000,
                    cache_read=3000,
                )
            )
        )
        events, node = await run(provider)

    expected = Usage(
        input_tokens=1000,
        output_tokens=500,
        cache_creation_input_tokens=2000,
        cache_read_input_tokens=3000,
    )
    price = DEFAULT_PRICES.models[MODEL]
    cost = (
        1000 * price.input + 500 * price.output + 2000 * price.cache_write + 3000 * price.cache_read
    ) / 1e6
    (update,) = of_type(events, "usage:updated")
    assert update.delta == expected
    assert update.total == expected
    assert update.cost_usd == pytest.approx(cost)
    assert update.total_cost_usd == pytest.approx(cost)
    assert node.usage == expected
    assert node.cost_usd == pytest.approx(cost)


@pytest.mark.anyio
@pytest.mark.parametrize("failure", ["error event", "dropped connection"])
async def test_the_tokens_of_a_failed_attempt_count_in_usage_and_cost(failure: str) -> None:
    cut = stream_error() if failure == "error event" else Drop()
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(
            sse_reply([message_start(input_tokens=1000), *text("Half").steps(0)[:2], cut]),
            sse_reply(response(text("Whole."), input_tokens=1000, output_tokens=500)),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    failed, succeeded = (
        Usage(input_tokens=1000, output_tokens=1),
        Usage(input_tokens=1000, output_tokens=500),
    )
    updates = of_type(events, "usage:updated")
    assert [u.delta for u in updates] == [failed, succeeded]
    assert node.usage == failed + succeeded
    price = DEFAULT_PRICES.models[MODEL]
    cost = (2000 * price.input + 501 * price.output) / 1e6
    assert updates[-1].total_cost_usd == pytest.approx(cost)
    assert node.cost_usd == pytest.approx(cost)
    kinds = [e.type for e in events if e.type in ("usage:updated", "llm:error", "llm:response")]
    assert kinds == ["usage:updated", "llm:error", "usage:updated", "llm:response"]


# -- the key, recording and replay --------------------------------------------------------------


def tool_round_trip(stub: StubServer) -> None:
    """A run with thinking, a tool call, a failed attempt and its retry."""
    stub.reply(
        sse_reply(
            response(
                thinking("Need the port.", signature="sig-1"),
                tool_use("toolu_07", "lookup", '{"query":', ' "port"}'),
                stop_reason="tool_use",
            )
        ),
        sse_reply([message_start(), *text("The po").steps(0), stream_error("api_error", "oops")]),
        sse_reply(response(text("The port ", "is 8080."))),
    )


@pytest.mark.anyio
async def test_the_api_key_never_appears_in_events_recordings_or_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, the SDK's and httpx2's included
    async with StubServer() as stub, claude(stub, thinking_budget=1024) as provider:
        tool_round_trip(stub)
        stub.reply(error_reply(401, "authentication_error", "invalid x-api-key"))
        recorder = RecordingProvider(provider, tmp_path)
        events, node = await run(recorder)
        bad_key_events, _ = await run(recorder, "again")

    assert node.status is AgentStatus.COMPLETED
    assert all(r.headers["authorization"] == f"Bearer {SECRET}" for r in stub.requests)
    assert "Sending HTTP Request" in caplog.text, "the SDK's debug log was captured"
    everything = [
        *(e.model_dump_json() for e in events + bad_key_events),
        *(path.read_text() for path in tmp_path.iterdir()),
        caplog.text,
    ]
    assert len(list(tmp_path.iterdir())) == 4
    assert not [text for text in everything if SECRET in text]


@pytest.mark.anyio
async def test_record_then_replay_gives_identical_events(tmp_path: Path) -> None:
    async with StubServer() as stub, claude(stub, thinking_budget=1024) as provider:
        tool_round_trip(stub)
        recorded, recorded_node = await run(RecordingProvider(provider, tmp_path))

    replayed, replayed_node = await run(ReplayProvider(tmp_path))

    assert recorded_node.status is AgentStatus.COMPLETED
    assert [e.type for e in recorded].count("llm:error") == 1
    assert [e.model_dump() for e in replayed] == [e.model_dump() for e in recorded]
    assert replayed_node.model_dump() == recorded_node.model_dump()


@pytest.mark.anyio
async def test_replay_refuses_a_request_that_differs_from_the_recording(tmp_path: Path) -> None:
    async with StubServer() as stub, claude(stub) as provider:
        stub.reply(sse_reply(response(text("Recorded."))))
        await run(RecordingProvider(provider, tmp_path))

    events, node = await run(ReplayProvider(tmp_path), "Another task")

    assert node.status is AgentStatus.ERROR
    assert node.error is not None
    assert "differs from the recording main-0000.json at messages[0].content[0].text" in node.error
    assert '"What is the port?"' in node.error and '"Another task"' in node.error
    assert [e.retryable for e in of_type(events, "llm:error")] == [False]
