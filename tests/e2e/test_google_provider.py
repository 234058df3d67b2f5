"""Gemini end to end: the real google-genai SDK and the full runtime against the local stub server.

No internet: the provider points the SDK at 127.0.0.1 (`base_url`), as a person would point it
at another endpoint. Waits are on events and conditions, each under an `anyio.fail_after` safety
net; the loop retries without waiting (`retry_backoff_s=0`), and the SDK never retries itself.
"""

from __future__ import annotations

import json
import logging
from collections import deque
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.attach import attach_monologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.conversation import user_text
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    ProviderRequest,
    ToolSpec,
    ToolUseStart,
    ToolUseStop,
)
from agentui.core.providers.record.recorder import RecordingProvider
from agentui.core.providers.record.replay import ReplayProvider
from agentui.core.runtime import Runtime
from agentui.core.session.export import export_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state.transcript import TranscriptBuilder
from agentui.core.support.clock import FrozenClock
from agentui.core.support.pricing import DEFAULT_PRICES
from agentui.core.tools.registry import ToolRegistry
from agentui.core.workflow.decisions import DECISIONS

from .gemini_api import (
    MODEL,
    MinimalGemini,
    blocked_prompt,
    call,
    chunk,
    error_reply,
    response,
    signature,
    stream_error,
    text,
    thought,
    usage,
    wire_parts,
)
from .provider_runs import (
    INSTRUCTIONS,
    SAFETY_S,
    TASK,
    deltas,
    lookup,
    make_runtime,
    of_type,
    pause_mid_stream,
    run,
    steer_while_paused_is_sent_again,
    stop_mid_stream,
)
from .stub_server import Drop, Hold, Reply, SeenRequest, StubServer, sse_reply

if TYPE_CHECKING:
    from agentui.core.providers.google.provider import GoogleProvider

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

SECRET = "AIzaSy-test-SECRET-key"
UNBUDGETED_ROOM = 8192  # request.UNBUDGETED_THINKING_ROOM


def gemini(stub: StubServer, *, timeout_s: float = 30.0, **options: Any) -> GoogleProvider:
    """The provider as a person configures it, pointed at the stub (the runtime closes it)."""
    from agentui.core.providers.google.provider import GoogleProvider

    return GoogleProvider(
        model=MODEL, api_key=SECRET, base_url=stub.url, timeout_s=timeout_s, **options
    )


# -- streaming -----------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_streamed_text_arrives_in_pieces_and_the_request_is_well_formed() -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("The port "), text("is "), text("8080."))))
        events, node = await run(gemini(stub))

    assert deltas(events) == ["The port ", "is ", "8080."]
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "The port is 8080."
    (request,) = stub.requests
    assert (request.method, request.path) == (
        "POST",
        f"/v1/models/{MODEL}:streamGenerateContent?alt=sse",
    )
    assert request.headers["x-goog-api-key"] == SECRET
    body = request.json()
    assert body["systemInstruction"]["parts"] == [{"text": INSTRUCTIONS}]
    assert body["contents"] == [{"role": "user", "parts": [{"text": TASK}]}]
    (declaration,) = body["tools"][0]["functionDeclarations"]
    assert declaration["name"] == "lookup"
    assert declaration["parameters_json_schema"]["properties"]["query"]["type"] == "string"
    config = body["generationConfig"]
    assert config == {"maxOutputTokens": 4096 + UNBUDGETED_ROOM}, "no thinking, no JSON mode"


