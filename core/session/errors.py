"""What goes wrong with a session file: not found, ambiguous, unreadable, or open elsewhere.

Damaged lines are not errors: the reader skips them with a warning (see reader.py).
"""

from __future__ import annotations

from agentui.core.support.errors import AgentUIError


class SessionError(AgentUIError):
    """A session cannot be found, read or continued; the message says which and why."""
