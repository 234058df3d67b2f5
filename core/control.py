"""Per-agent control state: the pause gate, the cancel scope, pending interventions, timing."""

from __future__ import annotations

import logging
from collections.abc import Callable

import anyio

from .clock import Clock
from .tree import AgentNode

log = logging.getLogger("agentui.control")

# Told True when the agent pauses and False when it resumes (e.g. the Python tool stops and
# continues its process). Called synchronously from the command: it must not block.
PauseListener = Callable[[bool], None]


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
        self.notes: list[tuple[str, str]] = []  # (note id, text), oldest first
        self.open_queries: set[str] = set()
        self.interventions: list[str] = []  # kinds applied to this agent, in order (a report)
        self._pause_listeners: list[PauseListener] = []
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
        self._tell_listeners(True)
        return True

    def resume(self) -> bool:
        """Open the gate; False when it was already open."""
        if not self.paused:
            return False
        self._gate.set()
        self.activity_changed()
        self._tell_listeners(False)
        return True

    def watch_pause(self, listener: PauseListener) -> Callable[[], None]:
        """Call `listener` on every pause and resume (at once with True when already paused).

        Work that runs outside the gate's checkpoints (a subprocess) uses it to pause too.
        Returns a function that stops the calls.
        """
        self._pause_listeners.append(listener)
        if self.paused:
            listener(True)

        def remove() -> None:
            if listener in self._pause_listeners:
                self._pause_listeners.remove(listener)

        return remove

    def _tell_listeners(self, paused: bool) -> None:
        for listener in list(self._pause_listeners):
            try:
                listener(paused)
            except Exception:  # a listener's bug must not break pause or resume
                log.exception("pause listener failed")

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
