"""SDK and HTTP failures as short ProviderErrors a person can act on.

The SDK retries nothing itself here (the provider turns its retries off), so agentui's loop is
the one retry policy: a failure the service may get over is retryable, before the first byte
(429, 408, 5xx, a connection refused or timed out) as after it (an error event in the stream,
a dropped connection, a stall past the timeout). A request the API refused for what it is (a
bad key, an unknown model, a malformed request) is not: it would be refused again.
"""

from __future__ import annotations

from typing import Any

import httpx2
from google.genai import errors

from agentui.core.providers.google.defaults import BASE_URL_VARIABLE
from agentui.core.providers.keys import key_names
from agentui.core.support.errors import ProviderError

# Statuses (HTTP, and their gRPC names in an error event) worth another attempt.
RETRYABLE_CODES = frozenset({408, 429, 500, 502, 503, 504})
RETRYABLE_STATUSES = frozenset(
    {"RESOURCE_EXHAUSTED", "UNAVAILABLE", "INTERNAL", "DEADLINE_EXCEEDED"}
)
_KEYS = key_names("google")
_RETRY_INFO = "type.googleapis.com/google.rpc.RetryInfo"


def _detail(exc: errors.APIError) -> str:
    return exc.message or f"HTTP {exc.code}"


def _retry_delay(exc: errors.APIError) -> str | None:
    """How long a 429 asks to wait (`RetryInfo.retryDelay`, e.g. "19s"), when it says."""
    body: Any = exc.details
    details = body.get("error", body).get("details", []) if isinstance(body, dict) else []
    for item in details if isinstance(details, list) else []:
        if isinstance(item, dict) and item.get("@type") == _RETRY_INFO:
            delay = item.get("retryDelay")
            return str(delay) if delay else None
    return None


def _api_error(
    exc: errors.APIError, *, model: str, base_url: str, mid_stream: bool
) -> ProviderError:
    detail = _detail(exc)
    code, status = exc.code, exc.status or ""
    label = f"{code} {status}".strip()
    retryable = code in RETRYABLE_CODES or status in RETRYABLE_STATUSES
    if mid_stream:  # an error event in a stream that had started
        return ProviderError(
            f"the API failed mid-response ({label}: {detail})", retryable=retryable
        )
    if code == 401 or (code == 400 and "api key" in detail.lower()):
        return ProviderError(f"the API key was rejected (check {_KEYS})")
    if code == 403:
        return ProviderError(f"the API key is not allowed to do this: {detail}")
    if code == 404:
        if "model" in detail.lower():
            return ProviderError(f"unknown model {model!r}")
        return ProviderError(f"nothing answers at {base_url} (check {BASE_URL_VARIABLE})")
    if code == 429:
        delay = _retry_delay(exc)
        wait = f"; it asks to wait {delay}" if delay else ""
        return ProviderError(f"rate limited by the API (429{wait}): {detail}", retryable=True)
    if code == 413:
        return ProviderError("the request is too large for the API (413)")
    if retryable:
        return ProviderError(f"the API failed ({label}): {detail}", retryable=True)
    if code == 400:
        return ProviderError(f"the API rejected the request: {detail}")
    return ProviderError(f"the API answered {code}: {detail}")


def provider_error(
    exc: Exception, *, model: str, base_url: str, timeout_s: float, mid_stream: bool
) -> ProviderError | None:
    """The ProviderError for a failure of one streamed request, or None for a bug of ours.
    `mid_stream`: the response had begun (a chunk came)."""
    if isinstance(exc, errors.APIError):
        return _api_error(exc, model=model, base_url=base_url, mid_stream=mid_stream)
    if isinstance(exc, httpx2.TimeoutException):
        if mid_stream:
            return ProviderError(
                f"the API stopped sending for {timeout_s:g} s mid-response", retryable=True
            )
        return ProviderError(f"the API did not answer within {timeout_s:g} s", retryable=True)
    if isinstance(exc, httpx2.ConnectError):
        return ProviderError(f"cannot reach the API at {base_url}", retryable=True)
    if isinstance(exc, httpx2.TransportError):
        when = "mid-response" if mid_stream else "before the response"
        return ProviderError(f"the connection to the API dropped {when}", retryable=True)
    if isinstance(exc, errors.UnknownApiResponseError):
        return ProviderError("the API sent a response that is not JSON", retryable=True)
    return None
