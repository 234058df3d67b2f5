"""A directed scene's director on OpenAI and Gemini: the shipped director profile's contract
goes out as a schema that leaves a state update's fields optional, so a director that changes
one field of a character's state changes only that one.

The stub models answer as a model held to the schema sent would: where the request asks for
constrained decoding (OpenAI's strict mode, Gemini's `responseJsonSchema`), every property the
sent schema requires is in the answer, made up when the director had nothing to say for it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.base import Provider
from agentui.core.providers.openai.request import Dialect
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock

from ..core.scene_helpers import acting, decision, harbour, play
from . import chat_completions_api as chat
from . import gemini_api as gemini
from .stub_server import Reply, SeenRequest, StubServer, held_to, sse_reply

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

CHARACTER_LINE = "*They nod.*"
# Round 1: Mara acts and only her mood changes; the second (reconciling) pass closes the round.
DIRECTOR_PASSES = [
    decision(acting_characters=acting("Mara"), state_updates=[{"name": "Mara", "mood": "wary"}]),
    decision(),
]


def sent_schema(body: dict[str, Any]) -> tuple[dict[str, Any] | None, bool]:
    """The JSON Schema a request holds its answer to, and whether decoding is held to it."""
    declared = body.get("response_format")
    if declared is not None:  # Chat Completions: held only in strict mode
        return declared["json_schema"]["schema"], declared["json_schema"]["strict"]
    schema = (body.get("generationConfig") or {}).get("responseJsonSchema")
    return schema, schema is not None  # Gemini holds the answer to a responseJsonSchema


def director_model(reply: Callable[[str], Reply]) -> Callable[[SeenRequest], Reply]:
    """Answers the director's requests with its passes in order, the characters with a line."""
    passes = list(DIRECTOR_PASSES)

    def answer(request: SeenRequest) -> Reply:
        schema, held = sent_schema(request.json())
        if schema is None:
            return reply(CHARACTER_LINE)
        meant = json.loads(passes.pop(0))
        return reply(json.dumps(held_to(meant, schema) if held else meant))

    return answer


def chat_reply(text: str) -> Reply:
    return sse_reply(chat.completion(chat.content(text)))


def gemini_reply(text: str) -> Reply:
    return sse_reply(gemini.response(gemini.text(text)))


def openai_provider(stub: StubServer) -> Provider:
    """The provider as a person configures it (the runtime closes it), speaking OpenAI's own
    dialect: strict structured output where the schema allows it."""
    from agentui.core.providers.openai.provider import OpenAIProvider

    return OpenAIProvider(
        model=chat.MODEL,
        api_key="sk-test",
        base_url=f"{stub.url}/v1",
        max_retries=0,
        dialect=Dialect.for_server("https://api.openai.com/v1"),
    )


def gemini_provider(stub: StubServer) -> Provider:
    from agentui.core.providers.google.provider import GoogleProvider

    return GoogleProvider(model=gemini.MODEL, api_key="AIza-test", base_url=stub.url)


BACKENDS = {
    "openai": (openai_provider, chat_reply),
    "google": (gemini_provider, gemini_reply),
}


@pytest.mark.parametrize("backend", BACKENDS)
async def test_a_partial_state_update_stays_partial(backend: str) -> None:
    make_provider, reply = BACKENDS[backend]
    async with StubServer(director_model(reply)) as stub:
        runtime = Runtime(make_provider(stub), clock=FrozenClock())
        async with runtime:
            root, events = await play(runtime, harbour(), ["Close up.", None])

    director_schemas = [s for r in stub.requests if (s := sent_schema(r.json()))[0] is not None]
    assert len(director_schemas) == len(DIRECTOR_PASSES)
    for schema, _held in director_schemas:
        update = schema["properties"]["state_updates"]["items"]
        assert update["required"] == ["name"], "a state update's fields stay optional"
    if backend == "openai":
        assert [held for _, held in director_schemas] == [False, False], "loose, not strict"

    state = RunState()
    state.apply_all(events)
    assert state.scenes[root].record is not None
    mara = state.scenes[root].record.character("Mara")
    assert mara is not None
    assert (mara.mood, mara.location, mara.intentions) == ("wary", "the quay", "close the harbour")
    updates = [(e.character, e.changes) for e in events if e.type == "state:updated"]
    assert updates == [("Mara", {"mood": "wary"})]
    assert runtime.node(root).status is AgentStatus.COMPLETED
