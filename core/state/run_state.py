"""THE fold: a run's state from its events, and what each event changed.

Every front end folds events here and nowhere else: the app (batch by batch, redrawing what the
returned `Change` names), the headless printer, resume, export, `agentui sessions` and, next, a
viewer on another machine. Agents come from `agent:spawned`; each one's conversation from its
`conversation:changed` events (or, in logs of format 1-2, from conversation records).

    state = RunState()
    change = state.apply_all(batch)
    for agent_id in change.relabel: ...

Every event type is either folded by a case of `apply` or named in `PASSED_OVER`; any other
type lands in `unfolded`, which a test over every type keeps empty.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Collection, Iterable
from typing import TYPE_CHECKING, Any, NamedTuple

from agentui.core.agent.budget import Budget
from agentui.core.agent.pending_interventions import Modification
from agentui.core.agent.tree import UserComment
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView
from agentui.core.protocol.conversation import Message
from agentui.core.protocol.events_on_use import events_on_first_use
from agentui.core.protocol.narrative import NarrativeEntry
from agentui.core.protocol.usage import Usage
from agentui.core.state.agent_state import AgentState, QueuedNote
from agentui.core.state.change import Change
from agentui.core.state.scene_fold import SceneFold, scene_fold_factory
from agentui.core.state.transcript import TranscriptBuilder, TranscriptItem
from agentui.core.support.growing_text import GrowingText

if TYPE_CHECKING:
    from agentui.core.protocol import events as ev
else:
    ev = events_on_first_use(globals())  # the fold's functions load it

# Event types nothing is folded from, or only in the guarded cases of `apply` (the transcript
# builder, apart, shows most of them).
PASSED_OVER = frozenset({
    "answer:validated", "execution:paused", "execution:resumed", "hook:error", "intervention:applied",
    "intervention:unused", "iteration:complete", "iteration:start", "monologue:error",
    "text:delta", "thinking:delta", "thinking:redacted",
    "tool:detected", "workflow:result",
    "workflow:step", "approval:decided",
})  # fmt: skip

# The events that change what the inbox's rows (state/inbox.py) are made of: the agents, their
# statuses (a row's `waiting` counts the live ones under it), questions, budget stops, stalls
# and the person's steers. Any other event of a stalled agent ends its stall: counted too.
INBOX_EVENTS = frozenset({
    "agent:spawned", "agent:status", "agent:stalled", "agent:rewound",
    "query:raised", "query:answered", "query:declined",
    "budget:set", "budget:stop", "budget:continue",
    "note:queued", "note:delivered",
})  # fmt: skip

# What an agent that was still running when its session ended is marked with. Runtime.adopt
# says the same, so a resumed runtime and a fold of its log agree.
INTERRUPTED = "interrupted: the session ended while it ran"


# Events of an agent that are not its own doing: the narrator's line about it says nothing of
# whether the agent itself has gone silent.
NOT_THE_AGENTS_WORD = frozenset({"monologue", "monologue:error"})


class OpenQuery(NamedTuple):
    query_id: str
    agent_id: str
    prompt: str
    kind: str
    ts: float = 0.0  # when it was raised
    tool: str | None = None  # an approval's tool call
    arguments: dict[str, Any] | None = None


class Deciding(NamedTuple):
    """A structured decision an agent's model is answering unseen (its JSON is not shown)."""

    decision: str  # clarify, questions, subquestions, resolution
    attempt: int
    since: float  # when its first attempt was asked


# The window the burn rate is measured over, in seconds of the events' time.
BURN_WINDOW_S = 60.0


class Spending(NamedTuple):
    """A usage:updated's spend, for the burn rate."""

    ts: float
    tokens: int
    usd: float


class MonologueLine(NamedTuple):
    agent_id: str
    entry: NarrativeEntry


