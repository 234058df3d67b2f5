"""ReplayProvider: plays a recording back offline (`--provider replay:DIR`).

Each agent (by name) walks its own recorded exchanges in order. The request must be the one
recorded; a different one fails at once, non-retryable, naming the first difference, since
the rest of the recording could no longer be trusted.

An exchange closed early and then sent again unchanged is one a pause cut off (the recorded
provider held a connection, so pausing closed its stream and resuming asked again). A replay
holds no connection and is not paused there: it skips the cut-off exchange and plays the
answer to the request sent again.
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import anyio.lowlevel
from pydantic import ValidationError

from agentui.core.providers.base import ProviderRequest, StreamEvent
from agentui.core.providers.model_aliases import RESOLVERS
from agentui.core.providers.record.exchange import (
    FORMAT,
    Exchange,
    event_from_json,
    exchange_key,
    first_difference,
    request_to_json,
)
from agentui.core.support.errors import AgentUIError, ProviderError

SHOWN_CHARS = 80  # of a differing value in the mismatch message


def _short(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"


Key = tuple[str, str]  # (agent name, purpose)


def load_exchanges(directory: Path) -> dict[Key, list[Exchange]]:
    if not directory.is_dir():
        raise AgentUIError(f"no recording at {directory}: not a directory")
    by_key: defaultdict[Key, list[Exchange]] = defaultdict(list)
    for path in sorted(directory.glob("*.json")):
        try:
            exchange = Exchange.model_validate_json(path.read_bytes())
        except (OSError, ValidationError) as exc:
            raise AgentUIError(f"{path} is not a recorded exchange: {exc}") from None
        if exchange.format != FORMAT:
            raise AgentUIError(
                f"{path} has recording format {exchange.format}; this reads {FORMAT}"
            )
        by_key[exchange.key].append(exchange)
    if not by_key:
        raise AgentUIError(f"no recording at {directory}: it holds no exchange files")
    for (agent, purpose), exchanges in by_key.items():
        exchanges.sort(key=lambda e: e.index)
        if [e.index for e in exchanges] != list(range(len(exchanges))):
            raise AgentUIError(
                f"the recording at {directory} misses {purpose} exchanges of {agent!r}"
            )
    return dict(by_key)


class ReplayProvider:
    name = "replay"

    def __init__(self, directory: str | Path, *, model: str | None = None) -> None:
        self.directory = Path(directory)
        self._exchanges = load_exchanges(self.directory)
        self._models = {
            str(e.request.get("model")) for recorded in self._exchanges.values() for e in recorded
        }
        # The model the agents were recorded with, so their requests match.
        firsts = sorted(
            (e[0] for e in self._exchanges.values()),
            key=lambda e: (e.purpose != "agent", e.file_name),
        )
        recorded_model = str(firsts[0].request.get("model", "replay"))
        self.model = self.resolve_model(model) if model else recorded_model
        self._cursor: defaultdict[Key, int] = defaultdict(int)

    def resolve_model(self, model: str) -> str:
        """A model name read as the recording did (it does not say which provider made it):
        the alias of whichever provider gives a model the recording asked for, else as given."""
        readings = [resolve(model) for resolve in RESOLVERS.values()]
        return next((m for m in readings if m in self._models), model.strip())

    async def aclose(self) -> None:
        """Nothing to release: the recording was read whole when the replay was made."""

    def stream(self, request: ProviderRequest) -> AsyncIterator[StreamEvent]:
        key = exchange_key(request)
        index = self._past_resent(key, self._cursor[key])
        self._cursor[key] = index + 1
        # The request is serialised now: the loop goes on changing the conversation.
        return self._play(request_to_json(request), key, index)

    def _past_resent(self, key: Key, index: int) -> int:
        """The index past exchanges that a pause cut off and that were then sent again."""
        recorded = self._exchanges.get(key, [])
        while (
            index + 1 < len(recorded)
            and recorded[index].outcome == "closed"
            and recorded[index + 1].request == recorded[index].request
        ):
            index += 1
        return index

    def _match(self, sent: dict[str, Any], key: Key, index: int) -> Exchange:
        recorded = self._exchanges.get(key, [])
        agent, purpose = key
        if index >= len(recorded):
            whose = f"agent {agent!r}" if purpose == "agent" else f"{purpose} of {agent!r}"
            raise ProviderError(
                f"the recording at {self.directory} has no exchange {index + 1} "
                f"for {whose} (it has {len(recorded)})"
            )
        exchange = recorded[index]
        difference = first_difference(exchange.request, sent)
        if difference is not None:
            raise ProviderError(
                f"the request differs from the recording {exchange.file_name} at "
                f"{difference.path}: recorded {_short(difference.recorded)}, "
                f"sent {_short(difference.sent)}"
            )
        return exchange

    async def _play(self, sent: dict[str, Any], key: Key, index: int) -> AsyncIterator[StreamEvent]:
        exchange = self._match(sent, key, index)
        for data in exchange.events:
            # Like a live stream: other agents and commands interleave, cancel lands here.
            await anyio.lowlevel.checkpoint()
            yield event_from_json(data)
        if exchange.outcome == "error" and exchange.error is not None:
            raise ProviderError(exchange.error.message, retryable=exchange.error.retryable)
        if exchange.outcome == "closed":
            await anyio.sleep_forever()  # the recorded stream was closed here, from our side
