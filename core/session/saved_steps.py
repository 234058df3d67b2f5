"""A saved session's agents and their steps (core/agent/steps.py), as `AGENT@STEP` names them:
`agentui steps` lists them, `agentui run --resume ID --rewind AGENT@STEP` and `agentui fork`
go back to one.

    agent = find_agent(state, "main.1")           # by name or by id
    steps = all_steps(log.events)[agent.id]       # every agent's, in one pass over the log
"""

from __future__ import annotations

from collections.abc import Iterable

from agentui.core.agent.steps import StepLog
from agentui.core.protocol import events as ev
from agentui.core.session.errors import SessionError
from agentui.core.state import AgentState, RunState


def find_agent(state: RunState, agent: str) -> AgentState:
    """The agent of that id, or else of that name; refused in words, naming those it has."""
    found = state.agents.get(agent)
    if found is not None:
        return found
    for candidate in state.agents.values():
        if candidate.name == agent:
            return candidate
    names = ", ".join(a.name for a in state.agents.values()) or "none"
    raise SessionError(f"the session has no agent {agent!r}; its agents: {names}")


def all_steps(events: Iterable[ev.Event]) -> dict[str, StepLog]:
    """Every agent's steps, folded from a session's events in one pass (`steps_in` does one
    agent's): what a resumed runtime recalls (`Runtime.recall_steps`) to rewind or fork."""
    logs: dict[str, StepLog] = {}
    for event in events:
        if isinstance(event, ev.AgentSpawned):
            logs[event.agent_id] = StepLog(event.name)
            if event.parent_id is not None and event.parent_id in logs:
                logs[event.parent_id].child_started(event.agent_id)
            continue
        log = logs.get(event.agent_id)
        if log is not None:
            log.apply(event)
    return logs