class RunState:
    """Apply events in order; read the state at any point.

    `transcripts=False` keeps no transcript items (resume and listings need the tree and the
    conversations, not the blocks a screen or an export shows). `streamed_text=False` keeps no
    copy of the responses still streaming (`streaming`): only resuming a session that was cut
    off mid-answer needs it, and a live screen's transcript holds that text already (a second
    copy of everything streaming at once).
    """

    def __init__(self, *, transcripts: bool = True, streamed_text: bool = True) -> None:
        self.keep_transcripts = transcripts
        self.keep_streamed_text = streamed_text
        self.agents: dict[str, AgentState] = {}  # in spawn order
        self.timeline: list[TranscriptItem] = []  # every agent's items in the order they began
        self.open_queries: dict[str, OpenQuery] = {}  # in the order raised
        # Agents whose model is answering a structured decision now, by agent id.
        self.deciding: dict[str, Deciding] = {}
        self.monologue: list[MonologueLine] = []
        self.narrator_usage = Usage()
        self.last_error: tuple[str, str] | None = None  # (agent name, error)
        # Tools the person allowed for the rest of the run ("always"), in the order allowed.
        self.always_allowed: list[str] = []
        # The pieces of a response still streaming, per agent (cut off by a crash, in a log).
        self.streaming_parts: dict[str, GrowingText] = {}
        # Per agent, the outcomes of its latest response's tool calls, by call id:
        # (content, is_error), as the loop puts them in the conversation.
        self.tool_results: dict[str, dict[str, tuple[str, bool]]] = {}
        self.last_seq = 0
        self.last_ts = 0.0
        # Counts every change of what the inbox's rows are made of (inbox.inbox_key).
        self.inbox_revision = 0
        self.ids: set[str] = set()  # every agent, query and execution id seen
        self.unfolded: set[str] = set()  # event types met that no case folds
        # Directed scenes' root agents, in the order they started. Each scene's own state
        # (world, characters, rounds) is folded by core/scene's fold (see `scenes`).
        self.scene_roots: list[str] = []
        self._scenes: dict[str, SceneFold] = {}
        # Scene events met before core/scene registered its fold, with their scene's root.
        self._scene_events_waiting: list[tuple[str, ev.SceneStarted | ev.SceneEvent]] = []
        # Each MCP server's latest state (a runtime event, of no agent), in the order first seen.
        self.mcp_servers: dict[str, ev.McpServerChanged] = {}
        # Why the session log stopped (the first failed write), if it did: the run goes on unsaved.
        self.session_log_failed: ev.SessionLogFailed | None = None
        # The agents' spend over the last BURN_WINDOW_S of event time, oldest first.
        self.recent_spending: deque[Spending] = deque()
        self._change = Change()

    # -- reading -------------------------------------------------------------------------

    @property
    def scenes(self) -> dict[str, SceneFold]:
        """Each directed scene's state, by its root agent (core/scene/scene_state.SceneState),
        once core/scene is loaded: it registers the fold (state/scene_fold.py)."""
        self._fold_waiting_scene_events()
        return self._scenes

    def roots(self) -> list[AgentState]:
        return [a for a in self.agents.values() if a.parent_id is None]

    def live(self) -> list[AgentState]:
        return [a for a in self.agents.values() if a.status.is_live]

    def live_count(self) -> int:
        return sum(a.status.is_live for a in self.agents.values())

    def view(self, agent: AgentState) -> AgentView:
        """What decides the commands that apply to `agent` (core/protocol/commands.allowed):
        its status, its driver, the kinds of its questions still open, and a budget stop."""
        asks = (self.open_queries[q].kind for q in agent.open_queries if q in self.open_queries)
        # The nearest budget stop up the chain holds the agent too, as the runtime reads it: its
        # own, or an ancestor's whose subtree it is in (the owner's to raise or continue past).
        owner: AgentState | None = agent
        while owner is not None and owner.budget_stop is None:
            owner = self.agents.get(owner.parent_id) if owner.parent_id is not None else None
        if owner is None:
            return AgentView.of(agent, asks=asks)
        name = None if owner is agent else owner.name
        return AgentView.of(agent, asks=asks, budget_stopped=True, budget_owner=name)

    @property
    def cost_usd(self) -> float:
        """What the agents' tokens cost, of those whose model has a price."""
        return sum(a.cost_usd or 0.0 for a in self.agents.values())

    @property
    def unpriced(self) -> bool:
        """Some agent spent tokens on a model with no price: its cost is not in `cost_usd`."""
        return any(a.cost_usd is None and a.usage.total_tokens for a in self.agents.values())

    def burn_rate(self) -> tuple[float, float]:
        """(tokens, usd) per minute over the last BURN_WINDOW_S of the run's events."""
        since = self.last_ts - BURN_WINDOW_S
        recent = [s for s in self.recent_spending if s.ts >= since]
        minutes = BURN_WINDOW_S / 60
        return sum(s.tokens for s in recent) / minutes, sum(s.usd for s in recent) / minutes

    def budget_stops(self) -> list[AgentState]:
        """The agents whose budget stopped their subtree, waiting on the person."""
        return [a for a in self.agents.values() if a.budget_stop is not None]

    def subtree(self, agent_id: str) -> list[AgentState]:
        """The agent and its descendants, parents first."""
        out: list[AgentState] = []
        stack = [agent_id]
        while stack:
            agent = self.agents.get(stack.pop())
            if agent is not None:
                out.append(agent)
                stack.extend(reversed(agent.children))
        return out

    def entry_for_query(self, query_id: str) -> TranscriptItem | None:
        query = self.open_queries.get(query_id)
        agent = self.agents.get(query.agent_id) if query is not None else None
        if agent is None or agent.transcript is None:
            return None
        return agent.transcript.item(query_id)

    @property
    def transcripts(self) -> dict[str, list[TranscriptItem]]:
        """Each agent's transcript items (empty without transcripts)."""
        return {agent_id: agent.entries for agent_id, agent in self.agents.items()}

    @property
    def narratives(self) -> list[MonologueLine]:
        return self.monologue

    @property
    def narrator_tokens(self) -> int:
        return self.narrator_usage.total_tokens

    @property
    def tokens(self) -> int:
        """The agents' tokens (the narrator's are counted apart, in `narrator_usage`)."""
        return sum(a.usage.total_tokens for a in self.agents.values())

    @property
    def streaming(self) -> dict[str, str]:
        """Text of a response still streaming, per agent."""
        return {agent_id: text.value for agent_id, text in self.streaming_parts.items()}

    @property
    def status(self) -> str:
        """One word for the whole run, as `agentui sessions` shows it."""
        return run_status(
            [a.status for a in self.agents.values()], [a.status for a in self.roots()]
        )

    def as_change(self) -> Change:
        """Everything as one change: what a view that starts from this state draws first."""
        return Change(
            added=list(self.agents),
            new_entries=list(self.timeline),
            narratives=[(line.agent_id, line.entry) for line in self.monologue],
        )

    # -- folding -------------------------------------------------------------------------

    def apply_all(self, events: Iterable[ev.Event]) -> Change:
        """Fold a batch; the change covers all of it."""
        self._change = change = Change()
        for event in events:
            self._apply(event)
        return change

    def apply(self, event: ev.Event) -> Change:
        self._change = change = Change()
        self._apply(event)
        return change

    def _added(self, item: TranscriptItem) -> None:
        self.timeline.append(item)
        self._change.new_entries.append(item)

    def _changed(self, item: TranscriptItem) -> None:
        self._change.changed_entries.add(item.uid)

    def _apply(self, event: ev.Event) -> None:
        if type(event) is ev.TextDelta or type(event) is ev.ThinkingDelta:
            self._delta(event)
            return
        self.last_seq = max(self.last_seq, event.seq)
        self.last_ts = max(self.last_ts, event.ts)
        if event.type in INBOX_EVENTS:
            self.inbox_revision += 1
        agent_id = event.agent_id
        if isinstance(event, ev.AgentSpawned):
            self._spawn(event)
            return
        if isinstance(event, ev.McpServerChanged):
            self.mcp_servers[event.server] = event
            return
        if isinstance(event, ev.RunResumed):
            self.always_allowed.clear()  # the new runtime asks again
            return
        if isinstance(event, ev.SessionLogFailed):
            self.session_log_failed = self.session_log_failed or event
            return
        agent = self.agents.get(agent_id)
        if agent is None:
            return  # an event of an agent never introduced: nothing to attach it to
        if agent.transcript is not None:
            agent.transcript.apply(event)
        change = self._change
        if isinstance(event, ev.AgentStalled):
            agent.stalled_since = event.since
            change.relabel.add(agent_id)
            change.stalled.append(agent_id)
            return
        if event.type not in NOT_THE_AGENTS_WORD:
            agent.last_event_ts = max(agent.last_event_ts, event.ts)
            if agent.stalled_since is not None:
                agent.stalled_since = None
                change.relabel.add(agent_id)
                self.inbox_revision += 1
        match event:
            case ev.StatusChanged(new=new, reason=reason):
                agent.status = AgentStatus(new)
                agent.status_reason = reason
                if agent.status.is_final:
                    self.deciding.pop(agent_id, None)
                    agent.budget_stop = None
                if agent.status is AgentStatus.RUNNING:
                    agent.ended_at = None
                    if agent.first_started_at is None:
                        agent.first_started_at = event.ts
                elif agent.status.is_final:
                    agent.ended_at = event.ts
                else:  # live again: a resumed session gave it back waiting on the person
                    agent.ended_at = None
                if agent.status is AgentStatus.CANCELLED and reason == INTERRUPTED:
                    agent.error = reason
                change.relabel.add(agent_id)
            case ev.ExecutionStarted(run=run, execution_id=execution_id):
                self.ids.add(execution_id)
                agent.runs = run
                agent.started_at = event.ts
                agent.ended_at = agent.result = agent.error = None
            case ev.ExecutionCompleted(result=result, execution_id=execution_id):
                self.ids.add(execution_id)
                agent.result = result
            case ev.ExecutionFailed(error=error, execution_id=execution_id):
                self.ids.add(execution_id)
                agent.error = error
                self.last_error = (agent.name, error)
            case ev.UsageUpdated(total=total, total_cost_usd=cost):
                agent.usage = total
                agent.cost_usd = cost
                change.relabel.add(agent_id)
                self._spent(agent, event)
            case ev.BudgetSet(budget=limits, source=source):
                agent.budget = Budget.from_limits(limits) if limits else None
                if source == "person":
                    agent.budget_stop = None
                change.relabel.add(agent_id)
            case ev.BudgetReached(stopped_agent=stopped):
                agent.budget_stop = event
                change.relabel.add(agent_id)
                change.budget_stops.append(agent_id)
                member = self.agents.get(stopped)
                if stopped != agent_id and member is not None and member.transcript is not None:
                    member.transcript.apply(event)  # its own transcript says why it stopped
            case ev.BudgetContinued():
                agent.budget_stop = None
                change.relabel.add(agent_id)
            case ev.ToolStarted():
                agent.tool_calls += 1
            case ev.InterventionApplied(kind="delete"):
                for member in self.subtree(agent_id):
                    member.user_comment = UserComment.DELETE
            case ev.InterventionApplied(kind="modify", instructions=instructions, content=content):
                modification = Modification(instructions, content)
                pending = agent.pending_modification
                agent.pending_modification = pending.then(modification) if pending else modification
                agent.user_comment = UserComment.MODIFY
                if content is not None:
                    agent.user_content = content
                    agent.task = content  # the tree and the transcript's title show it at once
                    change.relabel.add(agent_id)
            case ev.InterventionApplied(kind="steer" | "comment", detail=detail):
                agent.user_comment = UserComment.COMMENT
                agent.comment = detail
            case ev.QueryRaised(query_id=query_id, prompt=prompt, kind=kind):
                self.ids.add(query_id)
                self.open_queries[query_id] = OpenQuery(
                    query_id, agent_id, prompt, kind, event.ts, event.tool, event.arguments
                )
                agent.open_queries.append(query_id)
                change.new_queries.append(query_id)
                change.relabel.add(agent_id)
            case ev.QueryAnswered(query_id=query_id) | ev.QueryDeclined(query_id=query_id):
                self.open_queries.pop(query_id, None)
                if query_id in agent.open_queries:
                    agent.open_queries.remove(query_id)
                change.closed_queries.append(query_id)
                change.relabel.add(agent_id)
            case ev.NoteQueued(note_id=note_id, text=text, from_person=from_person):
                self.ids.add(note_id)
                agent.queued_notes.append(QueuedNote(note_id, text, from_person, event.ts))
            case ev.NotesDelivered(note_ids=note_ids, modified=modified):
                delivered = set(note_ids)
                agent.queued_notes = [n for n in agent.queued_notes if n.note_id not in delivered]
                if modified:
                    agent.pending_modification = None
            case ev.ApprovalDecided(decision="always", tool=tool):
                if tool not in self.always_allowed:
                    self.always_allowed.append(tool)
            case ev.LLMRequested():
                agent.model_calls += 1
                if self.keep_streamed_text:
                    self.streaming_parts[agent_id] = GrowingText()
            case ev.LLMResponded():
                self.streaming_parts.pop(agent_id, None)
                self.tool_results[agent_id] = {}
            case ev.DecisionStarted(decision=decision, attempt=attempt):
                asked = self.deciding.get(agent_id)
                same = asked is not None and asked.decision == decision and attempt > 1
                since = asked.since if same and asked is not None else event.ts
                self.deciding[agent_id] = Deciding(decision, attempt, since)
            case ev.DecisionMade(ok=ok):
                if ok:  # a failed attempt is asked again (or given up with an llm:error)
                    self.deciding.pop(agent_id, None)
            case ev.LLMFailed(retryable=retryable):
                self.streaming_parts.pop(agent_id, None)
                if not retryable:  # a decision given up on, or the agent's call failed
                    self.deciding.pop(agent_id, None)
            case ev.LLMAbandoned() | ev.ExecutionCancelled():
                self.streaming_parts.pop(agent_id, None)
            case ev.ToolProgressed(call_id=call_id):
                agent.tool_progress = f"{event.name}: {event.line()}"
                agent.tool_progress_call = call_id
                self._change.relabel.add(agent_id)
            case ev.ToolCompleted(call_id=call_id, result=result):
                self.tool_results.setdefault(agent_id, {})[call_id] = (result, False)
                self._tool_ended(agent, call_id)
            case ev.ToolFailed(call_id=call_id, error=error):
                self.tool_results.setdefault(agent_id, {})[call_id] = (error, True)
                self._tool_ended(agent, call_id)
            case ev.ToolTimedOut(call_id=call_id):
                self._tool_ended(agent, call_id)
            case ev.AgentRewound(set_aside=set_aside):
                # What was queued for the later conversation is set aside with it.
                agent.queued_notes = []
                agent.pending_modification = None
                for child_id in set_aside:
                    child = self.agents.get(child_id)
                    if child is not None:
                        child.set_aside = True
                        change.relabel.add(child_id)
                change.relabel.add(agent_id)
            case ev.AgentForked():
                agent.forked_from = event
                change.relabel.add(agent_id)
            case ev.ConversationChanged(keep=keep, append=append, instructions=instructions):
                agent.conversation.apply_change(keep, append, instructions)
                change.conversations.add(agent_id)
            case ev.SceneStarted():
                if agent_id not in self.scene_roots:
                    self.scene_roots.append(agent_id)
                self._fold_scene(agent_id, event)
                change.scenes.add(agent_id)
            case (
                ev.RoundStarted()
                | ev.DirectorPassStarted()
                | ev.DirectorPassCompleted()
                | ev.CharacterStarted()
                | ev.CharacterCompleted()
                | ev.StateUpdated()
                | ev.CharacterActivated()
                | ev.CharacterDeactivated()
                | ev.RoundCompleted()
            ):
                # A round's events are its node's; the scene is its parent's (the root's).
                root_id = agent.parent_id
                if root_id is not None and root_id in self.scene_roots:
                    self._fold_scene(root_id, event)
                    change.scenes.add(root_id)
                    # The scene's own transcript shows the whole play as it goes (each round's
                    # transcript shows its own part).
                    root = self.agents.get(root_id)
                    if root is not None and root.transcript is not None:
                        root.transcript.apply(event)
            case ev.MonologueGenerated(entry=entry, usage=usage):
                self.monologue.append(MonologueLine(agent_id, entry))
                self.narrator_usage = self.narrator_usage + usage
                change.narratives.append((agent_id, entry))
            case _ if event.type in PASSED_OVER:
                pass  # nothing of the run's state, or a guarded case above did not apply
            case _:
                self.unfolded.add(event.type)  # a type this fold has not been taught

    def _tool_ended(self, agent: AgentState, call_id: str) -> None:
        """The call `call_id` ended: its progress line, if the agent shows it, goes."""
        if agent.tool_progress_call == call_id:
            agent.tool_progress = agent.tool_progress_call = ""
            self._change.relabel.add(agent.id)

    def _spent(self, agent: AgentState, event: ev.UsageUpdated) -> None:
        """Charge a usage to the agent's subtree and every ancestor's, as the runtime charges
        budgets; remember it for the burn rate."""
        tokens, usd = event.delta.total_tokens, event.cost_usd or 0.0
        member: AgentState | None = agent
        while member is not None:
            member.subtree_tokens += tokens
            member.subtree_usd += usd
            if member.budget is not None:
                self._change.relabel.add(member.id)
            member = self.agents.get(member.parent_id) if member.parent_id else None
        spending = self.recent_spending
        spending.append(Spending(event.ts, tokens, usd))
        while spending and spending[0].ts < event.ts - BURN_WINDOW_S:
            spending.popleft()

    def _fold_scene(self, root_id: str, event: ev.SceneStarted | ev.SceneEvent) -> None:
        self._scene_events_waiting.append((root_id, event))
        self._fold_waiting_scene_events()

    def _fold_waiting_scene_events(self) -> None:
        if not self._scene_events_waiting:
            return
        begin = scene_fold_factory()
        if begin is None:
            return  # core/scene is not loaded: they wait for its fold
        waiting, self._scene_events_waiting = self._scene_events_waiting, []
        for root_id, event in waiting:
            if isinstance(event, ev.SceneStarted):
                previous = self._scenes.get(event.continues) if event.continues else None
                self._scenes[root_id] = begin(event, previous)
            else:
                self._scenes[root_id].apply(event)

    def apply_record(
        self, agent_id: str, keep: int, append: list[Message], instructions: str | None
    ) -> None:
        """A conversation record of a format 1-2 log: the same change an event would be."""
        agent = self.agents.get(agent_id)
        if agent is not None:
            agent.conversation.apply_change(keep, append, instructions)

    def _delta(self, event: ev.TextDelta | ev.ThinkingDelta) -> None:
        """The stream's bulk, one event per chunk, folded apart: `_apply`'s walk through its
        checks and the match's cases was most of the fold's cost per streamed character. It
        does what `_apply` does for a delta (a delta is no inbox event, no agent's word of
        `NOT_THE_AGENTS_WORD`), in the same order."""
        seq, ts = event.seq, event.ts
        if seq > self.last_seq:
            self.last_seq = seq
        if ts > self.last_ts:
            self.last_ts = ts
        agent_id = event.agent_id
        agent = self.agents.get(agent_id)
        if agent is None:
            return
        if agent.transcript is not None:
            agent.transcript.stream(event)
        if ts > agent.last_event_ts:  # a pydantic model: assigning costs, so only when it grows
            agent.last_event_ts = ts
        if agent.stalled_since is not None:
            agent.stalled_since = None
            self._change.relabel.add(agent_id)
            self.inbox_revision += 1
        if type(event) is ev.TextDelta:
            parts = self.streaming_parts.get(agent_id)
            if parts is not None:
                parts.append(event.delta)

    def _spawn(self, event: ev.AgentSpawned) -> None:
        agent = AgentState(
            id=event.agent_id,
            parent_id=event.parent_id,
            name=event.name,
            task=event.task,
            profile=event.profile,
            driver=event.driver,
            created_at=event.ts,
        )
        if self.keep_transcripts:
            agent.transcript = TranscriptBuilder(
                event.agent_id, on_added=self._added, on_changed=self._changed
            )
        parent = self.agents.get(event.parent_id) if event.parent_id else None
        if parent is not None:
            parent.children.append(agent.id)
        self.agents[agent.id] = agent
        self.ids.add(agent.id)
        self._change.added.append(agent.id)
        if agent.transcript is not None:
            agent.transcript.apply(event)


def run_status(statuses: Collection[AgentStatus], root_statuses: Iterable[AgentStatus]) -> str:
    """One word for a run from its agents' statuses (and its roots' among them)."""
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
