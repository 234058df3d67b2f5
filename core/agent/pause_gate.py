"""PauseGate: one agent's pause. While it is closed the agent waits at its next checkpoint.

Work that runs outside the checkpoints (a subprocess, an open stream, a tool's deadline) listens
to it and pauses too.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

import anyio

log = logging.getLogger("agentui.pause")

# Told True when the agent pauses and False when it resumes. Called synchronously from the
# command: it must not block.
PauseListener = Callable[[bool], None]


class PauseGate:
    __slots__ = ("_listeners", "_reopened")

    def __init__(self) -> None:
        self._reopened: anyio.Event | None = None  # None while open (most agents never pause)
        self._listeners: list[PauseListener] = []

    @property
    def paused(self) -> bool:
        return self._reopened is not None

    def close(self) -> bool:
        """Pause; False when it was paused already."""
        if self._reopened is not None:
            return False
        self._reopened = anyio.Event()
        self._tell(True)
        return True

    def open(self) -> bool:
        """Resume; False when it was not paused."""
        reopened, self._reopened = self._reopened, None
        if reopened is None:
            return False
        reopened.set()
        self._tell(False)
        return True

    async def checkpoint(self) -> None:
        """Return at once when open; otherwise once it opens."""
        while (reopened := self._reopened) is not None:
            await reopened.wait()

    def watch(self, listener: PauseListener) -> Callable[[], None]:
        """Call `listener` on every pause and resume, in the order listeners came (at once with
        True when paused now). Returns a function that stops the calls."""
        self._listeners.append(listener)
        if self.paused:
            listener(True)

        def remove() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return remove

    def _tell(self, paused: bool) -> None:
        for listener in list(self._listeners):
            try:
                listener(paused)
            except Exception:  # a listener's bug must not break pause or resume
                log.exception("pause listener failed")
