"""The bottom status line: provider and model, agent counts, tokens, cost, elapsed time."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from agentui.core.terminal_text import visible_controls
from agentui.core.tree import AgentStatus

from ..view_model import RunViewModel
from .agent_tree import format_elapsed

NOTICE_CHARS = 48


class StatusBar(Static):
    def show(
        self,
        model: RunViewModel,
        provider: str,
        model_id: str,
        elapsed: float | None,
        notice: str = "",
    ) -> None:
        agents = model.agents.values()
        running = sum(a.status in (AgentStatus.RUNNING, AgentStatus.MODIFIED) for a in agents)
        paused = sum(a.status is AgentStatus.PAUSED for a in agents)
        waiting = len(model.open_queries)
        done = sum(a.status.is_final for a in agents)
        tokens = sum(a.tokens for a in agents)
        costs = [a.cost_usd for a in agents if a.cost_usd is not None]
        # The counts come first: a narrow terminal cuts the line from the right.
        text = Text(f" running {running}")
        if paused:
            text.append(f"  paused {paused}")
        text.append(f"  waiting for you {waiting}", style="bold reverse" if waiting else "")
        text.append(f"  done {done}")
        if model.always_allowed:
            allowed = ", ".join(visible_controls(tool) for tool in model.always_allowed)
            text.append(f"  always allowed: {allowed}", style="bold")
        text.append(f"  │ {tokens:,} tok")
        if costs:
            text.append(f" ${sum(costs):.4f}")
        if model.narrator_tokens:
            text.append(f" (+{model.narrator_tokens:,} narrator)", style="dim")
        if elapsed is not None:
            text.append(f"  │ {format_elapsed(elapsed)}")
        text.append("  │ ")
        text.append(visible_controls(provider), style="bold")
        text.append(f" {visible_controls(model_id)}")
        notice = visible_controls(notice)  # it may quote a model's error or a file
        if notice:
            shown = notice if len(notice) <= NOTICE_CHARS else notice[: NOTICE_CHARS - 1] + "…"
            text.append(f"  {shown}", style="italic")
        if model.last_error is not None:
            name, error = model.last_error
            text.append(f"  │ {visible_controls(f'{name}: {error}')}", style="bold red")
        self.update(text)
