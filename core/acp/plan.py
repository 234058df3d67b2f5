"""The ACP plan of a prompt turn: one entry per subagent, as each starts, works and ends.

A client replaces its whole plan with each `plan` update, so every update carries every entry.
The plan starts empty with each run of a root agent (each prompt): it lists that turn's
subagents, at any depth, in the order they were started.
"""

from __future__ import annotations

from acp.helpers import update_plan
from acp.schema import AgentPlanUpdate, PlanEntry, PlanEntryStatus

from agentui.core.acp.markdown import one_line
from agentui.core.acp.tool_calls import agent_meta
from agentui.core.protocol.agent_status import AgentStatus


def entry_status(status: AgentStatus) -> PlanEntryStatus:
    """ACP has no failed entry: an agent that ended, however it ended, is done with."""
    if status is AgentStatus.PENDING:
        return "pending"
    return "in_progress" if status.is_live else "completed"


class SubagentPlan:
    def __init__(self) -> None:
        self._entries: dict[str, PlanEntry] = {}  # by agent id, in the order started

    def clear(self) -> AgentPlanUpdate | None:
        """Start a new turn's plan: an empty plan to send when the last one had entries (a
        client keeps showing a plan until it gets another)."""
        if not self._entries:
            return None
        self._entries.clear()
        return self.update()

    def add(self, agent_id: str, name: str, parent_id: str | None, task: str) -> AgentPlanUpdate:
        self._entries[agent_id] = PlanEntry(
            content=f"{name}: {one_line(task)}",
            priority="medium",
            status="pending",
            field_meta=agent_meta(agent_id, name, parent_id),
        )
        return self.update()

    def set_status(self, agent_id: str, status: AgentStatus) -> AgentPlanUpdate | None:
        """The whole plan again when the agent's entry changed; None when nothing did (an
        agent of an earlier turn, or a move between two live statuses)."""
        entry = self._entries.get(agent_id)
        new = entry_status(status)
        if entry is None or entry.status == new:
            return None
        self._entries[agent_id] = entry.model_copy(update={"status": new})
        return self.update()

    def update(self) -> AgentPlanUpdate:
        return update_plan(self._entries.values())
