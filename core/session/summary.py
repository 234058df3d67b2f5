"""A session's row in `agentui sessions`, kept beside it so listing never reads the session.

`<id>.summary.json` holds what the row shows (id, start, task, status, agents, tokens) and the
size and modification time of the session file it describes. The writer rewrites it (a new
file renamed over the old, so it is never half written) whenever the row changes and when it
closes. A summary counts only while the session file is exactly as it describes: a session
that grew after it (a crash), or one from an agentui without summaries, is read instead, and
the listing leaves a fresh summary behind so the next listing is quick.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal, TypedDict

from pydantic import BaseModel, ConfigDict, ValidationError

from agentui.core.protocol import events as ev
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.session.private_file import write_private
from agentui.core.state import RunState, run_status
from agentui.core.support.utf8 import model_json

SUMMARY_SUFFIX = ".summary.json"

# The events that change a row (checked first: the writer shows the tracker every event).
_ROW_EVENTS = frozenset({"agent:spawned", "agent:status", "usage:updated"})


class SummaryRow(TypedDict):
    """The fields of a summary that the session's events decide (SummaryTracker.row)."""

    status: str
    agents: int
    tokens: int
    tasks: int


class SessionSummary(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(frozen=True, defer_build=True)

    summary: Literal[1] = 1  # the shape of this file
    id: str  # the id inside the session file (its header's), which a copy's name is not
    started: float
    task: str
    status: str  # RunState.status
    agents: int
    tokens: int
    tasks: int = 0  # root agents: the tasks typed in the session (0: a summary from before)
    damaged_lines: int = 0
    problem: str = ""  # what the damaged lines lost, as the listing says it
    # The session file this describes, when the summary was written.
    size: int
    mtime_ns: int

    def describes(self, stat: os.stat_result) -> bool:
        return (self.size, self.mtime_ns) == (stat.st_size, stat.st_mtime_ns)


def summary_path(session: Path) -> Path:
    return session.with_name(session.stem + SUMMARY_SUFFIX)


def read_summary(session: Path) -> SessionSummary | None:
    """The summary beside `session`, or None when there is none or it does not parse."""
    try:
        return SessionSummary.model_validate_json(summary_path(session).read_bytes())
    except (OSError, ValidationError):
        return None


def write_summary(session: Path, summary: SessionSummary) -> None:
    """Replace the summary beside `session` in one step; raises OSError."""
    target = summary_path(session)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        write_private(temporary, model_json(summary))  # it names the task: the owner's alone
        os.replace(temporary, target)
    except OSError:
        temporary.unlink(missing_ok=True)
        raise


class SummaryTracker:
    """What a session's row says, followed event by event (the writer keeps one)."""

    def __init__(self) -> None:
        self._statuses: dict[str, AgentStatus] = {}  # in spawn order
        self._roots: set[str] = set()
        self._tokens: dict[str, int] = {}
        self.changed = True  # since the last `row()`

    @classmethod
    def of(cls, state: RunState) -> SummaryTracker:
        """One that carries on from a folded session (a resumed one)."""
        tracker = cls()
        for node in state.agents.values():
            tracker._statuses[node.id] = node.status
            tracker._tokens[node.id] = node.usage.total_tokens
            if node.parent_id is None:
                tracker._roots.add(node.id)
        return tracker

    def apply(self, event: ev.Event) -> None:
        if event.type not in _ROW_EVENTS:
            return
        agent_id = event.agent_id
        if isinstance(event, ev.AgentSpawned):
            self._statuses[agent_id] = AgentStatus.PENDING
            self._tokens[agent_id] = 0
            if event.parent_id is None:
                self._roots.add(agent_id)
        elif agent_id not in self._statuses:
            return  # an agent the session never introduced: the fold ignores it too
        elif isinstance(event, ev.StatusChanged):
            self._statuses[agent_id] = AgentStatus(event.new)
        elif isinstance(event, ev.UsageUpdated):
            self._tokens[agent_id] = event.total.total_tokens
        else:
            return
        self.changed = True

    def row(self) -> SummaryRow:
        """status, agents, tokens and tasks as they stand."""
        self.changed = False
        statuses = self._statuses
        return {
            "status": run_status(statuses.values(), [statuses[r] for r in self._roots]),
            "agents": len(statuses),
            "tokens": sum(self._tokens.values()),
            "tasks": len(self._roots),
        }
