"""Per-agent control state: the pause gate, the cancel scope, pending interventions, timing."""

from __future__ import annotations

import anyio

from .clock import Clock
from .tree import AgentNode


class AgentControl:
    def __init__(self, node: AgentNode, clock: Clock) -> None:
        self.node = node
        self._clock = clock
        self.scope = anyio.CancelScope()
        self._gate = anyio.Event()
        self._gate.set()  # set = may run
        self.started = False
        self.done = anyio.Event()
        self.stop_reason: str | None = None  # why it was cancelled, once it was
        self.delete_requested = False
        # Interventions waiting for the agent's next model call.
        self.pending_instructions: str | None = None
        self.pending_content: str | None = None
        self.notes: list[str] = []
        self.open_queries: set[str] = set()
        # Active time excludes time paused or waiting for the person.
        self._run_started: float | None = None
        self._inactive_total = 0.0
        self._inactive_since: float | None = None

    # -- pause gate --------------------------------------------------------------------

    @property
    def paused(self) -> bool:
        return not self._gate.is_set()

    def pause(self) -> bool:
        """Close the gate; False when it was already closed."""
        if self.paused:
            return False
        self._gate = anyio.Event()
        self.activity_changed()
        return True

    def resume(self) -> bool:
        """Open the gate; False when it was already open."""
        if not self.paused:
            return False
        self._gate.set()
        self.activity_changed()
        return True

    async def checkpoint(self) -> None:
        while not self._gate.is_set():
            await self._gate.wait()

    # -- interventions -----------------------------------------------------------------

    @property
    def has_pending_modification(self) -> bool:
        return self.pending_instructions is not None or self.pending_content is not None

    # -- timing ------------------------------------------------------------------------

    def begin_run(self) -> None:
        self.started = True
        self._run_started = self._clock.monotonic()
        self._inactive_total = 0.0
        self._inactive_since = None
        self.activity_changed()

    @property
    def inactive(self) -> bool:
        return self.paused or bool(self.open_queries)

    def activity_changed(self) -> None:
        now = self._clock.monotonic()
        if self.inactive and self._inactive_since is None:
            self._inactive_since = now
        elif not self.inactive and self._inactive_since is not None:
            self._inactive_total += now - self._inactive_since
            self._inactive_since = None

    def active_seconds(self) -> float:
        if self._run_started is None:
            return 0.0
        now = self._clock.monotonic()
        inactive = self._inactive_total
        if self._inactive_since is not None:
            inactive += now - self._inactive_since
        return max(0.0, now - self._run_started - inactive)
