"""Claude through the official anthropic SDK (`AsyncAnthropic`, `messages.create(stream=True)`).

The raw event stream, translated by stream.py (not the SDK's `messages.stream` helper: see
there why). `stream()` is an async generator around the SDK's stream: closing it early (the
loop does on cancel, delete and pause) closes the HTTP stream at once. It `holds_connection`,
so a pause closes the stream and the loop sends the request again on resume. The SDK retries
before the first byte; failures after it become retryable ProviderErrors that the loop retries
(see errors.py).
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import anthropic
import httpx2

from agentui.core.providers.anthropic.defaults import (
    CONNECT_TIMEOUT_S,
    DEFAULT_MODEL,
    DEFAULT_TIMEOUT_S,
    MIN_THINKING_BUDGET,
    resolve_model,
)
from agentui.core.providers.anthropic.errors import provider_error
from agentui.core.providers.anthropic.request import request_params
from agentui.core.providers.anthropic.stream import StreamTranslator
from agentui.core.providers.base import ProviderRequest, StreamEvent
from agentui.core.providers.keys import no_key_message
from agentui.core.providers.stream_closing import closed_at_exit
from agentui.core.support.errors import AgentUIError, ProviderError

DEFAULT_MAX_RETRIES = 2  # the SDK's attempts before the first byte, after the first one


class AnthropicProvider:
    name = "anthropic"
    holds_connection = True  # a paused stream is closed, not held: see base.Provider

    def __init__(
        self,
        *,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        client: anthropic.AsyncAnthropic | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        thinking_budget: int | None = None,
    ) -> None:
        """Give `api_key` (and `base_url`, else ANTHROPIC_BASE_URL or the public API), or a
        ready `client` (tests). `thinking_budget` None or 0 leaves thinking off."""
        if thinking_budget and thinking_budget < MIN_THINKING_BUDGET:
            raise AgentUIError(
                f"the thinking budget must be at least {MIN_THINKING_BUDGET} tokens "
                f"(or 0 for no thinking), not {thinking_budget}"
            )
        self.model = resolve_model(model)
        self.thinking_budget = thinking_budget or None
        self.timeout_s = timeout_s
        self._owns_client = client is None
        if client is None:
            if not api_key:
                raise AgentUIError(no_key_message("anthropic"))
            client = anthropic.AsyncAnthropic(
                api_key=api_key,
                base_url=base_url,
                max_retries=max_retries,
                timeout=httpx2.Timeout(timeout_s, connect=min(CONNECT_TIMEOUT_S, timeout_s)),
            )
        self._client = client
        self.base_url = str(client.base_url).rstrip("/")

    async def aclose(self) -> None:
        """Close the HTTP client this provider made (a client passed in is the caller's).
        The Runtime given this provider calls it at shutdown."""
        if self._owns_client:
            await self._client.close()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        return self._stream(request)

    async def _stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        params = request_params(request, thinking_budget=self.thinking_budget)
        translator = StreamTranslator()
        try:
            events = await self._client.messages.create(**params, stream=True)
            async with closed_at_exit(events.close):
                async for raw in events:
                    for event in translator.feed(raw):
                        yield event
        except ProviderError:
            raise
        except Exception as exc:
            error = provider_error(
                exc, model=request.model, base_url=self.base_url, timeout_s=self.timeout_s
            )
            if error is None:
                raise
            raise error from exc
        if not translator.finished:
            # A close-delimited stream cut short ends like a complete one, minus message_stop.
            raise ProviderError("the response ended before it was complete", retryable=True)
