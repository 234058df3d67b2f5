"""Everything across a run's tree that waits on the person, as one list: the inbox.

Each row comes from events in the session log (a question or an approval raised, a budget's
stop, an agent:stalled, a steer queued to an agent that is not running), so a resumed session
shows the same rows (core/session/resume.py gives back what each waits on, and the events
that say so after a quit cancelled it). The order puts first what unblocks most: the number of agents a row holds
up (the live agents of the subtree under it), then the oldest.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from agentui.core.protocol.agent_status import AgentStatus

if TYPE_CHECKING:
    from agentui.core.state.agent_state import AgentState
    from agentui.core.state.run_state import OpenQuery, RunState

InboxKind = Literal["question", "approval", "budget", "stalled", "steer"]

PATH_SEPARATOR = " › "


@dataclass(frozen=True, slots=True)
class InboxRow:
    """One thing that waits on the person.

    `id` is stable while the row stands: the (first) query's id, or `budget:`, `stalled:` or
    `steer:` and the agent's id. A question several siblings asked in the same words is one row:
    `query_ids` and `agent_ids` name each asker (in the order asked); answering may cover all of
    them or one (the person chooses)."""

    id: str
    kind: InboxKind
    agent_id: str  # the first asker, a budget's owner, the stalled or steered agent
    path: str  # the agent's names from its root, joined by PATH_SEPARATOR
    since: float  # when it began waiting (event time)
    waiting: int  # agents it holds up: the live agents under it
    text: str  # the question, the limit reached, the steer's words, ... (unescaped)
    query_ids: tuple[str, ...] = ()
    agent_ids: tuple[str, ...] = ()
    tool: str | None = None  # an approval's tool call
    arguments: dict[str, Any] | None = None
    query_kind: str = ""  # a question's own kind (QueryRaised.kind): "clarification", "scene", ...

    def waited_s(self, now: float) -> float:
        return max(0.0, now - self.since)

    def as_json(self) -> dict[str, Any]:
        """For `GET /inbox`, its stream and ACP: plain JSON types only."""
        return {
            "id": self.id,
            "kind": self.kind,
            "agent_id": self.agent_id,
            "path": self.path,
            "since": self.since,
            "waiting": self.waiting,
            "text": self.text,
            "query_ids": list(self.query_ids),
            "agent_ids": list(self.agent_ids),
            "tool": self.tool,
            "arguments": self.arguments,
            "query_kind": self.query_kind,
        }


def inbox(state: RunState) -> list[InboxRow]:
    """Every row waiting on the person now, what unblocks most first."""
    rows = [
        *_query_rows(state),
        *_budget_rows(state),
        *_stalled_rows(state),
        *_steer_rows(state),
    ]
    rows.sort(key=lambda row: (-row.waiting, row.since, row.id))
    return rows


def inbox_key(state: RunState) -> int:
    """Changes whenever the rows may have: equal keys, equal rows (but for how long each has
    waited). A front end that lists the inbox after every batch of events (ACP) computes it
    again only when the key changed: `inbox()` walks each row's subtree, a cost that grows with
    the tree, while most batches (streamed text, tool output) change nothing in it. The fold
    counts the events of run_state.INBOX_EVENTS and the end of a stall (inbox_revision)."""
    return state.inbox_revision


def agent_path(state: RunState, agent_id: str) -> str:
    names: list[str] = []
    agent = state.agents.get(agent_id)
    while agent is not None:
        names.append(agent.name)
        agent = state.agents.get(agent.parent_id) if agent.parent_id is not None else None
    return PATH_SEPARATOR.join(reversed(names))


def held_up(state: RunState, agent_ids: Iterable[str]) -> int:
    """The live agents in the subtrees of `agent_ids` (each counted once)."""
    seen: set[str] = set()
    for agent_id in agent_ids:
        seen.update(a.id for a in state.subtree(agent_id) if a.status.is_live)
    return len(seen)


def _query_rows(state: RunState) -> list[InboxRow]:
    # Questions in the same words from siblings (same parent, same kind) group into one row;
    # approvals never do: each is about its own tool call, nor roots (forks and unrelated
    # tasks share no parent: the same words need not be the same question).
    groups: dict[tuple[str, str, str], list[OpenQuery]] = {}
    rows: list[InboxRow] = []
    for query in state.open_queries.values():
        agent = state.agents.get(query.agent_id)
        if agent is None:
            continue
        if query.kind == "approval":
            rows.append(_row_of([query], state, "approval"))
            continue
        if agent.parent_id is None:
            rows.append(_row_of([query], state, "question"))
            continue
        same_words = (query.kind, agent.parent_id, " ".join(query.prompt.split()))
        groups.setdefault(same_words, []).append(query)
    rows += [_row_of(queries, state, "question") for queries in groups.values()]
    return rows


def _row_of(queries: list[OpenQuery], state: RunState, kind: InboxKind) -> InboxRow:
    first = queries[0]
    agent_ids = tuple(q.agent_id for q in queries)
    return InboxRow(
        id=first.query_id,
        kind=kind,
        agent_id=first.agent_id,
        path=agent_path(state, first.agent_id),
        since=min(q.ts for q in queries),
        waiting=held_up(state, agent_ids),
        text=first.prompt,
        query_ids=tuple(q.query_id for q in queries),
        agent_ids=agent_ids,
        tool=first.tool,
        arguments=first.arguments,
        query_kind=first.kind,
    )


def _agent_row(
    state: RunState, kind: InboxKind, agent_id: str, since: float, text: str
) -> InboxRow:
    """A row about one agent (a budget's owner, a stalled agent, a steered one), `kind:ID`."""
    return InboxRow(
        id=f"{kind}:{agent_id}",
        kind=kind,
        agent_id=agent_id,
        path=agent_path(state, agent_id),
        since=since,
        waiting=held_up(state, [agent_id]),
        text=text,
        agent_ids=(agent_id,),
    )


def _budget_rows(state: RunState) -> list[InboxRow]:
    rows = []
    for owner in state.budget_stops():
        stop = owner.budget_stop
        assert stop is not None  # budget_stops() lists only agents with one
        row = _agent_row(state, "budget", owner.id, stop.ts, budget_text(state, owner))
        rows.append(replace(row, waiting=max(len(stop.paused), row.waiting)))
    return rows


def budget_text(state: RunState, owner: AgentState) -> str:
    """What stopped: `tokens: 5,210 of 5,000 (stopped writer)`."""
    stop = owner.budget_stop
    assert stop is not None
    spent = _amount(stop.measure, stop.spent)
    limit = _amount(stop.measure, stop.limit)
    text = f"{stop.measure.replace('_', ' ')}: {spent} of {limit}"
    stopped = state.agents.get(stop.stopped_agent)
    if stopped is not None and stopped.id != owner.id:
        text += f" (stopped {stopped.name})"
    return text


def _amount(measure: str, value: float) -> str:
    if measure == "usd":
        return f"${value:,.2f}"
    if measure == "minutes":
        return f"{value:,.1f} min"
    return f"{value:,.0f}"


def _stalled_rows(state: RunState) -> list[InboxRow]:
    rows = []
    for agent in state.agents.values():
        # Paused: one a resumed session gave back (it was stalled when the session ended).
        if agent.stalled_since is None or agent.status not in _STALLED_AND_LIVE:
            continue
        rows.append(
            _agent_row(state, "stalled", agent.id, agent.stalled_since, "no word from it since")
        )
    return rows


def _steer_rows(state: RunState) -> list[InboxRow]:
    """Steers the person queued to an agent that is not running: they reach its model only
    when it is resumed (paused) or continued (ended)."""
    rows = []
    for agent in state.agents.values():
        steers = [n for n in agent.queued_notes if n.from_person]
        if not steers or agent.status not in _NOT_RUNNING:
            continue
        text = steers[0].text
        if len(steers) > 1:
            text += f" (and {len(steers) - 1} more)"
        rows.append(_agent_row(state, "steer", agent.id, min(n.ts for n in steers), text))
    return rows


_STALLED_AND_LIVE = frozenset({AgentStatus.RUNNING, AgentStatus.PAUSED})

_NOT_RUNNING = frozenset(
    {
        AgentStatus.PAUSED,
        AgentStatus.COMPLETED,
        AgentStatus.ERROR,
        AgentStatus.CANCELLED,
    }
)
