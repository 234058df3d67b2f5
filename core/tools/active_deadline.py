"""A tool call's time limit on active time: the cancel scope's deadline stands still while the
agent is paused, so a pause never makes a tool time out."""

from __future__ import annotations

import math
from collections.abc import Callable

import anyio


class ActiveDeadline:
    """Run the work in `scope`; it is cancelled once `timeout_s` of active time has passed.

    Active time is read from `active_seconds`, a clock that stands still while the agent is
    paused (the agent's own, as for `max_duration_s`). The scope's deadline is in the event
    loop's time, so it is lifted on pause and set again on resume to the active time left:
    pass `on_pause` to the agent's pause listeners.
    """

    def __init__(self, timeout_s: float, active_seconds: Callable[[], float]) -> None:
        self.timeout_s = timeout_s
        self._active_seconds = active_seconds
        self._started = active_seconds()
        self.scope = anyio.CancelScope()
        self._arm()

    def remaining(self) -> float:
        """Active seconds left (negative once overdue)."""
        return self.timeout_s - (self._active_seconds() - self._started)

    def on_pause(self, paused: bool) -> None:
        if paused:
            self.scope.deadline = math.inf
        else:
            self._arm()

    def _arm(self) -> None:
        self.scope.deadline = anyio.current_time() + max(0.0, self.remaining())

    @property
    def expired(self) -> bool:
        return self.scope.cancelled_caught