@pytest.mark.anyio
async def test_two_function_calls_in_one_response_and_their_results_go_back_in_one_user_turn() -> (
    None
):
    async with StubServer() as stub:
        stub.reply(
            sse_reply(
                [
                    chunk(text("Checking both."), tokens=usage(20, 3)),
                    # Gemini sends each call whole; these two come in one chunk.
                    chunk(
                        call("lookup", {"query": "port"}, call_id="c-1", signed="sig-first"),
                        call("lookup", {"query": "host"}, call_id="c-2"),
                        finish="STOP",
                        tokens=usage(20, 9),
                    ),
                ]
            ),
            sse_reply(response(text("Port 8080 on host."))),
        )
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Port 8080 on host."
    (detected,) = of_type(events, "tool:detected")
    assert [(c.id, c.arguments) for c in detected.calls] == [
        ("c-1", {"query": "port"}),
        ("c-2", {"query": "host"}),
    ]
    assert [e.result for e in of_type(events, "tool:complete")] == ["port = 8080", "host = 8080"]
    (llm_response,) = of_type(events, "llm:response")[:1]
    assert llm_response.stop_reason == "tool_use"

    second = stub.requests[1]
    assert wire_parts(second, 1) == [
        {"text": "Checking both."},
        {
            "functionCall": {"id": "c-1", "name": "lookup", "args": {"query": "port"}},
            "thoughtSignature": signature("sig-first"),
        },
        {"functionCall": {"id": "c-2", "name": "lookup", "args": {"query": "host"}}},
    ]
    assert second.json()["contents"][1]["role"] == "model"
    assert second.json()["contents"][2] == {
        "role": "user",
        "parts": [
            {
                "functionResponse": {
                    "id": "c-1",
                    "name": "lookup",
                    "response": {"output": "port = 8080"},
                }
            },
            {
                "functionResponse": {
                    "id": "c-2",
                    "name": "lookup",
                    "response": {"output": "host = 8080"},
                }
            },
        ],
    }


@pytest.mark.anyio
async def test_a_call_without_an_id_gets_one_and_goes_back_without_it() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply(response(call("lookup", {"query": "port"}))),
            sse_reply(response(text("8080."))),
        )
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    (started,) = of_type(events, "tool:start")
    assert started.call.id, "the loop got an id to match the result with"
    assert wire_parts(stub.requests[1], 1) == [
        {"functionCall": {"name": "lookup", "args": {"query": "port"}}}
    ]
    assert wire_parts(stub.requests[1], 2) == [
        {"functionResponse": {"name": "lookup", "response": {"output": "port = 8080"}}}
    ]


@pytest.mark.anyio
async def test_a_thinking_budget_of_0_asks_for_the_least_thinking_the_model_takes() -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("8080."))))
        _, node = await run(gemini(stub, thinking_budget=0))  # --thinking-budget 0

    assert node.status is AgentStatus.COMPLETED
    (request,) = stub.requests
    config = request.json()["generationConfig"]
    assert config["thinkingConfig"] == {"thinking_level": "LOW"}, "not the model's default"
    assert config["maxOutputTokens"] == 4096 + UNBUDGETED_ROOM


@pytest.mark.anyio
async def test_thinking_streams_and_its_signed_thoughts_go_back_as_they_came() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply(
                response(
                    thought("I should "),
                    thought("look it up.", signed="sig-thought"),
                    call("lookup", {"query": "port"}, call_id="c-9"),
                    thoughts=40,
                )
            ),
            sse_reply(response(thought("Easy."), text("It is 8080."))),
        )
        events, node = await run(gemini(stub, thinking_budget=1024))

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "It is 8080."
    assert deltas(events, "thinking:delta") == ["I should ", "look it up.", "Easy."]
    first, second = (r.json() for r in stub.requests)
    assert first["generationConfig"]["thinkingConfig"] == {
        "include_thoughts": True,
        "thinking_budget": 1024,
    }
    assert first["generationConfig"]["maxOutputTokens"] == 4096 + 1024
    assert second["contents"][1]["parts"] == [
        {
            "text": "I should look it up.",
            "thought": True,
            "thoughtSignature": signature("sig-thought"),
        },
        {"functionCall": {"id": "c-9", "name": "lookup", "args": {"query": "port"}}},
    ]


# -- finish reasons and safety -------------------------------------------------------------------


