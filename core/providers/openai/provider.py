"""OpenAI and OpenAI-compatible servers through the official openai SDK (`AsyncOpenAI`,
streaming `chat.completions.create`).

Chat Completions, not the Responses API: it is the one wire format every compatible server
speaks (Ollama, vLLM, llama.cpp server, LM Studio, OpenRouter), and it has all the loop uses
(streamed text and tool calls, structured output, usage). What Responses adds for OpenAI's
own models (reasoning items kept between turns, built-in tools, server-side state) the loop
does not use; see docs/guide/providers.md.

`stream()` is an async generator around the SDK's stream: closing it early (the loop does on
cancel, delete and pause) closes the HTTP response at once. It `holds_connection`, so a pause
closes the stream and the loop sends the request again on resume. The SDK retries before the
first byte; failures after it become retryable ProviderErrors that the loop retries (see
errors.py). A 400 that names a feature the server does not take is sent again without it
(see request.Dialect), within the same attempt.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import httpx2
import openai

from agentui.core.providers.base import ProviderRequest, StreamEvent
from agentui.core.providers.keys import no_key_message
from agentui.core.providers.openai.defaults import (
    CONNECT_TIMEOUT_S,
    DEFAULT_MODEL,
    DEFAULT_TIMEOUT_S,
    NO_KEY,
    OPENAI_BASE_URL,
    is_openai,
)
from agentui.core.providers.openai.errors import before_first_byte, mid_stream
from agentui.core.providers.openai.request import Dialect, request_params
from agentui.core.providers.openai.stream import ChunkTranslator
from agentui.core.providers.stream_closing import closed_at_exit
from agentui.core.support.errors import AgentUIError, ProviderError

DEFAULT_MAX_RETRIES = 2  # the SDK's attempts before the first byte, after the first one

log = logging.getLogger("agentui.providers.openai")


class OpenAIProvider:
    name = "openai"
    holds_connection = True  # a paused stream is closed, not held: see base.Provider

    def __init__(
        self,
        *,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        client: openai.AsyncOpenAI | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        max_retries: int = DEFAULT_MAX_RETRIES,
        thinking_budget: int | None = None,
        dialect: Dialect | None = None,
    ) -> None:
        """Give `api_key` and/or `base_url` (None: OpenAI's API), or a ready `client` (tests).

        A compatible server at `base_url` may need no key. `thinking_budget` is room added to
        each request's token limit for a model that reasons before it answers (None or 0:
        none). `dialect` None: the one for the server (see request.Dialect).
        """
        self.model = model.strip()
        self.thinking_budget = thinking_budget or None
        self.timeout_s = timeout_s
        self._owns_client = client is None
        if client is None:
            base = (base_url or OPENAI_BASE_URL).rstrip("/")
            if not api_key and is_openai(base):
                raise AgentUIError(no_key_message("openai"))
            client = openai.AsyncOpenAI(
                api_key=api_key or NO_KEY,
                base_url=base,
                max_retries=max_retries,
                timeout=httpx2.Timeout(timeout_s, connect=min(CONNECT_TIMEOUT_S, timeout_s)),
            )
        self._client = client
        self.base_url = str(client.base_url).rstrip("/")
        self.dialect = dialect if dialect is not None else Dialect.for_server(self.base_url)

    async def aclose(self) -> None:
        """Close the HTTP client this provider made (a client passed in is the caller's).
        The Runtime given this provider calls it at shutdown."""
        if self._owns_client:
            await self._client.close()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        return self._stream(request)

    async def _stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        translator = ChunkTranslator()
        chunks = await self._open(request)
        try:
            async with closed_at_exit(chunks.close):
                async for chunk in chunks:
                    for event in translator.feed(chunk):
                        yield event
        except Exception as exc:
            error = mid_stream(exc, timeout_s=self.timeout_s)
            if error is None:
                raise
            raise error from exc
        for event in translator.end():
            yield event

    async def _open(self, request: ProviderRequest) -> Any:
        """The SDK's stream, once the server answered with its headers."""
        while True:
            sent_with = self.dialect
            params = request_params(request, sent_with, reasoning_room=self.thinking_budget)
            try:
                return await self._client.chat.completions.create(**params)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if self.dialect is not sent_with:
                    # Another request was refused meanwhile and relaxed the dialect: this one
                    # asks again in it (relaxing it once more would find nothing left to drop).
                    continue
                # The parameter it names (OpenAI's `param`), or failing that its words.
                relaxed = sent_with.relaxed_for(f"{exc.param or ''} {exc.message}", request.model)
                if relaxed is None:
                    raise self._failed(exc, request) from exc
                log.info("%s refused a feature; asking again without it: %s", self.base_url, exc)
                self.dialect = relaxed
            except openai.OpenAIError as exc:
                raise self._failed(exc, request) from exc

    def _failed(self, exc: openai.OpenAIError, request: ProviderRequest) -> ProviderError:
        return before_first_byte(
            exc, model=request.model, base_url=self.base_url, timeout_s=self.timeout_s
        )
