"""SDK and HTTP failures as short ProviderErrors a person can act on.

Retryable (the loop tries again with backoff) are exactly the failures the SDK does not retry
itself: an `error` event in the middle of a stream (the SDK raises APIStatusError with status
200), a connection dropped mid-stream and a stream that stalls past the read timeout (httpx2
errors, not anthropic ones); tool arguments that are not JSON are one too, raised by
stream.py itself. Failures before the first byte were already retried by the SDK
(`max_retries`), so they end the attempt for good.
"""

from __future__ import annotations

import anthropic
import httpx2

from agentui.core.support.errors import ProviderError

# Mid-stream error types worth another attempt: the service, not the request, failed.
RETRYABLE_STREAM_ERRORS = frozenset(
    {"overloaded_error", "api_error", "rate_limit_error", "timeout_error"}
)


def _detail(exc: anthropic.APIStatusError) -> str:
    return exc.api_message or f"HTTP {exc.status_code}"


def _status_error(exc: anthropic.APIStatusError, *, model: str, base_url: str) -> ProviderError:
    detail = _detail(exc)
    if exc.status_code == 200:  # an `error` event inside a stream that had started
        kind = exc.type or "error"
        return ProviderError(
            f"the API failed mid-response ({kind}: {detail})",
            retryable=kind in RETRYABLE_STREAM_ERRORS,
        )
    if isinstance(exc, anthropic.AuthenticationError):
        return ProviderError("the API key was rejected (check ANTHROPIC_API_KEY)")
    if isinstance(exc, anthropic.PermissionDeniedError):
        return ProviderError(f"the API key is not allowed to do this: {detail}")
    if isinstance(exc, anthropic.NotFoundError):
        if exc.type == "not_found_error" or "model" in detail.lower():
            return ProviderError(f"unknown model {model!r}")
        return ProviderError(f"nothing answers at {base_url} (check ANTHROPIC_BASE_URL)")
    if isinstance(exc, anthropic.RateLimitError):
        return ProviderError(f"rate limited by the API (429), also after retries: {detail}")
    if isinstance(exc, anthropic.OverloadedError):
        return ProviderError("the API is overloaded (529), also after retries; try again later")
    if isinstance(exc, anthropic.ContentTooLargeError):
        return ProviderError("the request is too large for the API (413)")
    if isinstance(exc, anthropic.BadRequestError):
        return ProviderError(f"the API rejected the request: {detail}")
    if exc.status_code >= 500:
        return ProviderError(f"the API failed ({exc.status_code}), also after retries: {detail}")
    return ProviderError(f"the API answered {exc.status_code}: {detail}")


def provider_error(
    exc: Exception, *, model: str, base_url: str, timeout_s: float
) -> ProviderError | None:
    """The ProviderError for a failure of one streamed request, or None for a bug of ours."""
    if isinstance(exc, anthropic.APIStatusError):
        return _status_error(exc, model=model, base_url=base_url)
    if isinstance(exc, anthropic.APITimeoutError):
        return ProviderError(f"the API did not answer within {timeout_s:g} s, also after retries")
    if isinstance(exc, anthropic.APIConnectionError):
        return ProviderError(f"cannot reach the API at {base_url}")
    if isinstance(exc, httpx2.TimeoutException):
        return ProviderError(
            f"the API stopped sending for {timeout_s:g} s mid-response", retryable=True
        )
    if isinstance(exc, httpx2.TransportError):
        return ProviderError("the connection to the API dropped mid-response", retryable=True)
    if isinstance(exc, anthropic.AnthropicError):
        return ProviderError(f"the anthropic SDK failed: {exc}")
    return None
