"""A client written only from the seed's design (shared/seeds/002, "Streaming Architecture"):
it knows the seed's chunks (`text-delta`, `agent-state`, `tool-call`) and SSE, and nothing of
agentui's events or its client. What it reads of `GET /agent/stream` is what a TypeScript
client of the seed would.

    run = await read_seed_stream(base_url, token, "Plan my birthday party")
    run.text  # every textDelta, in order
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

import httpx2

FAIL_AFTER_S = 30  # a guard against a hung test, never a measurement


@dataclass
class SeedRun:
    text: str = ""
    states: dict[str, dict[str, Any]] = field(default_factory=dict)  # agentId -> its state
    tool_calls: list[dict[str, Any]] = field(default_factory=list)
    other: list[dict[str, Any]] = field(default_factory=list)  # "Plus all standard AI SDK chunks"
    ids: list[str] = field(default_factory=list)  # each message's SSE id, to resume from

    def take(self, chunk: dict[str, Any]) -> None:
        if chunk["type"] == "text-delta":
            self.text += chunk["textDelta"]
        elif chunk["type"] == "agent-state":
            self.states.setdefault(chunk["agentId"], {}).update(chunk["state"])
        elif chunk["type"] == "tool-call":
            self.tool_calls.append(chunk)
        else:
            self.other.append(chunk)


async def read_seed_stream(
    base_url: str,
    token: str,
    prompt: str,
    *,
    last_event_id: str | None = None,
    stop_after: int | None = None,
) -> SeedRun:
    """Stream `prompt`'s chunks until the server ends the stream (or `stop_after` messages);
    with `last_event_id`, resume a stream as an EventSource reconnecting does."""
    headers = {"Authorization": f"Bearer {token}", "Accept": "text/event-stream"}
    if last_event_id is not None:
        headers["Last-Event-ID"] = last_event_id
    run = SeedRun()
    params = {"prompt": prompt, "format": "seed"}
    async with (
        httpx2.AsyncClient(base_url=base_url, headers=headers, timeout=FAIL_AFTER_S) as http,
        http.stream("GET", "/agent/stream", params=params) as response,
    ):
        response.raise_for_status()
        message_id, data = "", ""
        async for line in response.aiter_lines():
            if line.startswith(":"):
                continue  # an SSE comment (the server's heartbeat)
            name, _, value = line.partition(":")
            value = value.removeprefix(" ")
            if name == "id":
                message_id = value
            elif name == "data":
                data += value
            elif line == "" and data:
                run.take(json.loads(data))
                run.ids.append(message_id)
                data = ""
                if stop_after is not None and len(run.ids) == stop_after:
                    break
    return run
