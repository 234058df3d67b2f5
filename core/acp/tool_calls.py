"""How agentui's work shows as ACP tool calls: their ids, kinds and `_meta`.

A client that knows nothing of agentui sees every agent's tool calls, every subagent (one tool
call each, its text as the call's content) and every question as tool calls. Ids are unique in
a session: a model's call ids are its own agent's only, so each is prefixed with the agent id.
Each call's `_meta["agentui"]` names the agent it belongs to and that agent's parent, so a
client that does know agentui can draw the tree.
"""

from __future__ import annotations

from typing import Any

from acp.schema import ToolKind

# The tools whose ACP kind says more than "other" (a client picks an icon by it).
_KINDS: dict[str, ToolKind] = {"python": "execute", "ask_user": "think", "wait": "think"}
META_KEY = "agentui"


def tool_call_id(agent_id: str, call_id: str) -> str:
    return f"{agent_id}:{call_id}"


def subagent_call_id(agent_id: str) -> str:
    return f"agent:{agent_id}"


def question_call_id(query_id: str) -> str:
    return f"question:{query_id}"


def tool_kind(tool: str) -> ToolKind:
    return _KINDS.get(tool, "other")


def agent_meta(
    agent_id: str, name: str, parent_id: str | None, **more: Any
) -> dict[str, dict[str, Any]]:
    """`_meta` for a tool call or plan entry: whose it is, in the tree."""
    return {META_KEY: {"agentId": agent_id, "agentName": name, "parentId": parent_id, **more}}
