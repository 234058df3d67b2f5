"""The events of one agent and its descendants, up to the end of the agent's run: what the
seed's `GET /agent/stream?prompt=...` streams for the task it starts."""

from __future__ import annotations

import json

from ..tree import AgentStatus
from .event_log import LogEntry

_ENDS = frozenset(status.value for status in AgentStatus if status.is_final)


class SubtreeSelection:
    def __init__(self, root_id: str) -> None:
        self.root_id = root_id
        self.members = {root_id}  # grows as subagents are spawned under it

    def keep(self, entry: LogEntry) -> bool:
        if (
            entry.type == "agent:spawned"
            and entry.agent_id not in self.members
            and json.loads(entry.json).get("parent_id") in self.members
        ):
            self.members.add(entry.agent_id)
        return entry.agent_id in self.members

    def ends(self, entry: LogEntry) -> bool:
        """The root's run has ended (its status became a final one)."""
        if entry.agent_id != self.root_id or entry.type != "agent:status":
            return False
        return json.loads(entry.json).get("new") in _ENDS