@pytest.mark.anyio
async def test_max_tokens_completes_with_the_text_so_far() -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Cut her"), finish="MAX_TOKENS")))
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Cut her"
    assert of_type(events, "llm:response")[0].stop_reason == "max_tokens"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("finish", "message"),
    [
        ("SAFETY", "Gemini stopped the answer: it may break the safety policies (SAFETY)"),
        ("RECITATION", "Gemini stopped the answer: it may recite a source (RECITATION)"),
        (
            "PROHIBITED_CONTENT",
            "Gemini stopped the answer: it may hold prohibited content (PROHIBITED_CONTENT)",
        ),
    ],
)
async def test_an_answer_gemini_cut_off_ends_with_a_clear_error_and_is_not_retried(
    finish: str, message: str
) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Here is how to"), finish=finish)))
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.ERROR
    assert node.error == message
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is False
    assert deltas(events) == ["Here is how to"], "what was shown stays shown, marked by the error"
    assert len(stub.requests) == 1, "the same request would be cut off the same way"
    assert node.usage == Usage(input_tokens=12, output_tokens=7), "its tokens were billed"


@pytest.mark.anyio
async def test_a_blocked_prompt_ends_with_its_reason() -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply(blocked_prompt("PROHIBITED_CONTENT", "Blocked by policy.")))
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.ERROR
    assert node.error == (
        "Gemini refused the prompt: it may hold prohibited content (PROHIBITED_CONTENT): "
        "Blocked by policy."
    )
    assert [e.kind for e in of_type(events, "execution:error")] == ["provider"]
    assert len(stub.requests) == 1


@pytest.mark.anyio
async def test_a_malformed_function_call_is_retried() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply(response(finish="MALFORMED_FUNCTION_CALL")),
            sse_reply(response(text("Fine."))),
        )
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.retryable is True
    assert llm_error.error == "the model sent a malformed function call (MALFORMED_FUNCTION_CALL)"


# -- faults before the first byte: the loop retries ----------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("status", "name", "message"),
    [
        (429, "RESOURCE_EXHAUSTED", "rate limited by the API (429): Quota exceeded."),
        (503, "UNAVAILABLE", "the API failed (503 UNAVAILABLE): Quota exceeded."),
        (500, "INTERNAL", "the API failed (500 INTERNAL): Quota exceeded."),
    ],
)
async def test_429_or_5xx_then_success_is_retried_by_the_loop(
    status: int, name: str, message: str
) -> None:
    async with StubServer() as stub:
        stub.reply(
            error_reply(status, name, "Quota exceeded."), sse_reply(response(text("Fine now.")))
        )
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Fine now."
    assert len(stub.requests) == 2, "the SDK does not retry: one request per attempt"
    assert stub.requests[0].body == stub.requests[1].body
    (llm_error,) = of_type(events, "llm:error")
    assert (llm_error.error, llm_error.retryable) == (message, True)


@pytest.mark.anyio
async def test_429_until_the_retries_run_out_shows_on_the_node_with_the_asked_wait() -> None:
    retry_info = [{"@type": "type.googleapis.com/google.rpc.RetryInfo", "retryDelay": "19s"}]
    async with StubServer() as stub:
        stub.reply(*[error_reply(429, "RESOURCE_EXHAUSTED", "Slow down.", retry_info)] * 5)
        events, node = await run(gemini(stub), llm_retries=2)

    assert len(stub.requests) == 3, "one attempt and the loop's 2 retries"
    assert node.status is AgentStatus.ERROR
    assert node.error == "rate limited by the API (429; it asks to wait 19s): Slow down."
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, True, False]
    assert "Traceback" not in node.error


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("status", "name", "message", "expected"),
    [
        (
            400,
            "INVALID_ARGUMENT",
            "API key not valid. Please pass a valid API key.",
            "the API key was rejected (check GOOGLE_API_KEY or GEMINI_API_KEY)",
        ),
        (
            404,
            "NOT_FOUND",
            "models/gemini-nope is not found for API version v1",
            "unknown model 'gemini-nope'",
        ),
        (
            400,
            "INVALID_ARGUMENT",
            "Invalid JSON payload received.",
            "the API rejected the request: Invalid JSON payload received.",
        ),
    ],
)
async def test_a_bad_key_model_or_request_gives_one_clear_message(
    status: int, name: str, message: str, expected: str
) -> None:
    from agentui.core.providers.google.provider import GoogleProvider

    async with StubServer() as stub:
        stub.reply(error_reply(status, name, message))
        provider = GoogleProvider(model="gemini-nope", api_key=SECRET, base_url=stub.url)
        events, node = await run(provider)

    assert len(stub.requests) == 1, "not worth a retry"
    assert node.status is AgentStatus.ERROR
    assert node.error == expected
    assert [e.error for e in of_type(events, "execution:error")] == [expected]


