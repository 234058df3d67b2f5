"""State as a fold over a session's events: the tree, every transcript, the monologue.

The same fold serves resume, `agentui sessions` and export: `fold_session(log)` (or a
`SessionFold` fed event by event). Replay plays the events themselves into the app, whose view
model folds them the same way (a test checks that the transcripts agree). Nodes come from events alone; each node's conversation comes from the
conversation records (see records.py), which keep what events cannot: instructions, thinking
signatures and the exact tool pairs.

Known gap: the replacement content of a modify is not in any event, so `user_content` stays
None (the modified task is in the conversation itself).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, field

from .. import events as ev
from ..conversation import Conversation
from ..monologue.entry import NarrativeEntry
from ..tree import AgentNode, AgentStatus, UserComment
from ..usage import Usage
from .reader import SessionLog, collector_paused
from .records import ConversationRecord
from .transcript import TranscriptBuilder, TranscriptItem

# Event types the fold needs nothing from, or needs only in the guarded cases of `apply`.
# A type in neither lands in `SessionFold.unfolded`, which a test over every type keeps empty.
PASSED_OVER = frozenset({
    "approval:decided", "execution:paused", "execution:resumed", "hook:error",
    "intervention:applied", "intervention:unused", "iteration:complete", "iteration:start",
    "monologue:error", "note:delivered", "note:queued", "query:raised", "text:delta",
    "thinking:delta", "thinking:redacted", "tool:detected", "tool:start", "tool:timeout",
    "workflow:decision", "workflow:result", "workflow:step",
})  # fmt: skip

# What an agent that was still running when its session ended is marked with. Runtime.adopt
# says the same, so a resumed runtime and a fold of its log agree.
INTERRUPTED = "interrupted: the session ended while it ran"


@dataclass(frozen=True, slots=True)
class OpenQuery:
    query_id: str
    agent_id: str
    prompt: str
    kind: str


@dataclass(frozen=True, slots=True)
class MonologueLine:
    agent_id: str
    entry: NarrativeEntry


@dataclass(slots=True)
class SessionState:
    agents: dict[str, AgentNode] = field(default_factory=dict)  # in spawn order
    transcripts: dict[str, list[TranscriptItem]] = field(default_factory=dict)
    monologue: list[MonologueLine] = field(default_factory=list)
    narrator_usage: Usage = field(default_factory=Usage)
    open_queries: dict[str, OpenQuery] = field(default_factory=dict)  # in the order raised
    # The pieces of a response still streaming when the log ends, per agent (cut off by a
    # crash); `streaming` joins them.
    streaming_parts: dict[str, list[str]] = field(default_factory=dict)
    # Per agent, the outcomes of the tool calls of its latest response, by call id:
    # (content, is_error), as the loop puts them in the conversation.
    tool_results: dict[str, dict[str, tuple[str, bool]]] = field(default_factory=dict)
    last_seq: int = 0
    last_ts: float = 0.0
    ids: set[str] = field(default_factory=set)  # every agent, query and execution id seen

    @property
    def streaming(self) -> dict[str, str]:
        """Text of a response still streaming when the log ends, per agent."""
        return {agent_id: "".join(parts) for agent_id, parts in self.streaming_parts.items()}

    def roots(self) -> list[AgentNode]:
        return [n for n in self.agents.values() if n.parent_id is None]

    def live(self) -> list[AgentNode]:
        return [n for n in self.agents.values() if n.status.is_live]

    @property
    def tokens(self) -> int:
        """The agents' tokens (the narrator's are counted apart, in `narrator_usage`)."""
        return sum(n.usage.total_tokens for n in self.agents.values())

    @property
    def status(self) -> str:
        """One word for the whole session, as `agentui sessions` shows it."""
        return session_status(
            [n.status for n in self.agents.values()], [n.status for n in self.roots()]
        )


def session_status(statuses: Collection[AgentStatus], root_statuses: Iterable[AgentStatus]) -> str:
    """One word for a session from its agents' statuses (and its roots' among them)."""
    if not statuses:
        return "empty"
    if any(status.is_live for status in statuses):
        return "interrupted"
    ends = set(root_statuses)
    for status in (AgentStatus.ERROR, AgentStatus.CANCELLED):
        if status in ends:
            return status.value
    if AgentStatus.COMPLETED in ends:
        return "completed"
    return "deleted"


class SessionFold:
    """Apply events and conversation records in order; read `state` at any point.

    `transcripts=False` leaves `state.transcripts` empty: resume and listings need the tree and
    the conversations, not the blocks a screen or an export shows (the app builds its own).
    """

    def __init__(self, *, transcripts: bool = True) -> None:
        self.state = SessionState()
        self.transcripts = transcripts
        self._transcripts: dict[str, TranscriptBuilder] = {}
        self._conversations: dict[str, Conversation] = {}
        self.unfolded: set[str] = set()  # event types met that no case folds (see PASSED_OVER)

    def apply_all(self, events: Iterable[ev.Event]) -> None:
        for event in events:
            self.apply(event)

    def apply_record(self, record: ConversationRecord) -> None:
        """Rebuild the agent's conversation. Its messages are the record's own, not copies:
        whoever changes the conversation (a resumed runtime) changes the log's records too."""
        conversation = self._conversations.setdefault(record.agent_id, Conversation())
        if record.instructions is not None:
            conversation.instructions = record.instructions
        conversation.messages = conversation.messages[: record.keep] + record.append
        node = self.state.agents.get(record.agent_id)
        if node is not None:
            node.conversation = conversation

    def apply(self, event: ev.Event) -> None:
        state = self.state
        state.last_seq = max(state.last_seq, event.seq)
        state.last_ts = max(state.last_ts, event.ts)
        agent_id = event.agent_id
        if isinstance(event, ev.AgentSpawned):
            self._spawn(event)
            return
        node = state.agents.get(agent_id)
        if node is None:
            return  # an event of an agent the log never introduced: nothing to attach it to
        if self.transcripts:
            self._transcripts[agent_id].apply(event)
        match event:
            case ev.StatusChanged(new=new, reason=reason):
                node.status = AgentStatus(new)
                if node.status.is_final:
                    node.ended_at = event.ts
                if node.status is AgentStatus.CANCELLED and reason == INTERRUPTED:
                    node.error = reason
            case ev.ExecutionStarted(run=run, execution_id=execution_id):
                state.ids.add(execution_id)
                node.runs = run
                node.started_at = event.ts
                node.ended_at = node.result = node.error = None
            case ev.ExecutionCompleted(result=result, execution_id=execution_id):
                state.ids.add(execution_id)
                node.result = result
            case ev.ExecutionFailed(error=error, execution_id=execution_id):
                state.ids.add(execution_id)
                node.error = error
            case ev.UsageUpdated(total=total, total_cost_usd=cost):
                node.usage = total
                node.cost_usd = cost
            case ev.InterventionApplied(kind="delete"):
                for member in self._subtree(agent_id):
                    member.user_comment = UserComment.DELETE
            case ev.InterventionApplied(kind="modify", content=content):
                node.user_comment = UserComment.MODIFY
                if content is not None:
                    node.user_content = content
            case ev.InterventionApplied(kind="steer" | "comment", detail=detail):
                node.user_comment = UserComment.COMMENT
                node.comment = detail
            case ev.QueryRaised(query_id=query_id, prompt=prompt, kind=kind):
                state.ids.add(query_id)
                state.open_queries[query_id] = OpenQuery(query_id, agent_id, prompt, kind)
            case ev.QueryAnswered(query_id=query_id) | ev.QueryDeclined(query_id=query_id):
                state.open_queries.pop(query_id, None)
            case ev.LLMRequested():
                state.streaming_parts[agent_id] = []
            case ev.TextDelta(delta=delta) if agent_id in state.streaming_parts:
                state.streaming_parts[agent_id].append(delta)
            case ev.LLMResponded():
                state.streaming_parts.pop(agent_id, None)
                state.tool_results[agent_id] = {}
            case ev.LLMFailed() | ev.LLMAbandoned() | ev.ExecutionCancelled():
                state.streaming_parts.pop(agent_id, None)
            case ev.ToolCompleted(call_id=call_id, result=result):
                state.tool_results.setdefault(agent_id, {})[call_id] = (result, False)
            case ev.ToolFailed(call_id=call_id, error=error):
                state.tool_results.setdefault(agent_id, {})[call_id] = (error, True)
            case ev.ConversationChanged(keep=keep, append=append, instructions=instructions):
                node.conversation.apply_change(keep, append, instructions)
            case ev.MonologueGenerated(entry=entry, usage=usage):
                state.monologue.append(MonologueLine(agent_id, entry))
                state.narrator_usage = state.narrator_usage + usage
            case _ if event.type in PASSED_OVER:
                pass  # nothing of the tree's state, or a guarded case above did not apply
            case _:
                self.unfolded.add(event.type)  # a type this fold has not been taught

    def _spawn(self, event: ev.AgentSpawned) -> None:
        state = self.state
        node = AgentNode(
            id=event.agent_id,
            parent_id=event.parent_id,
            name=event.name,
            task=event.task,
            created_at=event.ts,
        )
        conversation = self._conversations.get(event.agent_id)
        if conversation is not None:
            node.conversation = conversation
        parent = state.agents.get(event.parent_id) if event.parent_id else None
        if parent is not None:
            parent.children.append(node.id)
        state.agents[node.id] = node
        state.ids.add(node.id)
        if self.transcripts:
            builder = self._transcripts[node.id] = TranscriptBuilder(node.id)
            builder.apply(event)
            state.transcripts[node.id] = builder.items

    def _subtree(self, agent_id: str) -> list[AgentNode]:
        out: list[AgentNode] = []
        stack = [agent_id]
        while stack:
            node = self.state.agents.get(stack.pop())
            if node is not None:
                out.append(node)
                stack.extend(node.children)
        return out


def fold_session(log: SessionLog, *, transcripts: bool = True) -> SessionState:
    """The state a session's log describes, as of its last line."""
    return fold_log(log, transcripts=transcripts).state


def fold_log(log: SessionLog, *, transcripts: bool = True) -> SessionFold:
    """A fold fed the whole log, to read or to carry on with more events."""
    return fold_parts(log.events, log.conversations, transcripts=transcripts)


def fold_parts(
    events: Iterable[ev.Event],
    conversations: Iterable[ConversationRecord],
    *,
    transcripts: bool = True,
) -> SessionFold:
    """A fold fed a log's events and records (say, with deltas merged).

    Records and events are applied in file order: a record follows the events that caused it.
    """
    fold = SessionFold(transcripts=transcripts)
    records = iter(conversations)
    pending = next(records, None)
    with collector_paused():
        for event in events:
            while pending is not None and pending.seq < event.seq:
                fold.apply_record(pending)
                pending = next(records, None)
            fold.apply(event)
        while pending is not None:
            fold.apply_record(pending)
            pending = next(records, None)
    return fold
