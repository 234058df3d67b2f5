"""Which MCP servers have yet to have their first outcome, as a front end reads it from the
events: `agentui run` and `agentui acp` start their first task once every server is ready or
has failed (a short run would otherwise never see a server's tools); the app never waits.

    outcomes = FirstOutcomes.of(runtime)     # right after entering it, before any await
    ... for each event read: outcomes.observe(event)
    await outcomes.settled()                 # at most the slowest server's startup_timeout_s
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Protocol

import anyio

from agentui.core.protocol.events import Event, McpServerChanged
from agentui.core.tools.pending_source import PendingTools


class WithPendingTools(Protocol):
    """What is read of the runtime (core.runtime.Runtime is one), named here so that tools,
    below the runtime, do not import it."""

    @property
    def pending_tools(self) -> Sequence[PendingTools]: ...


class FirstOutcomes:
    def __init__(self, servers: Mapping[str, float]) -> None:
        """`servers`: each one still starting, with its startup_timeout_s."""
        self.waiting = dict(servers)
        self.limit_s = max(servers.values(), default=0.0)
        self._done: anyio.Event | None = None

    @classmethod
    def of(cls, runtime: WithPendingTools) -> FirstOutcomes:
        """The servers of `runtime` whose first try is under way. Call it right after
        entering the runtime, before anything awaits, with the events read from a subscription
        taken then too: no outcome falls between the two."""
        servers: dict[str, float] = {}
        for source in runtime.pending_tools:
            servers |= source.starting()
        return cls(servers)

    @property
    def done(self) -> bool:
        return not self.waiting

    def observe(self, event: Event) -> None:
        """Take in an event: a server's first ready or failed is its first outcome."""
        if isinstance(event, McpServerChanged) and event.state in ("ready", "failed"):
            self.waiting.pop(event.server, None)
            if self.done and self._done is not None:
                self._done.set()

    async def settled(self) -> None:
        """Return once every server has had its first outcome, or after the longest startup
        timeout (each server's own try ends by then anyway)."""
        if self.done:
            return
        if self._done is None:
            self._done = anyio.Event()
        with anyio.move_on_after(self.limit_s):
            await self._done.wait()