@pytest.mark.anyio
async def test_an_endpoint_that_refuses_connections_is_retried_then_named() -> None:
    from agentui.core.providers.google.provider import GoogleProvider

    async with StubServer() as stub:
        url = stub.url
    provider = GoogleProvider(model=MODEL, api_key=SECRET, base_url=url, timeout_s=5)
    events, node = await run(provider, llm_retries=1)

    assert node.status is AgentStatus.ERROR
    assert node.error == f"cannot reach the API at {url}"
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, False]


# -- faults after the first byte: the loop retries -----------------------------------------------


@pytest.mark.anyio
async def test_a_mid_stream_error_is_retried_and_its_partial_text_is_never_merged() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply([chunk(text("Half an ans"), tokens=usage(12, 2)), stream_error()]),
            sse_reply(response(text("A whole answer."))),
        )
        async with make_runtime(gemini(stub)) as runtime:
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
        "the API failed mid-response (503 UNAVAILABLE: The model is overloaded.)"
    )
    assert "Half an ans" not in str(history)
    assert len(stub.requests) == 2
    transcript = TranscriptBuilder()
    for event in events:
        transcript.apply(event)
    texts = [(i.text, i.interrupted) for i in transcript.items if i.kind == "text"]
    assert texts == [("Half an ans", True), ("A whole answer.", False)], "the partial is marked"


@pytest.mark.anyio
@pytest.mark.parametrize(
    ("chunked", "message"),
    [
        (True, "the connection to the API dropped mid-response"),
        # A close-delimited body cut short simply ends: without a finish reason.
        (False, "the response ended before it was complete"),
    ],
    ids=["chunked", "close-delimited"],
)
async def test_a_dropped_connection_is_retried(chunked: bool, message: str) -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply([chunk(text("Going"), tokens=usage(12, 1)), Drop()], chunked=chunked),
            sse_reply(response(text("Back again."))),
        )
        events, node = await run(gemini(stub))

    assert node.status is AgentStatus.COMPLETED
    assert node.result == "Back again."
    (llm_error,) = of_type(events, "llm:error")
    assert (llm_error.error, llm_error.retryable) == (message, True)
    assert deltas(events) == ["Going", "Back again."]


@pytest.mark.anyio
async def test_after_the_last_attempt_the_node_shows_the_error() -> None:
    failing = sse_reply(
        [chunk(text("Try"), tokens=usage(12, 1)), stream_error(500, "INTERNAL", "oops")]
    )
    async with StubServer() as stub:
        stub.reply(failing, failing)
        events, node = await run(gemini(stub), llm_retries=1)

    assert len(stub.requests) == 2
    assert [e.retryable for e in of_type(events, "llm:error")] == [True, False]
    assert node.status is AgentStatus.ERROR
    assert node.error == "the API failed mid-response (500 INTERNAL: oops)"


