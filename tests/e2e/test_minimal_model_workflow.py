"""The six-step workflow on Claude's real SDK against a model that does the least it may.

The stub server's `MinimalModel` answers a request that asks for structured output with the
smallest instance of its JSON Schema, and anything else with plain text: a decision asked for
as free text gets no JSON at all (every run used to end at step 1 that way). Each fault hits
the first attempt of every request (a decision or the agent's turn); the attempt after it is
answered. No internet: the SDK talks to 127.0.0.1; waits are under `anyio.fail_after` safety
nets; SDK retries wait 1 ms, the loop's not at all.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any

import anyio
import pytest

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentNode, AgentStatus
from agentui.core.protocol.events import Event
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.workflow.decisions import DECISIONS

from .messages_api import message_start, stream_error, text
from .stub_server import (
    Drop,
    MinimalModel,
    Reply,
    SeenRequest,
    StubServer,
    error_reply,
    minimal_instance,
    sse_reply,
)

if TYPE_CHECKING:
    from agentui.core.providers.anthropic.provider import AnthropicProvider

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

SAFETY_S = 20  # a safety net against a hang, never a measurement
TASK = "Plan a team offsite."
ANSWER = "The offsite is planned."
STEPS = ["clarify", "questions", "subquestions", "resolution"]  # the decisions, in order


def _half_a_reply() -> list[Any]:
    """A stream that began: the message, and a first piece of its text."""
    return [message_start(), *text('{"ha').steps(0)[:2]]


FAULTS: dict[str, Reply | None] = {
    "none": None,
    "error event mid-stream": sse_reply([*_half_a_reply(), stream_error()]),
    "connection dropped mid-stream": sse_reply([*_half_a_reply(), Drop()]),
    "529 overloaded before the stream": error_reply(
        529, "overloaded_error", "Overloaded", {"retry-after-ms": "1"}
    ),
}


class FirstAttemptFails:
    """The model behind a fault: each distinct request fails once, then is answered."""

    def __init__(self, model: MinimalModel, fault: Reply | None) -> None:
        self._model = model
        self._fault = fault
        self._seen: set[bytes] = set()
        self.faults = 0

    def __call__(self, request: SeenRequest) -> Reply:
        if self._fault is None or request.body in self._seen:
            return self._model(request)
        self._seen.add(request.body)
        self.faults += 1
        return self._fault


@asynccontextmanager
async def claude(stub: StubServer, model: str) -> AsyncIterator[AnthropicProvider]:
    import anthropic

    from agentui.core.providers.anthropic.provider import AnthropicProvider

    client = anthropic.AsyncAnthropic(
        base_url=stub.url, api_key="sk-test-minimal", max_retries=2, timeout=30.0
    )
    try:
        yield AnthropicProvider(client=client, model=model, timeout_s=30.0)
    finally:
        await client.close()


async def run_six_steps(provider: AnthropicProvider) -> tuple[list[Event], AgentNode, Runtime]:
    runtime = Runtime(
        provider,
        limits=Limits(retry_backoff_s=0),
        clock=FrozenClock(),
        workflow="six-step",
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start(TASK)
        with anyio.fail_after(SAFETY_S):
            node = await runtime.wait(root)
    return events.drain(), node, runtime


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


@pytest.mark.parametrize("fault", list(FAULTS))
async def test_the_workflow_completes_on_a_minimal_model_under_each_fault(fault: str) -> None:
    responder = FirstAttemptFails(MinimalModel(plain_text=ANSWER), FAULTS[fault])
    async with StubServer(responder) as stub, claude(stub, "claude-sonnet-4-6") as provider:
        events, node, runtime = await run_six_steps(provider)

    assert node.status is AgentStatus.COMPLETED, node.error
    assert node.result == ANSWER
    # Every decision was answered within its schema at once: nothing retried, nothing assumed.
    made = of_type(events, "workflow:decision")
    assert [(e.decision, e.attempt, e.ok) for e in made] == [(d, 1, True) for d in STEPS]
    assert [e.value for e in made] == [DECISIONS[d]().model_dump(mode="json") for d in STEPS]
    report = runtime.workflow_report(node.id)
    assert report is not None and report.fallback_decisions == []
    assert report.questions == [] and report.children == []
    # What went over the wire: decisions asked for structured output, the agent's turn did not.
    bodies = [r.json() for r in stub.requests]
    structured = [b for b in bodies if "output_config" in b]
    assert len(structured) == len(bodies) - (2 if responder.faults else 1)
    for body in structured:
        schema = body["output_config"]["format"]["schema"]
        assert body["output_config"]["format"]["type"] == "json_schema"
        assert schema["additionalProperties"] is False
        assert "tools" not in body and "thinking" not in body
    plain = [b for b in bodies if "output_config" not in b]
    assert {json.dumps(b, sort_keys=True) for b in plain} == {
        json.dumps(plain[0], sort_keys=True)
    }, "only the agent's one turn (sent again after its fault) asked for free text"
    # Each request met the fault once and was answered the next time.
    distinct = {r.body for r in stub.requests}
    assert responder.faults == (0 if fault == "none" else len(distinct))
    assert len(stub.requests) == len(distinct) + responder.faults
    retried_by_the_loop = of_type(events, "llm:error")
    if fault in ("error event mid-stream", "connection dropped mid-stream"):
        assert len(retried_by_the_loop) == len(distinct)
        assert all(e.retryable for e in retried_by_the_loop)
    else:  # none; or a 529 the SDK retried before the stream began, unseen by the loop
        assert retried_by_the_loop == []


async def test_without_structured_output_decisions_fall_back_and_the_task_completes() -> None:
    """A model without structured output (before Claude 4.5) is asked in the instructions
    alone; the minimal model then answers decisions with plain text, never JSON."""
    async with (
        StubServer(MinimalModel(plain_text=ANSWER)) as stub,
        claude(stub, "claude-opus-4-1") as provider,
    ):
        events, node, runtime = await run_six_steps(provider)

    assert node.status is AgentStatus.COMPLETED, node.error
    assert node.result == ANSWER
    assert all("output_config" not in r.json() for r in stub.requests)
    notices = of_type(events, "llm:error")
    assert [e.error.split(":")[0] for e in notices] == [
        f"the model gave no valid answer to the {d!r} decision in 3 attempts" for d in STEPS
    ]
    assert all("Going on with the neutral answer" in e.error for e in notices)
    report = runtime.workflow_report(node.id)
    assert report is not None and report.fallback_decisions == STEPS


@pytest.mark.parametrize(
    ("schema", "least"),
    [
        ({"type": "object", "properties": {"a": {"type": "string"}}}, {}),
        (
            {
                "type": "object",
                "required": ["n", "tags", "kind", "name"],
                "properties": {
                    "n": {"type": "integer", "minimum": 3},
                    "tags": {"type": "array", "items": {"type": "string"}},
                    "kind": {"enum": ["b", "a"]},
                    "name": {"anyOf": [{"type": "string"}, {"type": "null"}]},
                },
            },
            {"n": 3, "tags": [], "kind": "b", "name": ""},
        ),
        (
            {"type": "array", "minItems": 2, "items": {"$ref": "#/$defs/F"}, "$defs": {"F": {}}},
            [{}, {}],
        ),
        ({"type": "boolean"}, False),
        ({"type": "number"}, 0),
    ],
)
def test_the_minimal_model_gives_the_least_each_schema_allows(
    schema: dict[str, Any], least: Any
) -> None:
    assert minimal_instance(schema) == least
