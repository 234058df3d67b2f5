"""The screen's own picture of the run, folded from core events in batches.

The app never reads core state behind the bus's back: it applies each flushed batch of events
here, then asks the widgets to redraw only what changed.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from agentui.core import events as ev
from agentui.core.tree import AgentStatus

EntryKind = Literal["task", "text", "thinking", "tool", "question", "answer", "notice", "error"]


@dataclass(slots=True)
class Entry:
    """One block of an agent's transcript."""

    kind: EntryKind
    text: str
    title: str = ""
    key: str = ""  # tool call id or query id, to find the entry again
    iteration: int = 0
    failed: bool = False


@dataclass(slots=True)
class AgentView:
    id: str
    parent_id: str | None
    name: str
    task: str
    status: AgentStatus = AgentStatus.PENDING
    tokens: int = 0
    started_ts: float | None = None
    ended_ts: float | None = None
    entries: list[Entry] = field(default_factory=list)
    open_query: str | None = None
    open_query_prompt: str = ""


@dataclass(slots=True)
class BatchChanges:
    added: list[str] = field(default_factory=list)  # new agents, in spawn order
    relabel: set[str] = field(default_factory=set)  # agents whose tree label changed
    transcript: set[str] = field(default_factory=set)  # agents whose transcript changed
    queries_changed: bool = False


class RunViewModel:
    def __init__(self) -> None:
        self.agents: dict[str, AgentView] = {}
        self.order: list[str] = []
        self.open_queries: dict[str, str] = {}  # query id -> agent id, in the order raised

    def apply(self, batch: list[ev.Event]) -> BatchChanges:
        changes = BatchChanges()
        for event in batch:
            self._apply(event, changes)
        return changes

    def _stream(self, agent: AgentView, kind: EntryKind, iteration: int, text: str) -> None:
        last = agent.entries[-1] if agent.entries else None
        if last is not None and last.kind == kind and last.iteration == iteration:
            last.text += text
        else:
            agent.entries.append(Entry(kind, text, iteration=iteration))

    def _apply(self, event: ev.Event, changes: BatchChanges) -> None:
        if isinstance(event, ev.AgentSpawned):
            agent = AgentView(event.agent_id, event.parent_id, event.name, event.task)
            agent.entries.append(Entry("task", event.task, title="task"))
            self.agents[event.agent_id] = agent
            self.order.append(event.agent_id)
            changes.added.append(event.agent_id)
            changes.transcript.add(event.agent_id)
            return
        agent = self.agents.get(event.agent_id)
        if agent is None:
            return
        changes.transcript.add(agent.id)
        match event:
            case ev.TextDelta(iteration=iteration, delta=delta):
                self._stream(agent, "text", iteration, delta)
            case ev.ThinkingDelta(iteration=iteration, delta=delta):
                self._stream(agent, "thinking", iteration, delta)
            case ev.ToolStarted(call=call):
                agent.entries.append(
                    Entry("tool", _format_arguments(call.arguments), title=call.name, key=call.id)
                )
            case ev.ToolCompleted(call_id=call_id, result=result):
                self._finish_tool(agent, call_id, result, failed=False)
            case ev.ToolFailed(call_id=call_id, error=error, name=name):
                if not self._finish_tool(agent, call_id, error, failed=True):
                    agent.entries.append(
                        Entry("error", error, title=name, key=call_id, failed=True)
                    )
            case ev.QueryRaised(query_id=query_id, prompt=prompt):
                agent.entries.append(Entry("question", prompt, title="question", key=query_id))
                agent.open_query, agent.open_query_prompt = query_id, prompt
                self.open_queries[query_id] = agent.id
                changes.queries_changed = True
            case ev.QueryAnswered(query_id=query_id, answer=answer):
                self._close_query(agent, query_id, answer, changes)
            case ev.QueryDeclined(query_id=query_id, reason=reason):
                self._close_query(agent, query_id, f"(declined: {reason})", changes)
            case ev.StatusChanged(new=new, reason=reason):
                agent.status = AgentStatus(new)
                if new == AgentStatus.RUNNING and agent.started_ts is None:
                    agent.started_ts = event.ts
                if agent.status.is_final:
                    agent.ended_ts = event.ts
                changes.relabel.add(agent.id)
                if new in (AgentStatus.CANCELLED, AgentStatus.DELETED, AgentStatus.MODIFIED):
                    agent.entries.append(Entry("notice", f"{new}: {reason}"))
            case ev.ExecutionFailed(error=error):
                agent.entries.append(Entry("error", error, title="error", failed=True))
            case ev.LLMFailed(error=error, retryable=retryable):
                note = "retrying" if retryable else "giving up"
                agent.entries.append(
                    Entry("error", f"{error} ({note})", title="model error", failed=True)
                )
            case ev.ExecutionCancelled(partial_text=partial):
                if partial:
                    agent.entries.append(Entry("notice", "the answer above was interrupted"))
            case ev.NoteQueued(text=text):
                agent.entries.append(Entry("notice", text))
            case ev.UsageUpdated(total=total):
                agent.tokens = total.total_tokens
                changes.relabel.add(agent.id)
            case _:
                changes.transcript.discard(agent.id)

    def _finish_tool(self, agent: AgentView, call_id: str, result: str, *, failed: bool) -> bool:
        for entry in reversed(agent.entries):
            if entry.kind == "tool" and entry.key == call_id:
                entry.text += "\n→ " + result
                entry.failed = failed
                return True
        return False

    def _close_query(
        self, agent: AgentView, query_id: str, answer: str, changes: BatchChanges
    ) -> None:
        agent.entries.append(Entry("answer", answer, title="answer", key=query_id))
        self.open_queries.pop(query_id, None)
        if agent.open_query == query_id:
            agent.open_query, agent.open_query_prompt = None, ""
        changes.queries_changed = True


def _format_arguments(arguments: dict[str, object]) -> str:
    return ", ".join(f"{key}={value!r}" for key, value in arguments.items())
