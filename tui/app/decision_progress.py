"""What an agent is doing while its model answers a workflow decision unseen (its answer is JSON,
not text the transcript shows): one line for the transcript pane's lower border, its elapsed
time moved by the app's once-a-second tick. Nothing per token: the line is read from the fold."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rich.cells import cell_len

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.widgets.agent_tree import format_elapsed

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
# The same, in fewer words, for a pane too narrow for the whole line.
SHORTER: dict[str, str] = {
    "whether the task is clear": "if the task is clear",
    "whether anything critical is missing": "what is missing",
    "which parts subagents can take": "what to delegate",
    "whether anything is still uncertain": "what is uncertain",
}
AT_WORK = (AgentStatus.RUNNING, AgentStatus.MODIFIED)  # a paused one says so in the tree


# Ways to say what is being decided, the whole line first and the shortest last: the pane shows
# the longest that fits its width (see fit_line).
DecidingLine = tuple[str, ...]


def deciding_line(
    model: RunState, shown: str | None, now: float, name_of: Callable[[str], str]
) -> DecidingLine:
    """`deciding whether the task is clear… 12s` for the agent shown, or for every agent
    (`shown` None: the interleaved view, where it names them), with its shorter forms; () when
    none is deciding."""
    if shown is not None:
        deciding = model.deciding.get(shown)
        return _forms(deciding, now, "") if deciding and _at_work(model, shown) else ()
    asked = [(agent_id, d) for agent_id, d in model.deciding.items() if _at_work(model, agent_id)]
    if len(asked) > 1:
        elapsed = format_elapsed(now - min(d.since for _agent_id, d in asked))
        return (f"{len(asked)} agents deciding… {elapsed}", f"deciding… {elapsed}", elapsed)
    return _forms(asked[0][1], now, name_of(asked[0][0])) if asked else ()


def _at_work(model: RunState, agent_id: str) -> bool:
    agent = model.agents.get(agent_id)
    return agent is not None and agent.status in AT_WORK


def _forms(deciding: Deciding, now: float, who: str) -> DecidingLine:
    """The decision in its words, then in fewer, then unnamed, then the seconds alone: never a
    cut inside a word (a cut line ended in a second "…" and lost its seconds, the one thing
    that shows the agent is not stuck)."""
    what = DECIDING.get(deciding.decision) or visible_controls(deciding.decision)
    again = f" (attempt {deciding.attempt})" if deciding.attempt > 1 else ""
    subject = f"{who} is deciding" if who else "deciding"
    elapsed = format_elapsed(now - deciding.since)
    words = [what, SHORTER[what]] if what in SHORTER else [what]
    forms = [f"{subject} {each}{again}… {elapsed}" for each in words]
    if who:
        forms.append(f"{who} is deciding… {elapsed}")
    return (*forms, f"deciding… {elapsed}", elapsed)


def fit_line(line: DecidingLine, width: int) -> str:
    """The longest form of `line` that fits `width` cells; "" when none does."""
    return next((form for form in line if cell_len(form) <= width), "")
