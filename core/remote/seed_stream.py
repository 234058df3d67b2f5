"""The seed's chunks for `GET /agent/stream?prompt=...&format=seed`: what a client written from
the seed's design (shared/seeds/002) reads, made from agentui's events.

    {"type": "text-delta", "agentId": "a1", "textDelta": "Hel"}
    {"type": "agent-state", "agentId": "a2", "state": {"agentId": "a2", "parentId": "a1",
        "status": "pending", "name": "main.1", "userContent": "look it up"}}
    {"type": "agent-state", "agentId": "a1", "state": {"agentId": "a1", "status": "running",
        "previousStatus": "pending", "reason": "..."}}
    {"type": "tool-call", "agentId": "a1", "toolCallId": "c1", "toolName": "fork",
        "args": {"prompt": "look it up"}}
    {"type": "tool-result", "agentId": "a1", "toolCallId": "c1", "toolName": "fork",
        "result": "a2", "isError": false}
    {"type": "error", "agentId": "a1", "error": "..."}

`state` holds the fields of the seed's agent (`GET /agent/tree`'s shape) that the event
changed: all it knows at a spawn, the status and why at a status change. Every chunk names its
agent (the stream carries the task's subagents too); a seed client that reads only `type` and
`textDelta` ignores the rest. agentui's other events (thinking, usage, queries, ...) have no
chunk here: the default format carries them. Message ids, reconnects and the stream's end are
the default format's (subtree_selection.py): only each message's data differs.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from agentui.core.remote.sse_batches import Outgoing
from agentui.core.support.utf8 import json_text


def seed_chunk(event: dict[str, Any]) -> dict[str, Any] | None:
    """The seed's chunk for one agentui event (as its JSON reads), None when it has none."""
    kind, agent_id = event["type"], event["agent_id"]
    chunk: dict[str, Any] | None = None
    if kind == "text:delta":
        chunk = {"type": "text-delta", "textDelta": event["delta"]}
    elif kind == "agent:spawned":
        state = {
            "agentId": agent_id,
            "parentId": event["parent_id"],
            "status": "pending",
            "name": event["name"],
            "userContent": event["task"],
        }
        chunk = {"type": "agent-state", "state": state}
    elif kind == "agent:status":
        state = {
            "agentId": agent_id,
            "status": event["new"],
            "previousStatus": event["old"],
            "reason": event["reason"],
        }
        chunk = {"type": "agent-state", "state": state}
    elif kind == "tool:start":
        call = event["call"]
        chunk = {
            "type": "tool-call",
            "toolCallId": call["id"],
            "toolName": call["name"],
            "args": call["arguments"],
        }
    elif kind in ("tool:complete", "tool:error", "tool:timeout"):
        if kind == "tool:complete":
            outcome = event["result"]
        elif kind == "tool:error":
            outcome = event["error"]
        else:
            outcome = f"timed out after {event['timeout_s']:g} s"
        chunk = {
            "type": "tool-result",
            "toolCallId": event["call_id"],
            "toolName": event["name"],
            "result": outcome,
            "isError": kind != "tool:complete",
        }
    elif kind == "execution:error":
        chunk = {"type": "error", "error": event["error"]}
    if chunk is None:
        return None
    return {"type": chunk.pop("type"), "agentId": agent_id, **chunk}


def seed_messages(messages: Sequence[Outgoing]) -> list[Outgoing]:
    """`messages` as the seed's chunks, each under its own id; those with no chunk left out
    (the next message's id covers them: a reconnect resumes past them)."""
    out: list[Outgoing] = []
    for message in messages:
        chunk = seed_chunk(json.loads(message.data))
        if chunk is not None:
            out.append(Outgoing(message.id, json_text(chunk, separators=(",", ":"))))
    return out
