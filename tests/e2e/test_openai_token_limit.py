"""The token limit's name on a compatible address (OPENAI_BASE_URL, --base-url): OpenAI's own
models behind a pass-through proxy get `max_completion_tokens` (reasoning models refuse
`max_tokens`), other models `max_tokens`; a 400 refusing the name sent is asked again once with
the other, remembered. The real openai SDK against the stub server on 127.0.0.1."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING

import pytest

from agentui.core.agent.tree import AgentStatus

from .chat_completions_api import completion, content, error_reply
from .provider_runs import of_type, run
from .stub_server import StubServer, sse_reply

if TYPE_CHECKING:
    from agentui.core.providers.openai.provider import OpenAIProvider

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).

pytestmark = pytest.mark.anyio

# OpenAI's answer to max_tokens for a reasoning model, as a proxy passes it through.
MAX_TOKENS_REFUSED = (
    "Unsupported parameter: 'max_tokens' is not supported with this model. "
    "Use 'max_completion_tokens' instead."
)
# A compatible server that does not know the newer name.
MAX_COMPLETION_TOKENS_REFUSED = "Unrecognized request argument supplied: max_completion_tokens"


@asynccontextmanager
async def provider_for(stub: StubServer, model: str) -> AsyncIterator[OpenAIProvider]:
    import openai

    from agentui.core.providers.openai.provider import OpenAIProvider

    client = openai.AsyncOpenAI(base_url=f"{stub.url}/v1", api_key="sk-test", max_retries=0)
    try:
        yield OpenAIProvider(client=client, model=model, thinking_budget=1024)
    finally:
        await client.close()


def limits(stub: StubServer) -> list[tuple[str, int]]:
    """Each request's token limit: its name and value."""
    out = []
    for seen in stub.requests:
        body = seen.json()
        (name,) = [key for key in ("max_tokens", "max_completion_tokens") if key in body]
        out.append((name, body[name]))
    return out


@pytest.mark.parametrize("model", ["gpt-5.4", "o3-mini", "openai/gpt-5.4-mini"])
async def test_openai_models_behind_a_proxy_get_max_completion_tokens_and_room_to_reason(
    model: str,
) -> None:
    async with StubServer() as stub, provider_for(stub, model) as provider:
        stub.reply(sse_reply(completion(content("Hi."))))
        _, node = await run(provider)
    assert node.status is AgentStatus.COMPLETED
    assert limits(stub) == [("max_completion_tokens", 4096 + 1024)]
    assert stub.requests[0].json()["messages"][0]["role"] == "system", "a proxy's safe role"


@pytest.mark.parametrize(
    "model", ["qwen3:8b", "gpt-oss:20b", "gpt-j-6b", "EleutherAI/gpt-neox-20b"]
)
async def test_other_models_get_max_tokens_without_room(model: str) -> None:
    async with StubServer() as stub, provider_for(stub, model) as provider:
        stub.reply(sse_reply(completion(content("Hi."))))
        await run(provider)
    assert limits(stub) == [("max_tokens", 4096)]


async def test_a_server_refusing_max_completion_tokens_is_asked_again_once_with_max_tokens() -> (
    None
):
    async with StubServer() as stub, provider_for(stub, "gpt-5.4") as provider:
        stub.reply(
            error_reply(400, MAX_COMPLETION_TOKENS_REFUSED),
            sse_reply(completion(content("First."))),
            sse_reply(completion(content("Second."))),
        )
        events, node = await run(provider)
        _, second = await run(provider, "again")
    assert (node.status, second.status) == (AgentStatus.COMPLETED, AgentStatus.COMPLETED)
    assert limits(stub) == [
        ("max_completion_tokens", 4096 + 1024),
        ("max_tokens", 4096),
        ("max_tokens", 4096),
    ], "remembered for the provider's life, without the room to reason (a compatible server)"
    assert not of_type(events, "llm:error"), "within the attempt: not a failure"


async def test_a_model_refusing_max_tokens_is_asked_again_with_max_completion_tokens() -> None:
    async with StubServer() as stub, provider_for(stub, "my-reasoner") as provider:
        stub.reply(
            error_reply(400, MAX_TOKENS_REFUSED), sse_reply(completion(content("Reasoned.")))
        )
        _, node = await run(provider)
    assert node.status is AgentStatus.COMPLETED
    assert [name for name, _ in limits(stub)] == ["max_tokens", "max_completion_tokens"]


async def test_the_limit_is_switched_once_then_a_second_refusal_is_the_error() -> None:
    async with StubServer() as stub, provider_for(stub, "gpt-5.4") as provider:
        stub.reply(
            error_reply(400, MAX_COMPLETION_TOKENS_REFUSED),
            error_reply(400, MAX_TOKENS_REFUSED),
        )
        _, node = await run(provider)
    assert [name for name, _ in limits(stub)] == ["max_completion_tokens", "max_tokens"]
    assert node.status is AgentStatus.ERROR
    assert "max_tokens" in (node.error or ""), node.error
