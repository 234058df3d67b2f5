"""How `agentui run` reads what to do at a budget stop, and does it.

A budget stop waits like a question: its answer comes from the next `--answer` value or stdin
line. `raise tokens=80000,usd=3` (or the limits alone) raises the budget (the measures named;
the others stay), `continue` lets the subtree take one more step past it, and `cancel` (or
the end of stdin, so a run nobody types into never waits for ever) cancels the subtree.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TextIO

from agentui.core.agent.budget import Budget
from agentui.core.protocol.events import BudgetReached
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.headless.answers import ANSWER_PROMPT, Answers

BUDGET_HINT = (
    "(raise tokens=N,usd=N,... to raise it, continue for one more step past it, or cancel)"
)


# What a `continue` did: the printer says it from its event (budget:continue).
CONTINUED = "goes on for one more step past its budget"


def answer_budget_stop(runtime: Runtime, stop: BudgetReached, text: str | None) -> tuple[str, bool]:
    """Do what `text` says about `stop` (None: stdin has ended): what was done, in words, and
    whether that settled it (a line not understood is said, and the stop waits for another)."""
    owner = stop.agent_id
    words = (text or "").strip()
    verb, _, rest = words.partition(" ")
    try:
        if text is None or verb.lower() == "cancel":
            runtime.cancel(owner, "cancelled at its budget stop")
            ended = " (stdin has ended)" if text is None else ""
            return f"cancelled at its budget stop{ended}", True
        if verb.lower() == "continue" and not rest:
            runtime.continue_past_budget(owner)
            return CONTINUED, True
        given = rest if verb.lower() == "raise" else words
        current = runtime.node(owner).budget or Budget()
        raised = current.raised(Budget.parse(given))
        runtime.set_budget(owner, dict(raised.items()))
        return f"budget raised to {raised.describe()}", True
    except (ValueError, AgentUIError) as exc:
        # Not understood or refused: said, and the stop waits for the next line (the end of
        # stdin cancels it, so a run nobody types into never waits for ever).
        return f"{exc}; still paused {BUDGET_HINT}", False


@dataclass(frozen=True, slots=True)
class BudgetAnswers:
    """Where a headless run reads its budget stops' answers, and what it knows of the run."""

    answers: Answers
    state: RunState  # the run as folded so far: whether the stop still stands, names
    stderr: TextIO
    json_output: bool


async def settle_budget_stop(runtime: Runtime, stop: BudgetReached, given: BudgetAnswers) -> None:
    """Read what to do at `stop` (after its "> " was shown and announced by `asked`) and do
    it, line after line until a line settles it; nothing once it no longer stands (settled
    from elsewhere, or its owner ended)."""
    state, stderr = given.state, given.stderr

    def is_open() -> bool:
        agent = state.agents.get(stop.agent_id)
        return agent is not None and agent.budget_stop is stop

    settled = False
    while not settled:
        text = await given.answers.read_line(is_open)
        if not is_open():
            return
        done, settled = answer_budget_stop(runtime, stop, text)
        name = state.agents[stop.agent_id].name
        if done != CONTINUED:  # that one the printer says, from its event
            stderr.write(visible_controls(f"[{name}] {done}") + "\n")
        if not settled:
            given.answers.asked()  # another line is read for it, as for a prompt shown
            if not given.json_output:
                stderr.write(ANSWER_PROMPT)
        stderr.flush()