@pytest.mark.anyio
async def test_a_stream_that_stalls_past_the_timeout_is_retried() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply([chunk(text("Wai"), tokens=usage(12, 1)), Hold()]),
            sse_reply(response(text("Done."))),
        )
        events, node = await run(gemini(stub, timeout_s=0.2))

    assert node.status is AgentStatus.COMPLETED
    (llm_error,) = of_type(events, "llm:error")
    assert llm_error.error == "the API stopped sending for 0.2 s mid-response"
    assert stub.disconnects == 1, "the stalled stream was closed"


# -- cancel and delete close the stream -----------------------------------------------------------


@pytest.mark.anyio
@pytest.mark.parametrize("command", ["cancel", "delete"])
async def test_stopping_an_agent_mid_stream_closes_the_connection_at_once(command: str) -> None:
    async with StubServer() as stub:
        stub.reply(sse_reply([chunk(text("Slowly, "), tokens=usage(40, 1)), Hold()]))
        after, node = await stop_mid_stream(gemini(stub), stub, command)

    assert stub.disconnects == 1
    assert node.status is (AgentStatus.CANCELLED if command == "cancel" else AgentStatus.DELETED)
    cancelled = [e for e in after if e.type == "execution:cancelled"]
    assert [e.partial_text for e in cancelled] == ["Slowly, "]
    # The cut attempt was billed: its tokens so far count.
    (update,) = [e for e in after if e.type == "usage:updated"]
    assert update.delta == Usage(input_tokens=40, output_tokens=1)  # type: ignore[attr-defined]
    assert node.cost_usd


# -- pause closes the stream; resume asks again -------------------------------------------------


def slow_then_whole(stub: StubServer) -> None:
    stub.reply(
        sse_reply([chunk(text("Half an "), tokens=usage(12, 1)), Hold()]),
        sse_reply(response(text("A whole answer."), prompt=12, output=7)),
    )


@pytest.mark.anyio
async def test_pause_mid_stream_closes_the_connection_and_resume_asks_again() -> None:
    async with StubServer() as stub:
        slow_then_whole(stub)
        events, node, history = await pause_mid_stream(gemini(stub), stub)

    assert stub.disconnects == 1
    first, second = stub.requests
    assert second.body == first.body, "the same request, from the start"
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
    assert [u.delta for u in of_type(events, "usage:updated")] == [
        Usage(input_tokens=12, output_tokens=1),
        Usage(input_tokens=12, output_tokens=7),
    ]
    assert node.usage == Usage(input_tokens=24, output_tokens=8)


@pytest.mark.anyio
async def test_a_steer_given_while_paused_goes_in_the_request_sent_again() -> None:
    """The call sent again on resume reads what the person said meanwhile (an agent making one
    call would otherwise end without it)."""
    async with StubServer() as stub:
        slow_then_whole(stub)
        await steer_while_paused_is_sent_again(gemini(stub), stub)


@pytest.mark.anyio
async def test_a_recorded_pause_replays_the_request_sent_again(tmp_path: Path) -> None:
    async with StubServer() as stub:
        slow_then_whole(stub)
        recorder = RecordingProvider(gemini(stub), tmp_path)
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


# -- usage and cost ------------------------------------------------------------------------------


@pytest.mark.anyio
async def test_usage_and_cost_are_reported_with_cached_and_thinking_tokens() -> None:
    async with StubServer() as stub:
        stub.reply(
            sse_reply(response(text("Cached."), prompt=4000, output=500, thoughts=300, cached=3000))
        )
        events, node = await run(gemini(stub))

    # Gemini's prompt count holds the cached tokens; its thinking is billed as output.
    expected = Usage(input_tokens=1000, output_tokens=800, cache_read_input_tokens=3000)
    price = DEFAULT_PRICES.models[MODEL]
    cost = (1000 * price.input + 800 * price.output + 3000 * price.cache_read) / 1e6
    updates = of_type(events, "usage:updated")
    assert updates[-1].total == expected
    assert updates[-1].total_cost_usd == pytest.approx(cost)
    assert node.usage == expected
    assert node.cost_usd == pytest.approx(cost)


