"""The event that starts a root agent from another agent's step (`agentui fork`, the tree's fork).

Apart from events.py because a folded agent keeps where it was forked from
(`AgentNode.forked_from`): a resumed session's first frame unpickles its agents without
loading every event's model.
"""

from __future__ import annotations

from typing import Literal

from agentui.core.protocol.event_base import Event


class AgentForked(Event):
    """This root agent starts from a copy of another agent's conversation at one of its steps
    (published right after its agent:spawned, before its conversation). `session`: the saved
    session the origin is in, when it is not this run's (`agentui fork`)."""

    type: Literal["agent:forked"] = "agent:forked"
    origin_id: str
    origin_name: str
    step: int
    session: str | None = None

    @property
    def origin(self) -> str:
        """The step it came from as the command line names it: main@3."""
        return f"{self.origin_name}@{self.step}"
