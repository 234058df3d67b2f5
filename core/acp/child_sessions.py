"""agentui's subagents as ACP child sessions, for a client that says it understands them.

ACP's subagents (the `subagents` client capability, the `subagent_update` and
`session_message` session updates, a child's own `session/cancel`) are read from the schema of
`@agentclientprotocol/sdk` 2.4.0 (npm), where they are still marked unstable; the Python SDK
(agent-client-protocol 0.12.1, the newest on PyPI) has no model for them. So the capability is
read from the client's `initialize` as it came over the wire (`takes_subagents`), and these
updates are sent as JSON through the connection (`RawSend`), field names as the schema has them.

Every subagent, at any depth, is a child session with an opaque id of its own (`child_id`),
announced on its parent's session (the root's is the ACP session itself) with a
`subagent_update` naming it, what it was asked (its description), that it may be cancelled on
its own, and its state (running, waiting on the person, or idle with how its work stopped). Its
stream (text, thoughts, tool calls, questions and approvals) goes to its own session. The task a
parent hands a child is a `session_message` in the child's session from the parent's, and the
result it hands back one in the parent's from the child's.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.state.agent_state import AgentState

RawSend = Callable[[str, dict[str, Any]], Awaitable[None]]
SESSION_UPDATE = "session/update"
_SEPARATOR = "~"  # not in an agentui session id nor an agent id: a child id reads back


def takes_subagents(initialize_params: Any) -> bool:
    """The client's `initialize` declares `clientCapabilities.subagents` (an object)."""
    if not isinstance(initialize_params, dict):
        return False
    capabilities = initialize_params.get("clientCapabilities")
    return isinstance(capabilities, dict) and isinstance(capabilities.get("subagents"), dict)


def child_id(session_id: str, agent_id: str) -> str:
    return f"{session_id}{_SEPARATOR}{agent_id}"


def parse_child_id(child: str) -> tuple[str, str] | None:
    """(session id, agent id) of a child session's id; None for any other id."""
    session_id, separator, agent_id = child.partition(_SEPARATOR)
    return (session_id, agent_id) if separator and session_id and agent_id else None


def announcement(child: str, agent: AgentState) -> dict[str, Any]:
    """The first `subagent_update` of a child: sent on its parent's session before anything
    of the child's own."""
    return {
        "sessionUpdate": "subagent_update",
        "sessionId": child,
        "title": agent.name,
        "description": agent.task,
        "capabilities": {"cancel": {}},
    }


def state_update(child: str, agent: AgentState, error: str | None) -> dict[str, Any] | None:
    """The child's state as its status says it; None for a status that says nothing new of it
    (pending: not started yet)."""
    status = agent.status
    state: dict[str, Any]
    if status is AgentStatus.AWAITING_USER:
        state = {"state": "requires_action"}
    elif status.is_live and status is not AgentStatus.PENDING:
        state = {"state": "running"}
    elif status is AgentStatus.COMPLETED:
        state = {"state": "idle", "stopReason": "end_turn"}
    elif status is AgentStatus.ERROR:
        failure = {"code": -32603, "message": error or agent.error or "the agent failed"}
        state = {"state": "idle", "stopReason": "error", "error": failure}
    elif status.is_final:  # cancelled or deleted
        state = {"state": "idle", "stopReason": "cancelled"}
    else:
        return None
    return {"sessionUpdate": "subagent_update", "sessionId": child, "state": state}


def session_message(message_id: str, sender: str, recipient: str, text: str) -> dict[str, Any]:
    """A message between two sessions, as the recipient's transcript shows it."""
    return {
        "sessionUpdate": "session_message",
        "messageId": message_id,
        "senderSessionId": sender,
        "recipientSessionId": recipient,
        "content": [{"type": "text", "text": text}],
    }
