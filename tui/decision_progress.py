"""What an agent is doing while its model answers a workflow decision unseen (its answer is JSON,
not text the transcript shows): one line for the transcript pane's lower border, its elapsed
time moved by the app's once-a-second tick. Nothing per token: the line is read from the fold."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING

from rich.cells import cell_len

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
# The same, in fewer words, for a pane too narrow for the whole line.
SHORTER: dict[str, str] = {
    "whether the task is clear": "if the task is clear",
    "whether anything critical is missing": "what is missing",
    "which parts subagents can take": "what to delegate",
    "whether anything is still uncertain": "what is uncertain",
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


def fit_line(line: str, width: int) -> str:
    """`line` as it fits `width` cells: the decision in fewer words, then unnamed, then the
    seconds alone; never cut inside a word (a cut line ended in a second "…" and lost its
    seconds, the one thing that shows the agent is not stuck)."""
    return next((c for c in _shorter(line) if cell_len(c) <= width), "")


def _shorter(line: str) -> Iterator[str]:
    """`line` (as `deciding_line` writes it), then shorter ways to say it, shortest last."""
    yield line
    head, ellipsis, elapsed = line.rpartition("… ")
    if not ellipsis:
        return  # not a deciding line: whole or not at all
    for words, fewer in SHORTER.items():
        if words in head:
            yield f"{head.replace(words, fewer)}… {elapsed}"
            break
    named, is_deciding, _what = head.partition(" is deciding ")
    if is_deciding:
        yield f"{named} is deciding… {elapsed}"
    yield f"deciding… {elapsed}"
    yield elapsed
