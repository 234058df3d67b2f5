"""RecordingProvider: wraps any provider and saves each exchange as a JSON file (`--record DIR`).

Every attempt is its own exchange, failed ones included, so a replay fails and retries the same
way. Files are written off the event loop, once the exchange has ended. Secrets the caller names
(the API key) are replaced in the file text: the key is never in a request, but an agent could
still come across it, say in a tool's output.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import AsyncIterator, Iterable
from pathlib import Path
from typing import Any

import anyio
import anyio.to_thread

from agentui.core.providers.base import Provider, ProviderRequest, StreamEvent, holds_connection
from agentui.core.providers.record.exchange import (
    Exchange,
    RecordedError,
    event_to_json,
    exchange_key,
    request_to_json,
)
from agentui.core.support.errors import AgentUIError, ProviderError
from agentui.core.support.utf8 import json_text

REDACTED = "[redacted]"


class RecordingProvider:
    def __init__(
        self, inner: Provider, directory: str | Path, *, redact: Iterable[str] = ()
    ) -> None:
        self.inner = inner
        self.directory = Path(directory)
        self._redact = [secret for secret in redact if secret]
        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            existing = next(self.directory.glob("*.json"), None)
        except OSError as exc:
            raise AgentUIError(f"cannot record into {self.directory}: {exc.strerror}") from None
        if existing is not None:
            raise AgentUIError(
                f"{self.directory} already holds a recording ({existing.name}); "
                "record into an empty directory"
            )
        self._counts: defaultdict[tuple[str, str], int] = defaultdict(int)

    # The runtime and the status bar see the provider that does the work.
    @property
    def name(self) -> str:
        return self.inner.name

    @property
    def model(self) -> str:
        return self.inner.model

    # A pause closes the inner provider's stream when it holds a connection: the exchange is
    # saved as "closed" and the request sent again is the next exchange (see replay.py).
    @property
    def holds_connection(self) -> bool:
        return holds_connection(self.inner)

    async def aclose(self) -> None:
        """Close the provider it records: the recorder is what the Runtime was given."""
        await self.inner.aclose()

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        key = exchange_key(request)
        index = self._counts[key]
        self._counts[key] = index + 1
        # The request is serialised now: the loop goes on changing the conversation.
        return self._record(request_to_json(request), request, index)

    async def _record(
        self, sent: dict[str, Any], request: ProviderRequest, index: int
    ) -> AsyncIterator[StreamEvent]:
        exchange = Exchange(
            agent=request.agent_name,
            purpose=request.purpose,
            index=index,
            request=sent,
            events=[],
            outcome="closed",
        )
        inner = self.inner.stream(request)
        try:
            async for event in inner:
                exchange.events.append(event_to_json(event))
                yield event
            exchange.outcome = "complete"
        except ProviderError as exc:
            exchange.outcome = "error"
            exchange.error = RecordedError(message=str(exc), retryable=exc.retryable)
            raise
        except Exception as exc:  # not a provider failure, but the replay should fail here too
            exchange.outcome = "error"
            exchange.error = RecordedError(message=f"{type(exc).__name__}: {exc}")
            raise
        finally:
            with anyio.CancelScope(shield=True):
                close = getattr(inner, "aclose", None)
                if close is not None:
                    await close()
                await anyio.to_thread.run_sync(self._write, exchange)

    def _write(self, exchange: Exchange) -> None:
        streamed = "".join(str(v) for e in exchange.events for k, v in e.items() if k != "type")
        if any(secret in streamed for secret in self._redact):
            # The secret may be split across chunks: join them so it can be replaced whole.
            exchange.events = _joined(exchange.events)
        text = json_text(exchange.model_dump(mode="json"), indent=2)
        for secret in self._redact:
            text = text.replace(secret, REDACTED)
        (self.directory / exchange.file_name).write_text(text + "\n", encoding="utf-8")


_JOINABLE = {"text": "text", "thinking": "text", "tool_args": "partial_json"}


def _joined(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Consecutive pieces of one block as one event (a signature still ends its block)."""
    out: list[dict[str, Any]] = []
    for event in events:
        kind = event["type"]
        previous = out[-1] if out else None
        if (
            previous is not None
            and kind in _JOINABLE
            and previous["type"] == kind
            and previous.get("id") == event.get("id")
            and not previous.get("signature")
        ):
            field = _JOINABLE[kind]
            out[-1] = {**previous, **event, field: previous[field] + event[field]}
        else:
            out.append(dict(event))
    return out
