"""SDK failures as short ProviderErrors a person can act on.

Where a failure happened decides whether the loop tries again. Before the first byte (the
request itself failed) the SDK has already retried what is worth it (`max_retries`: 408, 409,
429, 5xx, connection errors, timeouts), so those end the attempt for good. After it (an
`error` object in the middle of the stream, a dropped connection, a stall past the read
timeout, a malformed event) the SDK retries nothing, so the loop does: those are retryable,
but for an error object that blames the request (a 4xx code other than 408, 409 and 429).
"""

from __future__ import annotations

import json

import openai

from agentui.core.support.errors import ProviderError

_RETRYABLE_CLIENT_CODES = {408, 409, 429}


def _detail(exc: openai.APIError) -> str:
    """The server's own words: the error object's message, else the SDK's."""
    body = exc.body
    message = body.get("message") if isinstance(body, dict) else None
    if isinstance(message, str) and message.strip():
        return message.strip()
    return exc.message or type(exc).__name__


def _status_error(exc: openai.APIStatusError, *, model: str, base_url: str) -> ProviderError:
    detail = _detail(exc)
    if isinstance(exc, openai.AuthenticationError):
        return ProviderError(f"the key was refused by {base_url} (check OPENAI_API_KEY)")
    if isinstance(exc, openai.PermissionDeniedError):
        return ProviderError(f"the key is not allowed to do this: {detail}")
    if isinstance(exc, openai.NotFoundError):
        if "model" in detail.lower():
            return ProviderError(f"unknown model {model!r} at {base_url}: {detail}")
        return ProviderError(
            f"nothing answers at {base_url}/chat/completions "
            "(check --base-url or OPENAI_BASE_URL; a local server's URL ends in /v1)"
        )
    if isinstance(exc, openai.RateLimitError):
        return ProviderError(f"rate limited by the server (429), also after retries: {detail}")
    if isinstance(exc, openai.BadRequestError | openai.UnprocessableEntityError):
        return ProviderError(f"the server rejected the request: {detail}")
    if exc.status_code >= 500:
        return ProviderError(f"the server failed ({exc.status_code}), also after retries: {detail}")
    return ProviderError(f"the server answered {exc.status_code}: {detail}")


def _stream_error(exc: openai.APIError) -> ProviderError:
    """An `error` object the server put in the stream after it began."""
    # vLLM says the HTTP status it would have answered in `code` ("400"); OpenAI, none.
    status = int(exc.code) if exc.code is not None and exc.code.isdigit() else None
    kind = exc.type or "error"
    retryable = status is None or not 400 <= status < 500 or status in _RETRYABLE_CLIENT_CODES
    return ProviderError(
        f"the server failed mid-response ({kind}: {_detail(exc)})", retryable=retryable
    )


def before_first_byte(
    exc: openai.OpenAIError, *, model: str, base_url: str, timeout_s: float
) -> ProviderError:
    """The ProviderError for a request that failed before its stream began."""
    if isinstance(exc, openai.APIStatusError):
        return _status_error(exc, model=model, base_url=base_url)
    if isinstance(exc, openai.APITimeoutError):
        return ProviderError(
            f"the server did not answer within {timeout_s:g} s, also after retries"
        )
    if isinstance(exc, openai.APIConnectionError):
        return ProviderError(f"cannot reach {base_url} (is the server running?)")
    return ProviderError(f"the openai SDK failed: {exc}")


def mid_stream(exc: Exception, *, timeout_s: float) -> ProviderError | None:
    """The ProviderError for a stream that failed after it began, or None for a bug of ours."""
    if isinstance(exc, openai.APITimeoutError):
        return ProviderError(
            f"the server stopped sending for {timeout_s:g} s mid-response", retryable=True
        )
    if isinstance(exc, openai.APIConnectionError):
        return ProviderError("the connection to the server dropped mid-response", retryable=True)
    if isinstance(exc, openai.APIError):
        return _stream_error(exc)
    if isinstance(exc, json.JSONDecodeError):
        return ProviderError("the server sent an event that is not JSON", retryable=True)
    if isinstance(exc, openai.OpenAIError):
        return ProviderError(f"the openai SDK failed mid-response: {exc}", retryable=True)
    return None