@pytest.mark.anyio
async def test_a_model_missing_from_the_price_table_shows_tokens_without_a_cost() -> None:
    from agentui.core.providers.google.provider import GoogleProvider

    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("Hi."), prompt=100, output=5)))
        provider = GoogleProvider(model="gemini-9-ultra", api_key=SECRET, base_url=stub.url)
        events, node = await run(provider)

    assert node.usage == Usage(input_tokens=100, output_tokens=5)
    assert node.cost_usd is None
    assert of_type(events, "usage:updated")[-1].cost_usd is None


# -- the narrator and the six-step workflow ------------------------------------------------------


@pytest.mark.anyio
async def test_the_narrator_runs_on_gemini() -> None:
    narrator_model = "gemini-3.1-flash-lite"
    agent_replies = deque(
        [
            sse_reply(response(call("lookup", {"query": "port"}, call_id="c-1"))),
            sse_reply(response(text("It is 8080."))),
        ]
    )

    def answer(request: SeenRequest) -> Reply:  # by the model asked: agent and narrator interleave
        if f"/models/{narrator_model}:" in request.path:
            return sse_reply(response(text("I looked the port up.")))
        return agent_replies.popleft()

    async with StubServer(answer) as stub:
        async with make_runtime(gemini(stub)) as runtime:
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
    narrated = [r for r in stub.requests if narrator_model in r.path]
    assert narrated, "the narrator asked Gemini"
    assert all("tools" not in r.json() for r in narrated)


