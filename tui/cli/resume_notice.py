"""What a person resuming a session learns first, in words: how many agents the session's end
interrupted, and how many inbox rows wait for them (so they know to open the inbox).

    resumed 20261124T101010Z-ab12: 1 interrupted agent, 2 waiting for you

Rows, not agents: a budget's stop holding three agents paused is one row, as the inbox lists it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentui.core.state.inbox import inbox

if TYPE_CHECKING:
    from agentui.core.session.resume import ResumePlan


def resume_outcome(plan: ResumePlan, *, inbox_hint: str = "", rows: bool = True) -> str:
    """`1 interrupted agent, 2 waiting for you`; empty when neither. `inbox_hint` follows the
    rows' count (where this front end shows the inbox); `rows=False` leaves the count out (the
    app's status bar counts its inbox live beside the notice, which stays)."""
    interrupted = len(plan.interrupted)
    waiting = len(inbox(plan.state)) if rows else 0
    parts = []
    if interrupted:
        parts.append(f"{interrupted} interrupted agent{'s' if interrupted != 1 else ''}")
    if waiting:
        parts.append(f"{waiting} waiting for you{inbox_hint}")
    return ", ".join(parts)
