"""The agent tree: nodes, their statuses, and the only status changes allowed."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from agentui.core.agent.budget import Budget
from agentui.core.protocol.agent_status import LIVE_STATUSES, AgentStatus
from agentui.core.protocol.conversation import Conversation
from agentui.core.protocol.fork_event import AgentForked
from agentui.core.protocol.usage import Usage
from agentui.core.support.errors import IllegalTransitionError, UnknownAgentError

S = AgentStatus
_LIVE = LIVE_STATUSES
_ENDS = frozenset({S.COMPLETED, S.ERROR, S.CANCELLED})

# A live agent may move between the live statuses or end; it goes back to pending only when
# it was paused or modified before its run began. An ended agent may be deleted, or run again
# to continue its conversation, or be rewound (then paused). Deleted is final.
ALLOWED: dict[AgentStatus, frozenset[AgentStatus]] = {
    S.PENDING: frozenset({S.RUNNING, S.PAUSED, S.MODIFIED, S.ERROR, S.CANCELLED, S.DELETED}),
    S.RUNNING: (_LIVE - {S.PENDING, S.RUNNING}) | _ENDS | {S.DELETED},
    S.PAUSED: (_LIVE - {S.PAUSED}) | _ENDS | {S.DELETED},
    S.AWAITING_USER: (_LIVE - {S.PENDING, S.AWAITING_USER}) | _ENDS | {S.DELETED},
    S.MODIFIED: (_LIVE - {S.MODIFIED}) | _ENDS | {S.DELETED},
    # Paused: rewound to one of its steps (steps.py), it waits for the person.
    **{end: frozenset({S.DELETED, S.RUNNING, S.PAUSED}) for end in _ENDS},
    S.DELETED: frozenset(),
}


def check_transition(agent_id: str, old: AgentStatus, new: AgentStatus) -> None:
    if new not in ALLOWED[old]:
        raise IllegalTransitionError(agent_id, old.value, new.value)


class UserComment(StrEnum):
    """The person's standing instruction to an agent (the seed's userComment)."""

    UNCHANGED = "unchanged"
    DELETE = "delete"
    MODIFY = "modify"
    COMMENT = "comment"  # free text, kept in `AgentNode.comment`


class AgentNode(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame needs none.
    model_config = ConfigDict(defer_build=True)

    id: str
    parent_id: str | None = None
    children: list[str] = Field(default_factory=list)
    name: str
    task: str
    profile: str | None = None  # the agent profile it runs with (core/profiles), if any
    # What runs it when agentui's own code does instead of a model ("scene", "round"): such an
    # agent makes no model call, so it takes no steer, modify or continue.
    driver: str | None = None
    status: AgentStatus = AgentStatus.PENDING
    user_comment: UserComment = UserComment.UNCHANGED
    comment: str | None = None
    user_content: str | None = None  # replacement content from the latest modify
    usage: Usage = Field(default_factory=Usage)
    cost_usd: float | None = None  # what `usage` cost; None when the model has no price
    # What its subtree may spend (core/agent/budget.py); events say it (budget:set), so it is
    # left out of snapshots like a conversation, and a resumed agent keeps it.
    budget: Budget | None = Field(default=None, exclude=True)
    result: str | None = None
    error: str | None = None
    created_at: float
    started_at: float | None = None
    ended_at: float | None = None
    runs: int = 0
    conversation: Conversation = Field(default_factory=Conversation, exclude=True)
    # Time travel (steps.py), told by events and so left out of snapshots like a conversation:
    # the step of another agent this root was forked from, and whether a rewind of its parent
    # set it aside (it was started after the step its parent went back to).
    forked_from: AgentForked | None = Field(default=None, exclude=True)
    set_aside: bool = Field(default=False, exclude=True)

    def snapshot(self) -> dict[str, Any]:
        """JSON-ready view without the message history."""
        return self.model_dump(mode="json")

    def with_history(self) -> dict[str, Any]:
        data = self.snapshot()
        data["conversation"] = self.conversation.model_dump(mode="json")
        return data


def own_copy(node: AgentNode) -> AgentNode:
    """A plain node with the same fields that shares nothing another holder may change: no
    children yet (they are added as they come), its own conversation holding the same messages
    (which are never changed in place), whatever subclass `node` was (a fold's AgentState)."""
    fields = {name: getattr(node, name) for name in AgentNode.model_fields}
    fields["children"] = []
    conversation = node.conversation
    fields["conversation"] = Conversation(
        instructions=conversation.instructions, messages=list(conversation.messages)
    )
    return AgentNode.model_construct(**fields)


class AgentTree:
    """The registry of agents of one runtime. Owned by the Runtime; never a global."""

    def __init__(self) -> None:
        self._nodes: dict[str, AgentNode] = {}

    def __contains__(self, agent_id: object) -> bool:
        return agent_id in self._nodes

    def __len__(self) -> int:
        return len(self._nodes)

    def add(self, node: AgentNode) -> None:
        if node.id in self._nodes:
            raise ValueError(f"agent {node.id} already exists")
        if node.parent_id is not None:
            self.get(node.parent_id).children.append(node.id)
        self._nodes[node.id] = node

    def get(self, agent_id: str) -> AgentNode:
        try:
            return self._nodes[agent_id]
        except KeyError:
            raise UnknownAgentError(agent_id) from None

    def nodes(self) -> list[AgentNode]:
        return list(self._nodes.values())

    def roots(self) -> list[AgentNode]:
        return [n for n in self._nodes.values() if n.parent_id is None]

    def subtree(self, agent_id: str) -> list[AgentNode]:
        """The agent and all its descendants, parents before children."""
        out: list[AgentNode] = []
        stack = [agent_id]
        while stack:
            node = self.get(stack.pop())
            out.append(node)
            stack.extend(reversed(node.children))
        return out

    def depth(self, agent_id: str) -> int:
        depth = 0
        node = self.get(agent_id)
        while node.parent_id is not None:
            depth += 1
            node = self.get(node.parent_id)
        return depth

    def set_status(self, agent_id: str, new: AgentStatus) -> AgentStatus:
        """Validate and apply a status change; returns the old status."""
        node = self.get(agent_id)
        old = node.status
        check_transition(agent_id, old, new)
        node.status = new
        return old

    def snapshot(self) -> dict[str, Any]:
        return {
            "roots": [n.id for n in self.roots()],
            "agents": {n.id: n.snapshot() for n in self._nodes.values()},
        }
