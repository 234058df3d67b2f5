"""The screen's own picture of the run, folded from core events in batches.

The app never reads core state behind the bus's back: it applies each flushed batch of events
here, then asks the widgets to redraw only what changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentui.core import events as ev
from agentui.core.monologue.entry import NarrativeEntry
from agentui.core.session.transcript import TranscriptBuilder, TranscriptItem
from agentui.core.tree import AgentStatus

# The screen's blocks are the session fold's transcript items: screen and export agree.
Entry = TranscriptItem


@dataclass(slots=True)
class AgentView:
    id: str
    parent_id: str | None
    name: str
    task: str
    status: AgentStatus = AgentStatus.PENDING
    tokens: int = 0
    cost_usd: float | None = None
    error: str | None = None
    started_ts: float | None = None
    ended_ts: float | None = None
    open_queries: list[str] = field(default_factory=list)
    transcript: TranscriptBuilder = field(default_factory=TranscriptBuilder)

    @property
    def entries(self) -> list[Entry]:
        return self.transcript.items


@dataclass(slots=True)
class BatchChanges:
    added: list[str] = field(default_factory=list)  # new agents, in spawn order
    relabel: set[str] = field(default_factory=set)  # agents whose tree label changed
    new_entries: list[Entry] = field(default_factory=list)
    changed_entries: set[int] = field(default_factory=set)  # uids of entries that changed
    narratives: list[tuple[str, NarrativeEntry]] = field(default_factory=list)
    new_queries: list[str] = field(default_factory=list)
    closed_queries: list[str] = field(default_factory=list)


class RunViewModel:
    def __init__(self) -> None:
        self.agents: dict[str, AgentView] = {}
        self.timeline: list[Entry] = []  # every agent's entries in the order they began
        self.open_queries: dict[str, str] = {}  # query id -> agent id, in the order raised
        self.narratives: list[tuple[str, NarrativeEntry]] = []
        self.narrator_tokens = 0
        self.last_error: tuple[str, str] | None = None  # (agent name, error) for the status bar
        # Tools the person allowed for the rest of the run ("always"), in the order allowed.
        self.always_allowed: list[str] = []
        self._changes = BatchChanges()  # the batch being applied

    # -- reading -------------------------------------------------------------------------

    def entry_for_query(self, query_id: str) -> Entry | None:
        agent = self.agents.get(self.open_queries.get(query_id, ""))
        return agent.transcript.item(query_id) if agent is not None else None

    def live_count(self) -> int:
        return sum(a.status.is_live for a in self.agents.values())

    # -- folding -------------------------------------------------------------------------

    def apply(self, batch: list[ev.Event]) -> BatchChanges:
        self._changes = changes = BatchChanges()
        for event in batch:
            self._apply(event, changes)
        return changes

    def _added(self, entry: Entry) -> None:
        self.timeline.append(entry)
        self._changes.new_entries.append(entry)

    def _changed(self, entry: Entry) -> None:
        self._changes.changed_entries.add(entry.uid)

    def _apply(self, event: ev.Event, changes: BatchChanges) -> None:
        if isinstance(event, ev.AgentSpawned):
            transcript = TranscriptBuilder(
                event.agent_id, on_added=self._added, on_changed=self._changed
            )
            agent = AgentView(
                event.agent_id, event.parent_id, event.name, event.task, transcript=transcript
            )
            self.agents[event.agent_id] = agent
            changes.added.append(event.agent_id)
            transcript.apply(event)
            return
        agent = self.agents.get(event.agent_id)
        if agent is None:
            return
        agent.transcript.apply(event)  # the blocks; the rest is the screen's own
        match event:
            case ev.QueryRaised(query_id=query_id):
                agent.open_queries.append(query_id)
                self.open_queries[query_id] = agent.id
                changes.new_queries.append(query_id)
                changes.relabel.add(agent.id)
            case ev.QueryAnswered(query_id=query_id) | ev.QueryDeclined(query_id=query_id):
                self.open_queries.pop(query_id, None)
                if query_id in agent.open_queries:
                    agent.open_queries.remove(query_id)
                changes.closed_queries.append(query_id)
                changes.relabel.add(agent.id)
            case ev.StatusChanged(new=new):
                agent.status = AgentStatus(new)
                if new == AgentStatus.RUNNING and agent.started_ts is None:
                    agent.started_ts = event.ts
                if agent.status.is_final:
                    agent.ended_ts = event.ts
                elif agent.status is AgentStatus.RUNNING:
                    agent.ended_ts = None
                changes.relabel.add(agent.id)
            case ev.InterventionApplied(kind="modify", content=str(content)):
                agent.task = content  # the tree and the transcript's title show it at once
                changes.relabel.add(agent.id)
            case ev.ApprovalDecided(decision="always", tool=tool):
                if tool not in self.always_allowed:
                    self.always_allowed.append(tool)
            case ev.ExecutionFailed(error=error):
                agent.error = error
                self.last_error = (agent.name, error)
            case ev.UsageUpdated(total=total):
                agent.tokens = total.total_tokens
                if event.total_cost_usd is not None:
                    agent.cost_usd = event.total_cost_usd
                changes.relabel.add(agent.id)
            case ev.MonologueGenerated(entry=entry, usage=usage):
                self.narratives.append((agent.id, entry))
                self.narrator_tokens += usage.total_tokens
                changes.narratives.append((agent.id, entry))
