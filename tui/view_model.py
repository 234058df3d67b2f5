"""The screen's own picture of the run, folded from core events in batches.

The app never reads core state behind the bus's back: it applies each flushed batch of events
here, then asks the widgets to redraw only what changed.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Literal

from agentui.core import events as ev
from agentui.core.monologue.entry import NarrativeEntry
from agentui.core.tree import AgentStatus

EntryKind = Literal["task", "text", "thinking", "tool", "question", "notice", "error"]

_uids = itertools.count(1)


@dataclass(slots=True, eq=False)
class Entry:
    """One block of an agent's transcript. Mutable: text grows, a tool gets its result."""

    agent_id: str
    kind: EntryKind
    text: str
    title: str = ""
    key: str = ""  # tool call id or query id, to find the entry again
    iteration: int = 0
    failed: bool = False
    detail: str = ""  # a tool's result, a question's answer
    open: bool = False  # a question still waiting for its answer
    interrupted: bool = False  # text cut short (cancel, or a failed attempt)
    tool: str = ""  # the tool an approval question is about
    uid: int = field(default_factory=lambda: next(_uids))


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
    entries: list[Entry] = field(default_factory=list)
    open_queries: list[str] = field(default_factory=list)


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
        self._entries_by_key: dict[tuple[str, str], Entry] = {}

    # -- reading -------------------------------------------------------------------------

    def entry_for_query(self, query_id: str) -> Entry | None:
        agent_id = self.open_queries.get(query_id)
        return self._entries_by_key.get((agent_id or "", query_id))

    def live_count(self) -> int:
        return sum(a.status.is_live for a in self.agents.values())

    # -- folding -------------------------------------------------------------------------

    def apply(self, batch: list[ev.Event]) -> BatchChanges:
        changes = BatchChanges()
        for event in batch:
            self._apply(event, changes)
        return changes

    def _add(self, agent: AgentView, entry: Entry, changes: BatchChanges) -> Entry:
        agent.entries.append(entry)
        self.timeline.append(entry)
        changes.new_entries.append(entry)
        if entry.key:
            self._entries_by_key[(agent.id, entry.key)] = entry
        return entry

    def _changed(self, entry: Entry, changes: BatchChanges) -> None:
        changes.changed_entries.add(entry.uid)

    def _stream(
        self, agent: AgentView, kind: EntryKind, iteration: int, text: str, changes: BatchChanges
    ) -> None:
        last = agent.entries[-1] if agent.entries else None
        if (
            last is not None
            and last.kind == kind
            and last.iteration == iteration
            and not last.interrupted
            and not last.title  # a titled entry (redacted thinking) takes no more text
        ):
            last.text += text
            self._changed(last, changes)
        else:
            self._add(agent, Entry(agent.id, kind, text, iteration=iteration), changes)

    def _apply(self, event: ev.Event, changes: BatchChanges) -> None:
        if isinstance(event, ev.AgentSpawned):
            agent = AgentView(event.agent_id, event.parent_id, event.name, event.task)
            self.agents[event.agent_id] = agent
            changes.added.append(event.agent_id)
            self._add(agent, Entry(agent.id, "task", event.task, title="task"), changes)
            return
        agent = self.agents.get(event.agent_id)
        if agent is None:
            return
        match event:
            case ev.ExecutionStarted(run=run, task=task) if run > 1:
                # A continued run: the person's message starts a new part of the transcript.
                self._add(agent, Entry(agent.id, "task", task, title="follow-up"), changes)
            case ev.TextDelta(iteration=iteration, delta=delta):
                self._stream(agent, "text", iteration, delta, changes)
            case ev.ThinkingDelta(iteration=iteration, delta=delta):
                self._stream(agent, "thinking", iteration, delta, changes)
            case ev.ThinkingRedacted(iteration=iteration):
                text = "encrypted by the API; it goes back to the model unread"
                entry = Entry(agent.id, "thinking", text, title="redacted", iteration=iteration)
                self._add(agent, entry, changes)
            case ev.ToolStarted(call=call):
                self._add(
                    agent,
                    Entry(
                        agent.id,
                        "tool",
                        format_arguments(call.arguments),
                        title=call.name,
                        key=call.id,
                    ),
                    changes,
                )
            case ev.ToolCompleted(call_id=call_id, result=result):
                self._finish_tool(agent, call_id, result, False, changes)
            case ev.ToolFailed(call_id=call_id, error=error, name=name):
                if not self._finish_tool(agent, call_id, error, True, changes):
                    # rejected before it started: no tool entry yet
                    self._add(
                        agent,
                        Entry(
                            agent.id,
                            "tool",
                            "not run",
                            title=name,
                            key=call_id,
                            detail=error,
                            failed=True,
                        ),
                        changes,
                    )
            case ev.QueryRaised(query_id=query_id, prompt=prompt, kind=kind, tool=tool):
                self._add(
                    agent,
                    Entry(
                        agent.id,
                        "question",
                        prompt,
                        title=kind,
                        key=query_id,
                        open=True,
                        tool=tool or "",
                    ),
                    changes,
                )
                agent.open_queries.append(query_id)
                self.open_queries[query_id] = agent.id
                changes.new_queries.append(query_id)
                changes.relabel.add(agent.id)
            case ev.QueryAnswered(query_id=query_id, answer=answer):
                self._close_query(agent, query_id, answer, changes)
            case ev.QueryDeclined(query_id=query_id, reason=reason):
                self._close_query(agent, query_id, reason, changes, declined=True)
            case ev.StatusChanged(new=new, reason=reason):
                agent.status = AgentStatus(new)
                if new == AgentStatus.RUNNING and agent.started_ts is None:
                    agent.started_ts = event.ts
                if agent.status.is_final:
                    agent.ended_ts = event.ts
                elif agent.status is AgentStatus.RUNNING:
                    agent.ended_ts = None
                changes.relabel.add(agent.id)
                if new in (AgentStatus.CANCELLED, AgentStatus.DELETED, AgentStatus.MODIFIED):
                    self._add(agent, Entry(agent.id, "notice", f"{new}: {reason}"), changes)
            case ev.ExecutionFailed(error=error):
                agent.error = error
                self.last_error = (agent.name, error)
                self._add(
                    agent, Entry(agent.id, "error", error, title="error", failed=True), changes
                )
            case ev.LLMFailed(error=error, retryable=retryable, iteration=iteration):
                if event.streamed:
                    self._interrupt_stream(agent, changes, iteration)
                note = "retrying" if retryable else "giving up"
                self._add(
                    agent,
                    Entry(agent.id, "error", f"{error} ({note})", title="model error", failed=True),
                    changes,
                )
            case ev.LLMAbandoned(reason=reason, iteration=iteration):
                self._interrupt_stream(agent, changes, iteration)
                self._add(
                    agent,
                    Entry(agent.id, "notice", f"{reason}; asking the model again", title="cut"),
                    changes,
                )
            case ev.ExecutionCancelled(partial_text=partial):
                if partial:
                    self._interrupt_stream(agent, changes)
            case ev.NoteQueued(text=text):
                self._add(agent, Entry(agent.id, "notice", text, title="note"), changes)
            case ev.UsageUpdated(total=total):
                agent.tokens = total.total_tokens
                if event.total_cost_usd is not None:
                    agent.cost_usd = event.total_cost_usd
                changes.relabel.add(agent.id)
            case ev.MonologueGenerated(entry=entry, usage=usage):
                self.narratives.append((agent.id, entry))
                self.narrator_tokens += usage.total_tokens
                changes.narratives.append((agent.id, entry))

    def _interrupt_stream(
        self, agent: AgentView, changes: BatchChanges, iteration: int | None = None
    ) -> None:
        """The response streaming into the last entry stopped short: whatever comes next
        starts an entry of its own, never merged into the cut one. With `iteration`, only a
        response of that iteration was cut (an attempt that streamed nothing leaves the
        previous, finished response alone)."""
        last = agent.entries[-1] if agent.entries else None
        if iteration is not None and last is not None and last.iteration != iteration:
            return
        if last is not None and last.kind in ("text", "thinking") and not last.interrupted:
            last.interrupted = True
            self._changed(last, changes)

    def _finish_tool(
        self, agent: AgentView, call_id: str, result: str, failed: bool, changes: BatchChanges
    ) -> bool:
        entry = self._entries_by_key.get((agent.id, call_id))
        if entry is None:
            return False
        entry.detail, entry.failed = result, failed
        self._changed(entry, changes)
        return True

    def _close_query(
        self,
        agent: AgentView,
        query_id: str,
        answer: str,
        changes: BatchChanges,
        *,
        declined: bool = False,
    ) -> None:
        entry = self._entries_by_key.get((agent.id, query_id))
        if entry is not None:
            if entry.title == "approval":
                # The decision speaks for itself: "allowed once", "rejected: too risky".
                entry.detail, entry.failed = answer, declined
            else:
                entry.detail = f"(declined: {answer})" if declined else answer
            entry.open = False
            self._changed(entry, changes)
        self.open_queries.pop(query_id, None)
        if query_id in agent.open_queries:
            agent.open_queries.remove(query_id)
        changes.closed_queries.append(query_id)
        changes.relabel.add(agent.id)


def format_arguments(arguments: dict[str, object]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items())
