"""Under `agentui web`, SIGINT and SIGTERM handled by agentui again, not by Textual's web
driver."""

from __future__ import annotations

import signal
from collections.abc import Callable


def take_back_the_signals(stop_in_order: Callable[[], None]) -> None:
    """In a browser tab (agentui web) Textual's web driver has just replaced the handlers
    of SIGINT and SIGTERM with its own, which asks the app to exit however often it is
    sent: ours again, so the first stops in order and kills every sandbox, and a second
    ends the process even when the app is stuck."""
    from agentui.tui.app.terminal_watch import served_to_a_browser

    if served_to_a_browser():
        from agentui.core.support.termination import (
            TERMINATION_SIGNALS,
            end_on_termination_signals,
        )

        signals = (signal.SIGINT, *TERMINATION_SIGNALS)
        end_on_termination_signals(stop_in_order, exit_on_hangup=True, signals=signals)
