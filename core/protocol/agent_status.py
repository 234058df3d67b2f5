"""An agent's status: its own module, free of pydantic, so the screen's first frame can draw
status glyphs without loading the agent tree's models (core/agent/tree.py re-exports it)."""

from __future__ import annotations

from enum import StrEnum


class AgentStatus(StrEnum):
    PENDING = "pending"
    RUNNING = "running"
    PAUSED = "paused"
    AWAITING_USER = "awaiting_user"
    MODIFIED = "modified"  # shown after a modify until the next model call picks it up
    COMPLETED = "completed"
    ERROR = "error"
    CANCELLED = "cancelled"
    DELETED = "deleted"

    @property
    def is_live(self) -> bool:
        return self in LIVE_STATUSES

    @property
    def is_final(self) -> bool:
        return not self.is_live


LIVE_STATUSES = frozenset(
    {
        AgentStatus.PENDING,
        AgentStatus.RUNNING,
        AgentStatus.PAUSED,
        AgentStatus.AWAITING_USER,
        AgentStatus.MODIFIED,
    }
)
