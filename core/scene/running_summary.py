"""The running scene summary: one line per closed round, updated as each round closes.

The envelope sends it in its summaries section (fitted to that section's budget); here it is
only kept from growing without end: past MAX_CHARS the oldest rounds' lines are dropped, and a
first line says so.
"""

from __future__ import annotations

from agentui.core.scene.record import RoundRecord
from agentui.core.scene.summary import Summariser

MAX_CHARS = 4000
EARLIER = "(earlier rounds left out)"


async def updated_summary(previous: str, closed: RoundRecord, summariser: Summariser) -> str:
    """`previous` with a line for the round that just closed."""
    bullets = [b.strip().rstrip(".") for b in await summariser(closed) if b.strip()]
    line = f"Round {closed.number}: " + (
        "; ".join(bullets) + "." if bullets else "nothing happened."
    )
    lines = [old for old in previous.splitlines() if old and old != EARLIER] + [line]
    dropped = False
    while len(lines) > 1 and sum(len(one) + 1 for one in lines) > MAX_CHARS:
        lines.pop(0)
        dropped = True
    return "\n".join([EARLIER, *lines] if dropped else lines)
