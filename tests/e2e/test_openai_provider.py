"""OpenAI end to end: the real openai SDK and the full runtime against the local stub server
speaking Chat Completions (`/v1/chat/completions`, data-only SSE ending in `data: [DONE]`).

No internet: the SDK talks to 127.0.0.1. Waits are on events and conditions, each under an
`anyio.fail_after` safety net; SDK retries wait 1 ms (`retry-after-ms`), the loop's not at all.
"""

from __future__ import annotations

import asyncio
import json
import logging
from collections import deque
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.attach import attach_monologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.usage import Usage
from agentui.core.providers.openai.request import Dialect
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.runtime import Runtime
from agentui.core.state.transcript import TranscriptBuilder
from agentui.core.support.clock import FrozenClock
from agentui.core.support.pricing import DEFAULT_PRICES
from agentui.core.workflow.decisions import DECISIONS

from .chat_completions_api import (
    MODEL,
    MinimalChatModel,
    chunk,
    completion,
    content,
    error_reply,
    reasoning,
    stream_error,
    tool_call,
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
from .stub_server import (
    Drop,
    Hold,
    Reply,
    SeenRequest,
    StubServer,
    minimal_instance,
    sse_reply,
)

if TYPE_CHECKING:
    from agentui.core.providers.openai.provider import OpenAIProvider

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

SECRET = "sk-test-OPENAI-SECRET"
RETRY_NOW = {"retry-after-ms": "1"}
OPENAI_DIALECT = Dialect.for_server("https://api.openai.com/v1")


@asynccontextmanager
async def gpt(
    stub: StubServer, *, max_retries: int = 2, timeout_s: float = 30.0, **options: Any
) -> AsyncIterator[OpenAIProvider]:
    import openai

    from agentui.core.providers.openai.provider import OpenAIProvider

    client = openai.AsyncOpenAI(
        base_url=f"{stub.url}/v1", api_key=SECRET, max_retries=max_retries, timeout=timeout_s
    )
    options.setdefault("model", MODEL)
    try:
        yield OpenAIProvider(client=client, timeout_s=timeout_s, **options)
    finally:
        await client.close()


def half_a_reply(text: str = "Half an ans") -> list[Any]:
    """A stream that began: the role chunk and a first piece of text."""
    return [chunk({"role": "assistant", "content": ""}), *content(text)]


# -- streaming -----------------------------------------------------------------------------------


async def test_streamed_text_arrives_in_pieces_and_the_request_is_well_formed() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(sse_reply(completion(content("The port ", "is ", "8080."))))
        events, node = await run(provider)

    assert deltas(events) == ["The port ", "is ", "8080."]
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The port is 8080."
    (request,) = stub.requests
    assert (request.method, request.path) == ("POST", "/v1/chat/completions")
    assert request.headers["authorization"] == f"Bearer {SECRET}"
    body = request.json()
    assert body["model"] == MODEL
    assert body["stream"] is True
    assert body["stream_options"] == {"include_usage": True}
    assert body["messages"] == [
        {"role": "system", "content": INSTRUCTIONS},
        {"role": "user", "content": TASK},
    ], "a compatible server gets the instructions as a system message"
    assert body["tools"][0]["type"] == "function"
    assert body["tools"][0]["function"]["name"] == "lookup"
    assert body["tools"][0]["function"]["parameters"]["properties"]["query"]["type"] == "string"
    assert body["max_completion_tokens"] == 4096, "OpenAI's model, wherever it is served"
    assert "max_tokens" not in body


async def test_on_openai_the_instructions_are_a_developer_message() -> None:
    async with StubServer() as stub, gpt(stub, dialect=OPENAI_DIALECT, thinking_budget=2048) as p:
        stub.reply(sse_reply(completion(content("Hi."))))
        _, node = await run(p)

    assert node.status is AgentStatus.COMPLETED
    body = stub.requests[0].json()
    assert body["messages"][0] == {"role": "developer", "content": INSTRUCTIONS}
    assert body["max_completion_tokens"] == 4096 + 2048, "room to reason before the answer"
    assert "max_tokens" not in body


async def test_two_parallel_tool_calls_in_many_pieces_and_their_results_as_tool_messages() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            sse_reply(
                completion(
                    content("Checking both."),
                    tool_call(0, "call_web", "lookup", '{"qu', 'ery": "w', 'eb"}'),
                    tool_call(1, "call_db", "lookup", '{"query"', ': "db"', "}"),
                    finish="tool_calls",
                )
            ),
            sse_reply(completion(content("Web 8080, db 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Web 8080, db 8080."
    started = of_type(events, "tool:start")
    assert [(e.call.id, e.call.arguments) for e in started] == [
        ("call_web", {"query": "web"}),
        ("call_db", {"query": "db"}),
    ]
    assert [e.result for e in of_type(events, "tool:complete")] == ["web = 8080", "db = 8080"]
    second = stub.requests[1].json()
    assert second["messages"][2:] == [
        {
            "role": "assistant",
            "content": "Checking both.",
            "tool_calls": [
                {
                    "id": "call_web",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"query": "web"}'},
                },
                {
                    "id": "call_db",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"query": "db"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_web", "content": "web = 8080"},
        {"role": "tool", "tool_call_id": "call_db", "content": "db = 8080"},
    ]


async def test_reasoning_content_streams_as_thinking_and_never_goes_back() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            sse_reply(
                completion(
                    reasoning("I should ", "look it up."),
                    tool_call(0, "call_1", "lookup", '{"query": "port"}'),
                    finish="tool_calls",
                )
            ),
            sse_reply(completion(reasoning("Found.", field="reasoning"), content("It is 8080."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert deltas(events, "thinking:delta") == ["I should ", "look it up.", "Found."]
    assistant = stub.requests[1].json()["messages"][2]
    assert assistant == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {
                "id": "call_1",
                "type": "function",
                "function": {"name": "lookup", "arguments": '{"query": "port"}'},
            }
        ],
    }, "DeepSeek refuses reasoning_content in a request"


# -- finish reasons -----------------------------------------------------------------------------


async def test_length_completes_with_the_cut_text_and_says_so() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(sse_reply(completion(content("Cut her"), finish="length")))
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Cut her"
    (completed,) = of_type(events, "execution:complete")
    assert completed.stop_reason == "max_tokens"


@pytest.mark.parametrize(
    ("parts", "finish", "message"),
    [
        ([content("Once upon")], "content_filter", "content filter withheld the rest"),
        ([[chunk({"refusal": "I can't help with that."})]], "stop", "the model refused: I can't"),
    ],
    ids=["content_filter", "refusal"],
)
async def test_a_filtered_or_refused_answer_ends_with_a_clear_error(
    parts: list[Any], finish: str, message: str
) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(sse_reply(completion(*parts, finish=finish)))
        events, node = await run(provider)

    assert node.status is AgentStatus.ERROR
    assert node.error is not None and message in node.error
    assert [e.retryable for e in of_type(events, "llm:error")] == [False]
    assert len(stub.requests) == 1, "not retried: the same request would end the same way"


# -- faults the SDK retries before the first byte ------------------------------------------------


async def test_429_then_success_is_retried_by_the_sdk() -> None:
    async with StubServer() as stub, gpt(stub, max_retries=2) as provider:
        stub.reply(
            error_reply(429, "Rate limit reached", "requests", RETRY_NOW),
            sse_reply(completion(content("Fine now."))),
        )
        with anyio.fail_after(2):  # the SDK's own backoff would be ~0.5 s; 1 ms was asked for
            events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Fine now."
    assert len(stub.requests) == 2
    assert stub.requests[1].headers["x-stainless-retry-count"] == "1"
    assert not of_type(events, "llm:error"), "the SDK's retry is invisible to the loop"


async def test_a_500_until_the_retries_run_out_shows_on_the_node() -> None:
    async with StubServer() as stub, gpt(stub, max_retries=1) as provider:
        stub.reply(*[error_reply(500, "The server had an error", "server_error", RETRY_NOW)] * 3)
        events, node = await run(provider)

    assert len(stub.requests) == 2
    assert node.status is AgentStatus.ERROR
    assert node.error == "the server failed (500), also after retries: The server had an error"
    assert [e.retryable for e in of_type(events, "llm:error")] == [False]


@pytest.mark.parametrize(
    ("reply", "expected"),
    [
        (
            error_reply(401, "Incorrect API key provided"),
            "the key was refused by {url}/v1 (check OPENAI_API_KEY)",
        ),
        (
            error_reply(404, "model 'llama9' not found, try pulling it first"),
            "unknown model 'gpt-5.4' at {url}/v1: model 'llama9' not found, try pulling it first",
        ),
        (
            error_reply(400, "This model's maximum context length is 8192 tokens"),
            "the server rejected the request: This model's maximum context length is 8192 tokens",
        ),
    ],
    ids=["401", "404 model", "400"],
)
async def test_a_request_the_server_refuses_ends_with_a_short_message(
    reply: Any, expected: str
) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(reply)
        _, node = await run(provider)
        url = stub.url

    assert len(stub.requests) == 1, "not worth a retry"
    assert node.status is AgentStatus.ERROR
    assert node.error == expected.format(url=url)


async def test_a_server_that_refuses_stream_options_is_asked_again_without_them() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            error_reply(400, "Unrecognized request argument supplied: stream_options"),
            sse_reply(completion(content("No usage here."), usage=False)),
            sse_reply(completion(content("Nor here."), usage=False)),
        )
        events, node = await run(provider)
        _, second = await run(provider, "again")

    assert (node.status, second.status) == (AgentStatus.COMPLETED, AgentStatus.COMPLETED)
    bodies = [r.json() for r in stub.requests]
    assert ["stream_options" in b for b in bodies] == [True, False, False], "remembered"
    assert not of_type(events, "llm:error"), "within the attempt: not a failure"
    assert node.usage == Usage(), "a server without usage: tokens unknown, none made up"


async def test_two_requests_refused_for_the_same_feature_at_once_both_go_on_without_it() -> None:
    both_sent = asyncio.Event()
    refusals = 0

    def refuse_both_then_answer(request: SeenRequest) -> Reply:
        nonlocal refusals
        if "stream_options" not in request.json():
            return sse_reply(completion(content("8080.")))
        refusals += 1
        if refusals == 2:
            both_sent.set()
        # Neither refusal arrives before both requests went out with the feature.
        refusal = error_reply(400, "Unrecognized request argument supplied: stream_options")
        refusal.after = both_sent
        return refusal

    async with (
        StubServer(refuse_both_then_answer) as stub,
        gpt(stub, dialect=Dialect()) as provider,
    ):
        runtime = make_runtime(provider)
        async with runtime:
            ids = [runtime.start(TASK), runtime.start(TASK)]
            with anyio.fail_after(SAFETY_S):
                nodes = [await runtime.wait(agent_id) for agent_id in ids]

    assert [n.status for n in nodes] == [AgentStatus.COMPLETED] * 2, [n.error for n in nodes]
    assert provider.dialect.stream_usage is False
    sent = [("stream_options" in r.json()) for r in stub.requests]
    assert sorted(sent) == [False, False, True, True], "each asked again once, without it"


async def test_a_server_that_refuses_the_developer_role_gets_system() -> None:
    async with StubServer() as stub, gpt(stub, dialect=OPENAI_DIALECT) as provider:
        stub.reply(
            error_reply(400, "Invalid value: 'developer'. Supported values are: 'system'"),
            sse_reply(completion(content("Hi."))),
        )
        _, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    first, second = (r.json()["messages"][0]["role"] for r in stub.requests)
    assert (first, second) == ("developer", "system")


# -- faults after the first byte: agentui retries ------------------------------------------------


async def test_a_mid_stream_error_is_retried_and_its_partial_text_is_never_merged() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            sse_reply([*half_a_reply(), stream_error()]),
            sse_reply(completion(content("A whole answer."))),
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
    assert llm_error.error == (
        "the server failed mid-response (server_error: The server had an error)"
    )
    assert "Half an ans" not in str(history)
    transcript = TranscriptBuilder()
    for event in events:
        transcript.apply(event)
    texts = [(i.text, i.interrupted) for i in transcript.items if i.kind == "text"]
    assert texts == [("Half an ans", True), ("A whole answer.", False)]


async def test_a_mid_stream_error_that_blames_the_request_is_not_retried() -> None:
    """vLLM puts the status it would have answered in the error's code."""
    blame = stream_error("grammar too complex", "BadRequestError", code=400)
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(sse_reply([*half_a_reply(), blame]))
        events, node = await run(provider)

    assert len(stub.requests) == 1
    assert node.status is AgentStatus.ERROR
    assert node.error == "the server failed mid-response (BadRequestError: grammar too complex)"
    assert [e.retryable for e in of_type(events, "llm:error")] == [False]


@pytest.mark.parametrize("chunked", [True, False], ids=["chunked", "close-delimited"])
async def test_a_dropped_connection_is_retried(chunked: bool) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            sse_reply([*half_a_reply("Going"), Drop()], chunked=chunked),
            sse_reply(completion(content("Back again."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Back again."
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is True
    assert llm_error.error in (
        "the connection to the server dropped mid-response",
        "the response ended before it was complete",  # close-delimited: the body just ends
    )
    assert deltas(events) == ["Going", "Back again."]


async def test_after_the_last_attempt_the_node_shows_the_error() -> None:
    failing = sse_reply([*half_a_reply("Try"), stream_error()])
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(failing, failing)
        events, node = await run(provider, llm_retries=1)

    assert len(stub.requests) == 2
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, False]
    assert node.status is AgentStatus.ERROR
    assert node.error == "the server failed mid-response (server_error: The server had an error)"


async def test_a_stream_that_stalls_past_the_timeout_is_retried() -> None:
    async with StubServer() as stub, gpt(stub, timeout_s=0.2) as provider:
        stub.reply(
            sse_reply([*half_a_reply("Wai"), Hold()]),
            sse_reply(completion(content("Done."))),
        )
        events, node = await run(provider)

    assert node.status is AgentStatus.COMPLETED
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.error == "the server stopped sending for 0.2 s mid-response"
    assert stub.disconnects == 1, "the stalled stream was closed"


# -- cancel and delete close the stream -----------------------------------------------------------


@pytest.mark.parametrize("command", ["cancel", "delete"])
async def test_stopping_an_agent_mid_stream_closes_the_connection_at_once(command: str) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(sse_reply([*half_a_reply("Slowly, "), Hold()]))
        after, node = await stop_mid_stream(provider, stub, command)

    assert stub.disconnects == 1
    assert node.status is (AgentStatus.CANCELLED if command == "cancel" else AgentStatus.DELETED)
    cancelled = [e for e in after if e.type == "execution:cancelled"]
    assert [e.partial_text for e in cancelled] == ["Slowly, "]


# -- pause closes the stream; resume asks again -------------------------------------------------


def slow_then_whole(stub: StubServer) -> None:
    stub.reply(
        sse_reply([*half_a_reply("Half an "), Hold()]),
        sse_reply(completion(content("A whole answer."), prompt=12, completion_tokens=7)),
    )


async def test_pause_mid_stream_closes_the_connection_and_resume_asks_again() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
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
    assert node.usage == Usage(input_tokens=12, output_tokens=7)


async def test_a_steer_given_while_paused_goes_in_the_request_sent_again() -> None:
    """The call sent again on resume reads what the person said meanwhile (an agent making one
    call would otherwise end without it)."""
    async with StubServer() as stub, gpt(stub) as provider:
        slow_then_whole(stub)
        await steer_while_paused_is_sent_again(provider, stub)


async def test_a_recorded_pause_replays_the_request_sent_again(tmp_path: Path) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        slow_then_whole(stub)
        recorder = RecordingProvider(provider, tmp_path)
        assert recorder.holds_connection, "the recorder passes the capability through"
        await pause_mid_stream(recorder, stub)

    outcomes = [
        json.loads((tmp_path / f"main-{i:04d}.json").read_text())["outcome"] for i in (0, 1)
    ]
    assert outcomes == ["closed", "complete"]
    events, node = await run(ReplayProvider(tmp_path))

    assert node.status is AgentStatus.COMPLETED
    assert deltas(events) == ["A whole answer."], "the cut-off exchange is skipped"


# -- usage and cost ------------------------------------------------------------------------------


async def test_usage_and_cost_are_reported() -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        stub.reply(
            sse_reply(
                completion(content("Cached."), prompt=3000, completion_tokens=500, cached=2000)
            )
        )
        events, node = await run(provider)

    expected = Usage(input_tokens=1000, output_tokens=500, cache_read_input_tokens=2000)
    price = DEFAULT_PRICES.models[MODEL]
    cost = (1000 * price.input + 500 * price.output + 2000 * price.cache_read) / 1e6
    (update,) = of_type(events, "usage:updated")
    assert update.delta == expected
    assert update.cost_usd == pytest.approx(cost)
    assert node.usage == expected
    assert node.cost_usd == pytest.approx(cost)


async def test_a_local_model_shows_its_tokens_without_a_cost() -> None:
    async with StubServer() as stub, gpt(stub, model="qwen3:8b") as provider:
        stub.reply(sse_reply(completion(content("Local."), prompt=40, completion_tokens=9)))
        events, node = await run(provider)

    (update,) = of_type(events, "usage:updated")
    assert update.delta == Usage(input_tokens=40, output_tokens=9)
    assert update.cost_usd is None and node.cost_usd is None, "no price: no made-up cost"
    assert stub.requests[0].json()["model"] == "qwen3:8b"


# -- the key, recording and replay --------------------------------------------------------------


def tool_round_trip(stub: StubServer) -> None:
    """A run with reasoning, a tool call, a failed attempt and its retry."""
    stub.reply(
        sse_reply(
            completion(
                reasoning("Need the port."),
                tool_call(0, "call_7", "lookup", '{"query":', ' "port"}'),
                finish="tool_calls",
            )
        ),
        sse_reply([*half_a_reply("The po"), stream_error("oops")]),
        sse_reply(completion(content("The port ", "is 8080."))),
    )


async def test_the_api_key_never_appears_in_events_recordings_or_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, the SDK's and httpx2's included
    async with StubServer() as stub, gpt(stub) as provider:
        tool_round_trip(stub)
        stub.reply(error_reply(401, "Incorrect API key provided"))
        recorder = RecordingProvider(provider, tmp_path, redact=[SECRET])
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


async def test_record_then_replay_gives_identical_events(tmp_path: Path) -> None:
    async with StubServer() as stub, gpt(stub) as provider:
        tool_round_trip(stub)
        recorded, recorded_node = await run(RecordingProvider(provider, tmp_path))

    replayed, replayed_node = await run(ReplayProvider(tmp_path))

    assert recorded_node.status is AgentStatus.COMPLETED
    assert [e.type for e in recorded].count("llm:error") == 1
    assert [e.model_dump() for e in replayed] == [e.model_dump() for e in recorded]
    assert replayed_node.model_dump() == recorded_node.model_dump()


async def test_the_provider_closes_the_client_it_made_and_not_one_it_was_given() -> None:
    import openai

    from agentui.core.providers.openai.provider import OpenAIProvider

    async with StubServer() as stub:
        own = OpenAIProvider(model="qwen3:8b", base_url=f"{stub.url}/v1")
        given = openai.AsyncOpenAI(base_url=f"{stub.url}/v1", api_key=SECRET)
        borrowed = OpenAIProvider(client=given, model="m")
        await own.aclose()
        await borrowed.aclose()

    assert own._client.is_closed()
    assert not given.is_closed()
    await given.close()


def test_openai_itself_needs_a_key_but_a_local_server_does_not() -> None:
    from agentui.core.providers.openai.provider import OpenAIProvider
    from agentui.core.support.errors import AgentUIError

    with pytest.raises(AgentUIError, match="OPENAI_API_KEY is not set"):
        OpenAIProvider(model=MODEL)
    local = OpenAIProvider(model="llama3.1", base_url="http://127.0.0.1:11434/v1/")
    assert local.base_url == "http://127.0.0.1:11434/v1"
    assert local.dialect == Dialect(), "a compatible server's dialect"


# -- the narrator and the six-step workflow ------------------------------------------------------


async def test_the_narrator_runs_on_openai() -> None:
    narrator_model = "gpt-5.4-nano"
    agent_replies = deque(
        [
            sse_reply(
                completion(
                    tool_call(0, "call_1", "lookup", '{"query": "port"}'), finish="tool_calls"
                )
            ),
            sse_reply(completion(content("It is 8080."))),
        ]
    )

    def answer(request: SeenRequest) -> Reply:  # by the model asked: agent and narrator interleave
        if request.json()["model"] == narrator_model:
            return sse_reply(completion(content("I looked the port up.")))
        return agent_replies.popleft()

    async with StubServer(answer) as stub, gpt(stub) as provider:
        async with make_runtime(provider) as runtime:
            narration = attach_monologue(
                runtime, runtime.provider, MonologueConfig(model=narrator_model, max_buffer=1)
            )
            events = runtime.subscribe(maxsize=None)
            agent_id = runtime.start(TASK)
            with anyio.fail_after(SAFETY_S):
                node = await runtime.wait(agent_id)
                await narration.wait_idle()
        lines = [e.entry.text for e in events.drain() if e.type == "monologue"]

    assert node.result == "It is 8080."
    assert "I looked the port up." in lines
    narrated = [r.json() for r in stub.requests if r.json()["model"] == narrator_model]
    assert narrated, "the narrator asked its model on the same server"
    assert all("tools" not in body for body in narrated)


@pytest.mark.parametrize("dialect", [Dialect(), OPENAI_DIALECT], ids=["local", "openai"])
async def test_the_six_step_workflow_completes_with_structured_decisions(dialect: Dialect) -> None:
    steps = ["clarify", "questions", "subquestions", "resolution"]
    async with (
        StubServer(MinimalChatModel(plain_text="The offsite is planned.")) as stub,
        gpt(stub, dialect=dialect) as provider,
    ):
        runtime = Runtime(
            provider, limits=Limits(retry_backoff_s=0), clock=FrozenClock(), workflow="six-step"
        )
        async with runtime:
            events_sub = runtime.subscribe(maxsize=None)
            root = runtime.start("Plan a team offsite.")
            with anyio.fail_after(2 * SAFETY_S):
                node = await runtime.wait(root)
        events = events_sub.drain()

    assert node.status is AgentStatus.COMPLETED, node.error
    assert node.result == "The offsite is planned."
    made = of_type(events, "workflow:decision")
    assert [(e.decision, e.attempt, e.ok) for e in made] == [(d, 1, True) for d in steps]
    bodies = [r.json() for r in stub.requests]
    structured = [b for b in bodies if "response_format" in b]
    assert [b["response_format"]["json_schema"]["name"] for b in structured] == steps
    assert all(b["response_format"]["json_schema"]["strict"] is True for b in structured)
    # The strict schema requires every property, so the least answer names the question too.
    sent = [b["response_format"]["json_schema"]["schema"] for b in structured]
    assert [e.value for e in made] == [
        DECISIONS[d].model_validate(minimal_instance(schema)).model_dump(mode="json")
        for d, schema in zip(steps, sent, strict=True)
    ]
    assert all("tools" not in b for b in structured)
    assert len(bodies) == len(steps) + 1, "each decision held to its schema, the answer free"
