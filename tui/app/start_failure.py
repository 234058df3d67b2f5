"""A runtime that cannot start (a bad setting or script): said on the screen, and on the shell
with the words typed meanwhile (nothing ran them). The screen closes once its error has shown
for a moment and no key has come for another, so that every word typed meanwhile is in the
prompt: Textual drops the keys it has read but not handled when it shuts down. Real time: it
is the person who is waited for."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp

ERROR_SHOWN_S = 1.0  # the error shows at least this long
CLOSE_AFTER_QUIET_S = 0.4  # and the screen closes once no key has come for this long
CLOSE_CHECK_S = 0.05


class StartFailure:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self.why: str | None = None  # why the runtime could not start, for the shell
        self._last_key_at = 0.0  # time.monotonic() of the last key

    def key_arrived(self) -> None:
        self._last_key_at = time.monotonic()

    def say(self, why: str) -> None:
        """Said now; the app ends (status 2) once the person has stopped typing."""
        self.why = why
        app = self.app
        app.notify(
            f"{why}\nClosing once you stop typing; your words are printed with this.",
            title="agentui cannot start",
            severity="error",
            timeout=3600,  # until it closes: typing may go on longer than a toast
        )
        shown_at = time.monotonic()

        def close_when_quiet() -> None:
            now = time.monotonic()
            if now - shown_at >= ERROR_SHOWN_S and now - self._last_key_at >= CLOSE_AFTER_QUIET_S:
                app.exit(return_code=2)

        app.set_interval(CLOSE_CHECK_S, close_when_quiet)