@pytest.mark.anyio
async def test_the_six_step_workflow_completes_with_structured_decisions() -> None:
    steps = ["clarify", "questions", "subquestions", "resolution"]
    async with StubServer(MinimalGemini(plain_text="The offsite is planned.")) as stub:
        runtime = Runtime(
            gemini(stub), limits=Limits(retry_backoff_s=0), clock=FrozenClock(), workflow="six-step"
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
    assert [e.value for e in made] == [DECISIONS[d]().model_dump(mode="json") for d in steps]
    bodies = [r.json() for r in stub.requests]
    structured = [b for b in bodies if "responseJsonSchema" in b["generationConfig"]]
    assert len(structured) == len(steps), "each decision held to its schema, the answer free"
    for body in structured:
        assert body["generationConfig"]["responseMimeType"] == "application/json"
        assert "tools" not in body
        assert body["generationConfig"]["thinkingConfig"] == {"thinking_level": "LOW"}, (
            "a decision is a quick judgement: the least thinking Gemini 3 takes"
        )


@pytest.mark.anyio
async def test_a_json_profile_s_answer_is_held_to_its_schema() -> None:
    async with StubServer(MinimalGemini()) as stub, make_runtime(gemini(stub)) as runtime:
        agent_id = runtime.start("Review the plan.", profile="critic")
        with anyio.fail_after(SAFETY_S):
            node = await runtime.wait(agent_id)
        payload = runtime.payload(agent_id)

    assert node.status is AgentStatus.COMPLETED, node.error
    assert payload == {
        "verdict": "accept",
        "score": 1,
        "summary": "x",
        "strengths": [],
        "problems": [],
    }, "the least the critic's schema allows, validated"
    (request,) = stub.requests
    config = request.json()["generationConfig"]
    assert config["responseMimeType"] == "application/json"
    assert config["responseJsonSchema"]["required"] == [
        "verdict",
        "score",
        "summary",
        "strengths",
        "problems",
    ]


@pytest.mark.anyio
async def test_json_beside_function_calls_on_gemini_3_streams_without_sdk_warnings(
    caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The SDK warns once per process; make this test the first time.
    from google.genai import types

    monkeypatch.setattr(types, "_response_text_non_text_warning_logged", False)
    caplog.set_level(logging.WARNING)
    request = ProviderRequest(
        model=MODEL,
        instructions="Answer in JSON.",
        messages=[user_text(TASK)],
        tools=[ToolSpec("lookup", "Look a setting up.", {"type": "object"})],
        response_schema={"type": "object", "properties": {"port": {"type": "integer"}}},
    )
    async with StubServer() as stub:
        stub.reply(sse_reply(response(text("{"), call("lookup", {"query": "port"}, call_id="c"))))
        provider = gemini(stub)
        try:
            with anyio.fail_after(SAFETY_S):
                streamed = [event async for event in provider.stream(request)]
        finally:
            await provider.aclose()

    assert [e for e in streamed if isinstance(e, ToolUseStart | ToolUseStop)] == [
        ToolUseStart("c", "lookup"),
        ToolUseStop("c"),
    ]
    body = stub.requests[0].json()
    assert "tools" in body and "responseJsonSchema" in body["generationConfig"]
    assert caplog.text == "", "the SDK's note on function-call chunks stays off the terminal"


# -- the key, recording and replay --------------------------------------------------------------


def tool_round_trip(stub: StubServer) -> None:
    """A run with thinking, a function call, a failed attempt and its retry."""
    stub.reply(
        sse_reply(
            response(
                thought("Need the port.", signed="sig-1"),
                call("lookup", {"query": "port"}, call_id="c-7"),
            )
        ),
        sse_reply(
            [chunk(text("The po"), tokens=usage(12, 1)), stream_error(500, "INTERNAL", "oops")]
        ),
        sse_reply(response(text("The port "), text("is 8080."))),
    )


@pytest.mark.anyio
async def test_the_api_key_never_appears_in_events_sessions_exports_recordings_or_logs(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.DEBUG)  # every logger, the SDK's and httpx2's included
    recordings, sessions = tmp_path / "recording", tmp_path / "sessions"
    async with StubServer() as stub:
        tool_round_trip(stub)
        stub.reply(error_reply(400, "INVALID_ARGUMENT", "API key not valid."))
        writer = SessionWriter(NewSession(provider="google", model=MODEL, directory=sessions))
        runtime = RecordingRuntime(
            RecordingProvider(gemini(stub, thinking_budget=1024), recordings, redact=[SECRET]),
            session=writer,
            tools=ToolRegistry([lookup]),
            limits=Limits(retry_backoff_s=0),
            clock=FrozenClock(),
        )
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            first = runtime.start(TASK)
            with anyio.fail_after(SAFETY_S):
                node = await runtime.wait(first)
                bad_key = await runtime.wait(runtime.start("again"))

    assert node.status is AgentStatus.COMPLETED
    assert bad_key.error == "the API key was rejected (check GOOGLE_API_KEY or GEMINI_API_KEY)"
    assert all(r.headers["x-goog-api-key"] == SECRET for r in stub.requests)
    assert "HTTP Request: POST" in caplog.text, "httpx2's log was captured"
    assert writer.path is not None
    log = read_session(writer.path)
    everything = [
        *(e.model_dump_json() for e in events.drain()),
        *(path.read_text() for path in recordings.iterdir()),
        writer.path.read_text(),
        export_session(log, "md"),
        export_session(log, "json"),
        caplog.text,
    ]
    assert len(list(recordings.iterdir())) == 4
    assert not [text for text in everything if SECRET in text]


@pytest.mark.anyio
async def test_record_then_replay_gives_identical_events(tmp_path: Path) -> None:
    async with StubServer() as stub:
        tool_round_trip(stub)
        recorded, recorded_node = await run(
            RecordingProvider(gemini(stub, thinking_budget=1024), tmp_path)
        )

    replayed, replayed_node = await run(ReplayProvider(tmp_path))

    assert recorded_node.status is AgentStatus.COMPLETED
    assert [e.type for e in recorded].count("llm:error") == 1
    assert [e.model_dump() for e in replayed] == [e.model_dump() for e in recorded]
    assert replayed_node.model_dump() == recorded_node.model_dump()
