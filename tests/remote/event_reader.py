"""Reading a client's SSE stream in a test: until a condition holds, with a failure guard."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import anyio

from agentui.core.protocol.events import Event
from agentui.core.remote.client import RemoteClient

FAIL_AFTER_S = 30  # a guard against a hung test, never a measurement


class EventReader:
    """One `client.events()` stream; `events` holds everything read so far."""

    def __init__(self, client: RemoteClient, since: int = 0) -> None:
        self._stream: AsyncIterator[Event] = client.events(since)
        self.events: list[Event] = []

    async def until(self, predicate: Callable[[Event], bool], count: int = 1) -> list[Event]:
        """Read until `count` events (read now or before) satisfy `predicate`; those events."""
        matched = [event for event in self.events if predicate(event)]
        with anyio.fail_after(FAIL_AFTER_S):
            while len(matched) < count:
                event = await anext(self._stream)
                self.events.append(event)
                if predicate(event):
                    matched.append(event)
        return matched

    async def rest(self) -> list[Event]:
        """Everything until the server ends the stream."""
        with anyio.fail_after(FAIL_AFTER_S):
            async for event in self._stream:
                self.events.append(event)
        return self.events

    async def aclose(self) -> None:
        await self._stream.aclose()  # type: ignore[attr-defined]


def status(agent_id: str, new: str) -> Callable[[Event], bool]:
    """The agent's status became `new`."""
    return lambda e: e.type == "agent:status" and e.agent_id == agent_id and e.new == new  # type: ignore[attr-defined]


def of_type(kind: str, agent_id: str | None = None) -> Callable[[Event], bool]:
    return lambda e: e.type == kind and (agent_id is None or e.agent_id == agent_id)
