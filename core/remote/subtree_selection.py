"""The events of one agent and its descendants, up to the end of the agent's run: what the
seed's `GET /agent/stream?prompt=...` streams for the task it starts.

A browser's EventSource reconnects by itself whenever the stream ends, dropped or finished,
sending the last id it saw as `Last-Event-ID`. So each message id of this stream names its
agent, `AGENT@ID` (ID as in sse_batches.py): a request that carries one never starts a task
again, it resumes that agent's stream after ID, or, when the agent's run had already ended
there, is answered 204 No Content, which tells EventSource to stop.
"""

from __future__ import annotations

import json

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.log_entry import Logged
from agentui.core.remote.sse_batches import ResumePoint

_ENDS = frozenset(status.value for status in AgentStatus if status.is_final)
SEPARATOR = "@"


class SubtreeSelection:
    def __init__(self, root_id: str) -> None:
        self.root_id = root_id
        self.members = {root_id}  # grows as subagents are spawned under it

    @property
    def id_prefix(self) -> str:
        """What goes before each message id of this stream."""
        return f"{self.root_id}{SEPARATOR}"

    def keep(self, entry: Logged) -> bool:
        if (
            entry.type == "agent:spawned"
            and entry.agent_id not in self.members
            and json.loads(entry.json).get("parent_id") in self.members
        ):
            self.members.add(entry.agent_id)
        return entry.agent_id in self.members

    def ends(self, entry: Logged) -> bool:
        """The root's run has ended (its status became a final one)."""
        if entry.agent_id != self.root_id or entry.type != "agent:status":
            return False
        return json.loads(entry.json).get("new") in _ENDS


def parse_stream_id(text: str) -> tuple[str, ResumePoint]:
    """The agent and resume point of an id this stream sent; ValueError for anything else."""
    agent_id, separator, rest = text.strip().partition(SEPARATOR)
    if not separator or not agent_id:
        raise ValueError(f"not an id of this stream (AGENT{SEPARATOR}ID): {text!r}")
    return agent_id, ResumePoint.parse(rest)


def selection_after(log: EventLog, root_id: str, watermark: int) -> SubtreeSelection | None:
    """The stream's selection as it stood after `watermark`; None when the root's run had
    ended by then (or the root is not in the log): nothing more is to come."""
    spawned = log.spawn_position(root_id)
    if spawned is None:
        return None
    selection = SubtreeSelection(root_id)
    for entry in log.states(spawned, log.position_after(watermark)):  # deltas change nothing
        if selection.keep(entry) and selection.ends(entry):
            return None
    return selection
