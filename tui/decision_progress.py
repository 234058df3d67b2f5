"""What an agent is doing while its model answers a workflow decision unseen (its answer is JSON,
not text the transcript shows): one line for the transcript pane's lower border, its elapsed
time moved by the app's once-a-second tick. Nothing per token: the line is read from the fold."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agentui.core.agent_status import AgentStatus
from agentui.core.terminal_text import visible_controls

from .widgets.agent_tree import format_elapsed

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import RunState
    from agentui.core.state.run_state import Deciding

# The six-step workflow's decisions, as a person would say what is being decided.
DECIDING: dict[str, str] = {
    "clarify": "whether the task is clear",
    "questions": "whether anything critical is missing",
    "subquestions": "which parts subagents can take",
    "resolution": "whether anything is still uncertain",
}
AT_WORK = (AgentStatus.RUNNING, AgentStatus.MODIFIED)  # a paused one says so in the tree


def deciding_line(
    model: RunState, shown: str | None, now: float, name_of: Callable[[str], str]
) -> str:
    """`deciding whether the task is clear… 12s` for the agent shown, or for every agent
    (`shown` None: the interleaved view, where it names them); "" when none is deciding."""
    if shown is not None:
        deciding = model.deciding.get(shown)
        return _line(deciding, now, "") if deciding and _at_work(model, shown) else ""
    asked = [(agent_id, d) for agent_id, d in model.deciding.items() if _at_work(model, agent_id)]
    if len(asked) > 1:
        since = min(d.since for _agent_id, d in asked)
        return f"{len(asked)} agents deciding… {format_elapsed(now - since)}"
    return _line(asked[0][1], now, name_of(asked[0][0])) if asked else ""


def _at_work(model: RunState, agent_id: str) -> bool:
    agent = model.agents.get(agent_id)
    return agent is not None and agent.status in AT_WORK


def _line(deciding: Deciding, now: float, who: str) -> str:
    what = DECIDING.get(deciding.decision) or visible_controls(deciding.decision)
    again = f" (attempt {deciding.attempt})" if deciding.attempt > 1 else ""
    subject = f"{who} is deciding" if who else "deciding"
    return f"{subject} {what}{again}… {format_elapsed(now - deciding.since)}"
