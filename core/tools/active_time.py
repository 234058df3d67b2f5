"""A stopwatch that stands still while suspended: the Python tool's timeout counts only the
time its code could run (not paused, not waiting for the runtime to serve a request)."""

from __future__ import annotations

import time
from collections.abc import Callable


class ActiveTime:
    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._now = monotonic
        self._counted = 0.0
        self._since: float | None = monotonic()  # None while suspended
        self._suspensions = 0  # pause and a request in service may overlap

    @property
    def running(self) -> bool:
        return self._suspensions == 0

    def elapsed(self) -> float:
        if self._since is None:
            return self._counted
        return self._counted + self._now() - self._since

    def suspend(self) -> None:
        if self._suspensions == 0 and self._since is not None:
            self._counted += self._now() - self._since
            self._since = None
        self._suspensions += 1

    def resume(self) -> None:
        if self._suspensions == 0:
            raise RuntimeError("resume() without a matching suspend()")
        self._suspensions -= 1
        if self._suspensions == 0:
            self._since = self._now()
