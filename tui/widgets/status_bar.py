"""The bottom status line: provider and model, agent counts, tokens, cost, elapsed time, and
the MCP servers' states."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import Static

from agentui.core.agent_status import AgentStatus
from agentui.core.terminal_text import clipped, visible_controls

from .agent_tree import format_elapsed

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.events import McpServerChanged
    from agentui.core.state import RunState

NOTICE_CHARS = 48
RUNNING = (AgentStatus.RUNNING, AgentStatus.MODIFIED)


@dataclass(slots=True)
class RunCounts:
    """What the line says about the agents, counted in one pass over them: each agent in one
    count (one waiting for the person is "waiting", paused or not), so they add up. The ended
    ones apart by how they ended: "done" is only what completed."""

    running: int = 0
    paused: int = 0
    waiting: int = 0
    done: int = 0
    cancelled: int = 0
    failed: int = 0
    deleted: int = 0
    tokens: int = 0
    cost: float | None = None  # None until some agent reports a cost
    first_start: float | None = None

    @classmethod
    def of(cls, model: RunState) -> RunCounts:
        counts = cls()
        costs = 0.0
        priced = False
        for agent in model.agents.values():
            status = agent.status
            if agent.open_queries or status is AgentStatus.AWAITING_USER:
                counts.waiting += 1
            elif status in RUNNING:
                counts.running += 1
            elif status is AgentStatus.PAUSED:
                counts.paused += 1
            elif status is AgentStatus.COMPLETED:
                counts.done += 1
            elif status is AgentStatus.CANCELLED:
                counts.cancelled += 1
            elif status is AgentStatus.ERROR:
                counts.failed += 1
            elif status is AgentStatus.DELETED:
                counts.deleted += 1
            counts.tokens += agent.tokens
            if agent.cost_usd is not None:
                costs += agent.cost_usd
                priced = True
            started = agent.started_ts
            if started is not None and (counts.first_start is None or started < counts.first_start):
                counts.first_start = started
        counts.cost = costs if priced else None
        return counts

    def ended_apart(self) -> list[tuple[str, int]]:
        """The ended agents that did not complete, by how they ended: those there are."""
        ends = (("cancelled", self.cancelled), ("failed", self.failed), ("deleted", self.deleted))
        return [(word, n) for word, n in ends if n]


MCP_STATES = ("ready", "starting", "restarting", "failed")


def mcp_summary(servers: dict[str, McpServerChanged]) -> tuple[str, bool]:
    """`mcp: 2 ready, 1 failed (docs: exited 1)`, and whether a server is not ready after a
    failure; ("", False) when there is no MCP server. The reason is the first such server's."""
    if not servers:
        return "", False
    counts = {state: 0 for state in MCP_STATES}
    for server in servers.values():
        counts[server.state] += 1
    text = "mcp: " + ", ".join(f"{n} {state}" for state, n in counts.items() if n)
    troubled = [s for s in servers.values() if s.state in ("failed", "restarting") and s.error]
    if troubled:
        why = visible_controls(f"{troubled[0].server}: {troubled[0].error}")
        text += f" ({clipped(why, NOTICE_CHARS)})"
    return text, bool(troubled)


class StatusBar(Static):
    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._counts = RunCounts()
        self._parts: tuple[RunState | None, str, str, str] | None = None
        self._shown: Text | None = None
        self._alarm = ""
        self._place = ""

    def show(
        self,
        model: RunState | None,
        provider: str,
        model_id: str,
        elapsed: float | None,
        notice: str = "",
        *,
        alarm: str = "",
        place: str = "",
    ) -> None:
        """`place`: where the agents run, when not here (an attached screen); `alarm`: what
        the person must see even on a narrow terminal (a lost connection). Both are drawn
        right after the counts, which a narrow terminal keeps. `model` None: nothing has run
        yet (the first frame, drawn before the fold is loaded)."""
        self._counts = RunCounts.of(model) if model is not None else RunCounts()
        self._alarm = alarm
        self._place = place
        self._parts = (model, provider, model_id, notice)
        self._draw(elapsed)

    def tick(self, now: float) -> None:
        """The clock moved: only the elapsed time changes, so nothing is counted again."""
        if self._parts is not None and self._counts.first_start is not None:
            self._draw(now - self._counts.first_start)

    def _draw(self, elapsed: float | None) -> None:
        assert self._parts is not None
        model, provider, model_id, notice = self._parts
        counts = self._counts
        waiting = counts.waiting
        # The counts come first: a narrow terminal cuts the line from the right.
        text = Text(f" running {counts.running}")
        if counts.paused:
            text.append(f"  paused {counts.paused}")
        text.append(f"  waiting for you {waiting}", style="bold reverse" if waiting else "")
        text.append(f"  done {counts.done}")
        # How the others ended, once any did: a cancelled agent is not "done".
        for word, n in counts.ended_apart():
            text.append(f"  {word} {n}")
        if self._alarm:
            text.append(f"  │ ⚠ {visible_controls(self._alarm)}", style="bold red")
        elif self._place:
            text.append(f"  │ {visible_controls(self._place)}", style="bold")
        if model is not None and model.always_allowed:
            allowed = ", ".join(visible_controls(tool) for tool in model.always_allowed)
            text.append(f"  always allowed: {allowed}", style="bold")

        text.append(f"  │ {counts.tokens:,} tok")
        if counts.cost is not None:
            text.append(f" ${counts.cost:.4f}")
        if model is not None and model.narrator_tokens:
            text.append(f" (+{model.narrator_tokens:,} narrator)", style="dim")
        if elapsed is not None:
            text.append(f"  │ {format_elapsed(elapsed)}")
        text.append("  │ ")
        text.append(visible_controls(provider), style="bold")
        text.append(f" {visible_controls(model_id)}")
        notice = visible_controls(notice)  # it may quote a model's error or a file
        if notice:
            shown = clipped(notice, NOTICE_CHARS)
            text.append(f"  {shown}", style="italic")
        mcp, troubled = mcp_summary(model.mcp_servers if model is not None else {})
        if mcp:
            text.append(f"  │ {mcp}", style="bold yellow" if troubled else "")
        if model is not None and model.last_error is not None:
            name, error = model.last_error
            text.append(f"  │ {visible_controls(f'{name}: {error}')}", style="bold red")
        if text != self._shown:  # most flushes change nothing here: no layout pass for them
            self._shown = text
            self.update(text)
