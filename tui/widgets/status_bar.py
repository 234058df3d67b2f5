"""The bottom status line: provider and model, agent counts, tokens, elapsed time."""

from __future__ import annotations

from agentui.core.tree import AgentStatus
from rich.text import Text
from textual.widgets import Static

from ..view_model import RunViewModel
from .agent_tree import format_elapsed


class StatusBar(Static):
    def show(
        self, model: RunViewModel, provider: str, model_id: str, elapsed: float | None
    ) -> None:
        agents = model.agents.values()
        running = sum(a.status in (AgentStatus.RUNNING, AgentStatus.MODIFIED) for a in agents)
        waiting = sum(a.status is AgentStatus.AWAITING_USER for a in agents)
        done = sum(a.status.is_final for a in agents)
        tokens = sum(a.tokens for a in agents)
        text = Text()
        text.append(f" {provider}", style="bold")
        text.append(f" {model_id}")
        if provider == "scripted":
            text.append("  offline demo model (no API key)", style="italic")
        text.append(f"  │ running {running}  waiting for you {waiting}  done {done}")
        text.append(f"  │ {tokens:,} tokens")
        if elapsed is not None:
            text.append(f"  │ {format_elapsed(elapsed)}")
        self.update(text)
