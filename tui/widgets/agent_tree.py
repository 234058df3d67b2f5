"""The agent tree: one node per agent with status, name, task, tokens and elapsed time.

Nodes are added and relabelled in batches from the app's flush timer, never per event
(adding one node per loop turn is quadratic in Textual's Tree).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from agentui.core.tree import AgentStatus
from rich.text import Text
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from ..view_model import AgentView

GLYPHS: dict[AgentStatus, tuple[str, str]] = {
    AgentStatus.PENDING: ("○", "dim"),
    AgentStatus.RUNNING: ("●", "bold green"),
    AgentStatus.PAUSED: ("‖", "bold yellow"),
    AgentStatus.AWAITING_USER: ("?", "bold magenta"),
    AgentStatus.MODIFIED: ("✎", "bold cyan"),
    AgentStatus.COMPLETED: ("✓", "green"),
    AgentStatus.ERROR: ("✗", "bold red"),
    AgentStatus.CANCELLED: ("⊘", "dim"),
    AgentStatus.DELETED: ("⌫", "dim strike"),
}


def format_elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def agent_label(agent: AgentView, now: float) -> Text:
    glyph, style = GLYPHS[agent.status]
    dim = agent.status in (AgentStatus.CANCELLED, AgentStatus.DELETED)
    task = " ".join(agent.task.split())
    if len(task) > 32:
        task = task[:31] + "…"
    label = Text()
    label.append(glyph, style=style)
    label.append(" ")
    label.append(agent.name, style="dim" if dim else "bold")
    label.append(f" {task}", style="dim")
    details = []
    if agent.tokens:
        details.append(f"{agent.tokens:,} tok")
    if agent.started_ts is not None:
        details.append(format_elapsed((agent.ended_ts or now) - agent.started_ts))
    if details:
        label.append("  " + " · ".join(details), style="dim italic")
    if agent.status is AgentStatus.AWAITING_USER:
        label.stylize("reverse")
    return label


class AgentTree(Tree[str]):
    """Agents by parent. Node data is the agent id."""

    def __init__(self, clock: Callable[[], float], **kwargs: object) -> None:
        super().__init__("agents", **kwargs)  # type: ignore[arg-type]
        self.show_root = False
        self.guide_depth = 3
        self._clock = clock
        self._agent_nodes: dict[str, TreeNode[str]] = {}

    def add_agents(self, agents: Iterable[AgentView]) -> None:
        now = self._clock()
        for agent in agents:
            parent = self._agent_nodes.get(agent.parent_id or "", self.root)
            self._agent_nodes[agent.id] = parent.add(
                agent_label(agent, now), data=agent.id, expand=True, allow_expand=False
            )

    def relabel(self, agents: Iterable[AgentView]) -> None:
        now = self._clock()
        for agent in agents:
            node = self._agent_nodes.get(agent.id)
            if node is not None:
                node.set_label(agent_label(agent, now))

    def select_agent(self, agent_id: str) -> None:
        node = self._agent_nodes.get(agent_id)
        if node is not None:
            self.move_cursor(node)
