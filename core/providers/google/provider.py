"""Gemini through the official google-genai SDK (`client.aio.models.generate_content_stream`).

`stream()` is an async generator around the SDK's stream: closing it early (the loop does on
cancel, delete and pause) closes the HTTP response, and the server sees the disconnect. It `holds_connection`, so a pause
closes the stream and the loop sends the request again on resume.

The SDK retries nothing here: its retries are turned off (one attempt), so the loop's policy
(`llm_retries`, backoff) is the only one, before the first byte as after it (see errors.py).
The SDK's own resumption of a long answer from a continuation token, which picks the answer up
where it stopped rather than asking again, is left on.

The SDK sends through an HTTP client of ours (http_client.py), which `aclose` closes.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncGenerator, AsyncIterator
from typing import cast

import anyio
from google import genai
from google.genai import types

from agentui.core.providers.base import ProviderRequest, StreamEvent
from agentui.core.providers.google.defaults import (
    DEFAULT_MODEL,
    DEFAULT_TIMEOUT_S,
    GEMINI_BASE_URL,
    resolve_model,
)
from agentui.core.providers.google.defaults import base_url as base_url_from_environment
from agentui.core.providers.google.errors import provider_error
from agentui.core.providers.google.http_client import new_http_client
from agentui.core.providers.google.request import api_contents, generation_config
from agentui.core.providers.google.stream import StreamTranslator
from agentui.core.providers.keys import no_key_message
from agentui.core.providers.stream_closing import closed_at_exit
from agentui.core.support.errors import AgentUIError, ProviderError


class _ChunkTextWarning(logging.Filter):
    """The SDK parses each chunk's text as JSON when the answer has a schema, and warns (on
    stderr, once) when a chunk also holds a function call; we read the parts ourselves."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "non-text parts in the response" not in record.getMessage()


logging.getLogger("google_genai.types").addFilter(_ChunkTextWarning())


class GoogleProvider:
    name = "google"
    holds_connection = True  # a paused stream is closed, not held: see base.Provider

    def __init__(
        self,
        *,
        model: str = DEFAULT_MODEL,
        api_key: str | None = None,
        base_url: str | None = None,
        timeout_s: float = DEFAULT_TIMEOUT_S,
        thinking_budget: int | None = None,
    ) -> None:
        """Give `api_key` (from GOOGLE_API_KEY or GEMINI_API_KEY) and `base_url` for another
        endpoint (else GOOGLE_GEMINI_BASE_URL, else Google's). `thinking_budget` None leaves
        thinking as the model does it, its thoughts unshown; 0 asks for as little as the
        model allows (see request.least_thinking)."""
        if not api_key:
            raise AgentUIError(no_key_message("google"))
        if thinking_budget is not None and thinking_budget < 0:
            raise AgentUIError(f"the thinking budget cannot be negative, not {thinking_budget}")
        self.model = resolve_model(model)
        self.thinking_budget = thinking_budget  # 0 is kept: it is not "the model's default"
        self.timeout_s = timeout_s
        self.base_url = (base_url or base_url_from_environment() or GEMINI_BASE_URL).rstrip("/")
        self._http = new_http_client()
        self._client = genai.Client(
            vertexai=False,  # the Gemini API with a key, whatever GOOGLE_GENAI_USE_VERTEXAI says
            api_key=api_key,
            http_options=types.HttpOptions(
                base_url=self.base_url,
                timeout=max(1, round(timeout_s * 1000)),  # milliseconds, for every read
                retry_options=types.HttpRetryOptions(attempts=1),
                httpx_async_client=self._http,
            ),
        )

    async def aclose(self) -> None:
        """Close the HTTP clients. The Runtime given this provider calls it at shutdown."""
        await self._http.aclose()
        self._client.close()  # the SDK's synchronous client, unused but open

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        return self._stream(request)

    async def _stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        config = generation_config(request, thinking_budget=self.thinking_budget)
        contents = api_contents(request.messages)
        translator = StreamTranslator()
        try:
            # The SDK annotates an AsyncIterator; what it returns is an async generator, which
            # closes its HTTP response when closed early.
            chunks = cast(
                AsyncGenerator[types.GenerateContentResponse, None],
                await self._client.aio.models.generate_content_stream(
                    model=request.model, contents=contents, config=config
                ),
            )
            async with closed_at_exit(chunks.aclose):
                async for chunk in chunks:
                    for event in translator.feed(chunk):
                        yield event
        except ProviderError:
            raise
        except Exception as exc:
            await _finish_reading(exc)
            error = provider_error(
                exc,
                model=request.model,
                base_url=self.base_url,
                timeout_s=self.timeout_s,
                mid_stream=translator.received,
            )
            if error is None:
                raise
            raise error from exc
        yield translator.end()


# How long the rest of a failed stream may take to arrive (it is its end, already sent).
FINISH_READING_S = 2.0


async def _finish_reading(exc: Exception) -> None:
    """Read a stream the SDK raised an error from (an error chunk mid-stream) to its end.

    The SDK raises from the generator that reads its response, leaving the generators beneath
    it (its own, httpx's, httpcore's) suspended. Left so, they are closed all at once when the
    event loop shuts down, which fails ("aclose(): asynchronous generator is already
    running") and prints a traceback on stderr. Read to the end, each one finishes in turn and
    the response is closed (the SDK closes it when its reading ends)."""
    segments = getattr(getattr(exc, "response", None), "segment_iterator", None)
    if not isinstance(segments, AsyncGenerator):
        return
    with anyio.move_on_after(FINISH_READING_S) as reading:
        with contextlib.suppress(Exception):  # failing at its end, it has ended all the same
            async for _ in segments:
                pass
    if reading.cancelled_caught:
        await segments.aclose()  # a server that goes on sending: closed as it stands
