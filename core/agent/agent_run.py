"""AgentRun: one agent's life in a runtime; what its loop, its tools and its workflow talk to.

It owns the agent's control: the pause gate, the cancel scope of the current run, one stop
request, the pending modification and queued notes its next model call delivers, its open
queries, its active time and its budget account (budget_account.py: a budget reached pauses
the agent at its next step). The Runtime's commands for an agent land here. Every change is
an event on the runtime's bus, and the agent's own events wait at its pause gate.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import anyio

from agentui.core.agent.approval import prompt_for as approval_prompt_for
from agentui.core.agent.budget import Budget, share_for_child
from agentui.core.agent.budget_account import (
    BudgetAccount,
    BudgetStop,
    ForkForecast,
    Step,
    forecast_fork,
)
from agentui.core.agent.hooks import ApprovalDecision, HookManager
from agentui.core.agent.ids import IdSource
from agentui.core.agent.limits import Limits
from agentui.core.agent.loop import SavedCalls
from agentui.core.agent.pause_gate import PauseGate, PauseListener
from agentui.core.agent.pending_interventions import Modification, Note, StopRequest
from agentui.core.agent.queries import Query, QueryBook
from agentui.core.agent.reopening import Reopening
from agentui.core.agent.steps import StepLog, restoring_change
from agentui.core.agent.tree import AgentNode, AgentTree, UserComment
from agentui.core.agent.turn import ToolCall
from agentui.core.agent.workflow_trail import TakeUp
from agentui.core.bus import EventBus
from agentui.core.profiles.contract import JsonContract
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.conversation import (
    Conversation,
    ConversationListener,
    Message,
    user_text,
)
from agentui.core.protocol.events import (
    BudgetContinued,
    BudgetReached,
    BudgetSet,
    ConversationChanged,
    E,
    ExecutionPaused,
    ExecutionResumed,
    InterventionApplied,
    InterventionKind,
    InterventionsUnused,
    NoteQueued,
    NotesDelivered,
    StatusChanged,
    UsageUpdated,
)
from agentui.core.protocol.subagent import SubagentOutcome
from agentui.core.protocol.usage import Usage
from agentui.core.protocol.workflow_notes import SubagentResult, results_note
from agentui.core.protocol.workflow_report import WorkflowReport
from agentui.core.providers.base import Provider
from agentui.core.support.clock import Clock
from agentui.core.support.errors import CommandRefusedError, LimitExceededError
from agentui.core.support.pricing import PriceTable
from agentui.core.tools.active_time import ActiveTime
from agentui.core.tools.pending_tools import ToolsToCome
from agentui.core.tools.registry import ToolOutcome, ToolRegistry

if TYPE_CHECKING:
    from agentui.core.profiles.config import ProfilesConfig
    from agentui.core.profiles.profile import AgentProfile
    from agentui.core.providers.scene_cue import SceneCue

MODIFIED_NOTE = "The person modified your instructions or task. Continue under the new ones."
# Why a question waiting when the task changed was declined (its query:declined reason).
TASK_CHANGED = "withdrawn: the person changed the task"
WITHDRAWN_NOTE = (
    "Your question was withdrawn unanswered, since it was about the task as it was: {question}"
)


class Driver(Protocol):
    """agentui's own code running an agent instead of a model (a scene, a round of one)."""

    kind: str  # what it is, as the agent's node says ("scene", "round")

    async def drive(self, run: AgentRun) -> str:
        """Do the agent's work; its result. Raise DriverError when it cannot go on."""
        ...


class Spawn(Protocol):
    def __call__(self, parent_id: str, task: str, name: str | None, profile: str | None) -> str:
        """Start a subagent of `parent_id` on `task` (the plain loop), with the named agent
        profile if any; its id. Raises UnknownProfileError for a name no profile has."""
        ...


@dataclass(frozen=True, slots=True)
class RunContext:
    """What every AgentRun of one runtime shares; the Runtime makes it once."""

    bus: EventBus
    tree: AgentTree
    runs: dict[str, AgentRun]
    queries: QueryBook
    ids: IdSource
    clock: Clock
    provider: Provider
    tools: ToolRegistry
    hooks: HookManager
    limits: Limits
    prices: PriceTable
    streaming: bool
    spawn: Spawn
    profile_settings: ProfilesConfig  # how JSON answers are held to their contracts


class AgentRun:
    def __init__(self, node: AgentNode, shared: RunContext) -> None:
        self.node = node
        self.shared = shared
        self.agent_id = node.id
        self.agent_name = node.name
        self.gate = PauseGate()
        self.gate.watch(self._activity_changed)  # first: listeners read the active time
        self.scope = anyio.CancelScope()  # of the current run
        self.done = anyio.Event()  # the current run has ended
        self.started = False
        self.stop: StopRequest | None = None
        self.modification: Modification | None = None
        self.notes: list[Note] = []  # oldest first
        # Questions a modify of its task withdrew, said with the modification it delivers.
        self.withdrawn_questions: list[str] = []
        self._interventions_given = 0  # modifies and notes, counted as they come
        self.interventions: list[InterventionKind] = []  # applied to this agent, in order
        self.report: WorkflowReport | None = None  # of its six-step workflow, once completed
        self.live_children = 0  # counted as they start and end: a fork never lists them
        # What it runs with: the runtime's tools and model unless its profile says otherwise.
        self.profile: AgentProfile | None = None
        self.tools: ToolRegistry = shared.tools
        self.tools_to_come: ToolsToCome | None = None  # its profile's, not in `tools` yet
        self.model: str = shared.provider.model
        self.contract: JsonContract | None = None  # a JSON profile's, for its final answers
        self.payload: Any = None  # its latest run's validated JSON answer
        self.driver: Driver | None = None  # runs it instead of a model, when set
        self.cue: SceneCue | None = None  # its place in a directed scene, for its requests
        self._asking = 0  # queries it waits on
        # Given back by a resume (reopen): its last answer's tool calls as the session left
        # them, and the query it waited on, open again until its run takes it up.
        self.saved_calls: SavedCalls | None = None
        self._reopened: list[Query] = []
        # Where its workflow goes on, when it was in one (the runtime starts its run with it).
        self.resumed_workflow: TakeUp | None = None
        self.resumed_task: str | None = None  # the task of the run it was in, which goes on
        # Given back paused: its run, started once the gate opens (start_when_resumed).
        self._start_later: Callable[[], None] | None = None
        self._unwatch_start: Callable[[], None] | None = None
        self._active: ActiveTime | None = None  # stands still while paused or asking
        parent = shared.runs[node.parent_id] if node.parent_id is not None else None
        # Charged up the chain: an ancestor's budget holds over this agent's spending too.
        self.budget: BudgetAccount = BudgetAccount(
            node.id,
            node.name,
            parent.budget if parent is not None else None,
            self.active_seconds,
            self._live_descendants,
            limit=node.budget,
        )
        self._forks_allowed = 0  # forks the person allowed past a forecast, not made yet
        # Its conversation's changes and steps (steps.py), for a rewind or a fork from one.
        self.steps = StepLog(node.name)
        # Subagents a rewind kept whose results the step it went back to had not had: handed
        # again, as a note on its next model call, once each has ended (steps.owed_after).
        self.owed: list[str] = []
        self.rewinding: int | None = None  # the step a rewind waits for its run to end to go to
        self.rewound = anyio.Event()  # set when that rewind is done (or given up at shutdown)
        self._publish: ConversationListener | None = None  # set by publish_conversation
        if parent is not None and node.status.is_live:
            parent.live_children += 1

    # -- emission and the pause gate -----------------------------------------------------

    async def emit(self, cls: type[E], **fields: Any) -> E:
        """Emit an event of this agent, first waiting while it is paused; the event."""
        await self.gate.checkpoint()
        return self.shared.bus.emit(cls, self.agent_id, **fields)

    async def checkpoint(self) -> None:
        await self.gate.checkpoint()

    def watch_pause(self, listener: PauseListener) -> Callable[[], None]:
        return self.gate.watch(listener)

    def pause(self, reason: str, *, intervention: bool = True) -> None:
        if self.gate.close():
            self.shared.bus.emit(ExecutionPaused, self.agent_id, reason=reason)
            if intervention:
                self.intervened("pause")
            self.settle(reason)

    def request_pause(self, reason: str) -> None:
        """A hook's pause (not the person's)."""
        self.pause(reason, intervention=False)

    def resume(self) -> None:
        if self.node.status.is_live and self.gate.open():
            self.shared.bus.emit(ExecutionResumed, self.agent_id)
            self.intervened("resume")
            self.settle("resumed by the person")

    def resume_after_budget(self, reason: str) -> None:
        """Go on after a budget stop was lifted (not the person's resume of this agent)."""
        if self.node.status.is_live and self.gate.open():
            self.shared.bus.emit(ExecutionResumed, self.agent_id)
            self.settle(reason)

    # -- statuses and time ---------------------------------------------------------------

    def set_status(self, new: AgentStatus, reason: str) -> None:
        if new.is_final:
            self._drop_reopened()  # ended before its run took the question up (a cancel)
        old = self.shared.tree.set_status(self.agent_id, new)
        if new.is_final:
            self.node.ended_at = self.shared.clock.now()
        if old.is_live != new.is_live and self.node.parent_id is not None:
            self.shared.runs[self.node.parent_id].live_children += 1 if new.is_live else -1
        self.shared.bus.emit(
            StatusChanged, self.agent_id, old=old.value, new=new.value, reason=reason
        )

    def settle(self, reason: str) -> None:
        """Bring a live agent's status in line with its control state."""
        if not self.node.status.is_live:
            return
        if self.gate.paused:
            wanted = AgentStatus.PAUSED
        elif self._asking:
            wanted = AgentStatus.AWAITING_USER
        elif self.modification is not None:
            wanted = AgentStatus.MODIFIED
        elif self.started:
            wanted = AgentStatus.RUNNING
        else:
            wanted = AgentStatus.PENDING
        if wanted is not self.node.status:
            self.set_status(wanted, reason)

    def begin_run(self) -> None:
        self.started = True
        self._active = ActiveTime(self.shared.clock.monotonic)
        self._activity_changed()

    def active_seconds(self) -> float:
        """Time this run has been active (not paused, not waiting for the person)."""
        return self._active.elapsed() if self._active is not None else 0.0

    def _activity_changed(self, _paused: bool = False) -> None:
        active = self._active
        inactive = self.gate.paused or self._asking > 0
        if active is not None and inactive == active.running:
            active.suspend() if inactive else active.resume()

    def continue_with(self, text: str) -> None:
        """Prepare a follow-up run of an ended agent, its conversation continued with `text`."""
        self.node.conversation.append(user_text(text))
        self.prepare_next_run()

    def reopen(self, reopening: Reopening) -> None:
        """Go on as a resumed session left it (Reopening); the runtime starts its run."""
        outcomes = {
            call_id: ToolOutcome(content, is_error)
            for call_id, (content, is_error) in reopening.outcomes.items()
        }
        if outcomes or reopening.started:
            self.saved_calls = SavedCalls(outcomes, reopening.started)
        self.resumed_workflow = reopening.take_up
        self.resumed_task = reopening.task
        if reopening.query_id is not None:
            query = Query(
                reopening.query_id,
                self.agent_id,
                reopening.prompt,
                reopening.kind,
                anyio.Event(),
                tool=reopening.tool,
                arguments=reopening.arguments,
                call_id=reopening.call_id,
            )
            self.shared.queries.reopen(query)
            self._reopened.append(query)
            self._asking += 1  # it waits on it from now: its status says so already
        if self.node.status is AgentStatus.PAUSED:
            self.gate.close()  # no event: its status in the log says paused already

    def start_when_resumed(self, start: Callable[[], None]) -> None:
        """Given back paused (reopen): `start` its run once the gate opens (the person resumes
        it, or lifts its budget's stop). Until then no run of it waits at the gate, so a
        cancel or a shutdown ends it at once, as the run that would have started."""
        self.started = True  # it ran before the session ended: a resume makes it running
        self._start_later = start

        def resumed(paused: bool) -> None:
            if not paused:
                self._run_later()()

        self._unwatch_start = self.gate.watch(resumed)

    def _run_later(self) -> Callable[[], None]:
        """The start `start_when_resumed` held, taken once (a no-op once taken)."""
        start, self._start_later = self._start_later, None
        if self._unwatch_start is not None:
            self._unwatch_start()
            self._unwatch_start = None
        return start if start is not None else (lambda: None)

    def take_saved_calls(self) -> SavedCalls | None:
        saved, self.saved_calls = self.saved_calls, None
        return saved

    def _take_reopened(self, matches: Callable[[Query], bool]) -> Query | None:
        for query in self._reopened:
            if matches(query):
                self._reopened.remove(query)
                return query
        return None

    def _drop_reopened(self) -> None:
        """Stop waiting on the reopened queries no run took up: declined, as for any query
        whose agent stopped."""
        reopened, self._reopened = self._reopened, []
        for query in reopened:
            self._asking -= 1
            self.shared.queries.withdraw(query)
        if reopened:
            self._activity_changed()

    async def until_ended(self) -> None:
        """Wait until the current run has ended. A run stopped to be rewound is followed by
        the next one (the agent goes on from the step): that one is waited for."""
        while True:
            done = self.done
            await done.wait()
            if self.rewinding is not None:
                await self.rewound.wait()
            elif self.done is done:
                return

    def prepare_next_run(self) -> None:
        """A new run of this ended agent may start: its own scope, done event, no stop asked."""
        self.scope = anyio.CancelScope()
        self.done = anyio.Event()
        self.stop = None

    def publish_conversation(self, *, announce: bool) -> None:
        """From now on every change of the conversation is a `conversation:changed`;
        `announce`: the conversation as it stands is one too (a new agent's first)."""

        bus, agent_id, steps = self.shared.bus, self.agent_id, self.steps

        # A function, not a bound method: copying a node (deepcopy) shares a function.
        def publish(keep: int, append: list[Message], instructions: str | None) -> None:
            event = bus.emit(
                ConversationChanged, agent_id, keep=keep, append=append, instructions=instructions
            )
            steps.apply(event)

        conversation = self.node.conversation
        conversation.watch(publish)
        self._publish = publish
        if announce:
            publish(0, list(conversation.messages), conversation.instructions)

    def restore_conversation(self, instructions: str, messages: list[Message]) -> None:
        """Put the conversation back as it was (a rewind): one `conversation:changed` that
        keeps what the two share and adds the rest."""
        conversation = self.node.conversation
        keep, append = restoring_change(conversation.messages, messages)
        changed = instructions if instructions != conversation.instructions else None
        conversation.apply_change(keep, append, changed)
        assert self._publish is not None, "a runtime's agents publish their conversation"
        self._publish(keep, append, changed)

    # -- the person's interventions ------------------------------------------------------

    def intervened(self, kind: InterventionKind, detail: str = "") -> None:
        self.interventions.append(kind)
        self.shared.bus.emit(InterventionApplied, self.agent_id, kind=kind, detail=detail)

    def request_stop(self, reason: str, *, delete: bool = False) -> None:
        """End the current run (the first reason given is kept)."""
        self.stop = (
            StopRequest(reason, delete) if self.stop is None else self.stop.also(delete=delete)
        )
        self.scope.cancel()
        if self._start_later is not None:  # given back paused: no run to stop, it ends here
            self._run_later()
            self.saved_calls = None
            self.set_status(AgentStatus.DELETED if delete else AgentStatus.CANCELLED, reason)
            if not delete:
                self.report_unused()
            self.gate.open()
            self.done.set()

    def stop_subtree(self, reason: str) -> None:
        """Stop this agent and every live descendant."""
        runs = self.shared.runs
        for member in self.shared.tree.subtree(self.agent_id):
            if member.status.is_live:
                runs[member.id].request_stop(reason)

    def mark_deleted(self) -> None:
        """Deleted by the person (as part of a deleted subtree): a live run ends as deleted."""
        node = self.node
        node.user_comment = UserComment.DELETE
        if node.status is AgentStatus.DELETED:
            return
        if node.status.is_live or not self.done.is_set():
            self.request_stop("deleted by the person", delete=True)
        else:
            self.set_status(AgentStatus.DELETED, "deleted by the person")

    def modify(self, instructions: str | None, content: str | None) -> None:
        node = self.node
        if not node.status.is_live:
            raise CommandRefusedError(
                f"{node.name} is {node.status}; only a live agent can be modified"
            )
        change = Modification(instructions, content)
        self._interventions_given += 1
        self.modification = change if self.modification is None else self.modification.then(change)
        if content is not None:
            node.user_content = content
            node.task = content  # what it works on now: the tree and a fold of events agree
            # A question about the old task waiting now would be answered for a task that is
            # gone: it is withdrawn (the agent wakes unanswered, then reads the new task and
            # asks again if the new one needs it).
            withdrawn = self.shared.queries.withdraw_questions(self.agent_id, TASK_CHANGED)
            self.withdrawn_questions.extend(query.prompt for query in withdrawn)
        node.user_comment = UserComment.MODIFY
        changed = " and ".join(
            part
            for part, value in (("instructions", instructions), ("task", content))
            if value is not None
        )
        self.shared.bus.emit(
            InterventionApplied,
            self.agent_id,
            kind="modify",
            detail=changed,
            instructions=instructions,
            content=content,
        )
        self.interventions.append("modify")
        self.settle(f"modified: new {changed}")

    def steer(self, text: str) -> None:
        self.node.user_comment = UserComment.COMMENT
        self.node.comment = text
        self.intervened("steer", text)
        self.queue_note(text, from_person=True)

    def queue_note(self, text: str, *, from_person: bool = False) -> None:
        note_id = self.shared.ids.next("n")
        self._interventions_given += 1
        self.notes.append(Note.of(note_id, text, from_person=from_person))
        self.shared.bus.emit(
            NoteQueued, self.agent_id, text=text, note_id=note_id, from_person=from_person
        )

    def modification_pending(self) -> bool:
        return self.modification is not None

    def interventions_given(self) -> int:
        return self._interventions_given

    def apply_interventions(self, conversation: Conversation) -> bool:
        """Fold the pending modification and notes into the conversation before a model call;
        True when there was any."""
        self._queue_owed_results()
        texts: list[str] = []
        modification, self.modification = self.modification, None
        modified = modification.parts if modification is not None else []
        if modification is not None:
            modification.apply_to(conversation)
            texts.append(MODIFIED_NOTE)
            withdrawn, self.withdrawn_questions = self.withdrawn_questions, []
            texts.extend(WITHDRAWN_NOTE.format(question=question) for question in withdrawn)
            self.settle("modification applied")
        notes, self.notes = self.notes, []
        texts.extend(note.text for note in notes)
        if texts:
            conversation.add_user_note("\n".join(texts))
            self.shared.bus.emit(
                NotesDelivered,
                self.agent_id,
                note_ids=[note.id for note in notes],
                modified=modified,
            )
        return bool(texts)

    def _queue_owed_results(self) -> None:
        """The results of the subagents a rewind kept that the agent had not had at the step
        it went back to (`owed`), each once it has ended, as one note: the words the six-step
        workflow hands results in. One the agent waits for again itself (join) is not owed."""
        tree = self.shared.tree
        ended = [child for child in self.owed if not tree.get(child).status.is_live]
        if not ended:
            return
        self.owed = [child for child in self.owed if child not in ended]
        outcomes = [self._outcome(child) for child in ended]
        results = [
            SubagentResult(o.name, o.status, o.describe())
            for o in outcomes
            if o.status != AgentStatus.DELETED.value  # its delete told the agent already
        ]
        if results:
            self.queue_note(results_note(results))

    def report_unused(self) -> None:
        """The run ended with a steer or modify the model never read: say so (a continued
        run still delivers it)."""
        modified = self.modification.parts if self.modification is not None else []
        if self.notes or modified:
            self.shared.bus.emit(
                InterventionsUnused,
                self.agent_id,
                note_ids=[note.id for note in self.notes],
                modified=modified,
            )

    # -- usage ---------------------------------------------------------------------------

    async def add_usage(self, usage: Usage) -> None:
        """Count a response's usage (emitted like any event: not while paused)."""
        await self.gate.checkpoint()
        self.count_usage_now(usage)

    def count_usage_now(self, usage: Usage) -> None:
        """Count usage at once, past the pause gate: for an attempt being cancelled, whose
        tokens were billed all the same."""
        node, shared = self.node, self.shared
        node.usage = node.usage + usage
        cost = shared.prices.cost(self.model, usage)
        if cost is not None:
            node.cost_usd = (node.cost_usd or 0.0) + cost
        self.budget.charge_usage(usage.total_tokens, cost)
        if usage.total_tokens:
            shared.bus.emit(
                UsageUpdated,
                self.agent_id,
                delta=usage,
                total=node.usage,
                cost_usd=cost,
                total_cost_usd=node.cost_usd,
            )

    # -- budgets -------------------------------------------------------------------------

    def set_budget(self, budget: Budget, source: str) -> None:
        """Give this agent's subtree `budget` (empty: none); the person's ("person") lifts a
        stop of it, and the agents it paused go on (to be stopped again at their next step
        while it is still spent)."""
        limit = None if budget.is_empty else budget
        self.node.budget = self.budget.limit = limit
        self.shared.bus.emit(BudgetSet, self.agent_id, budget=dict(budget.items()), source=source)
        if source == "person" and self.budget.stopped is not None:
            self._release_budget("budget raised by the person")

    def inherit_budget(self, parent: AgentRun, live_siblings: int) -> None:
        """Take this new child's share of its parent's budget (budget.share_for_child)."""
        share = share_for_child(parent.budget.limit, parent.budget.left(), live_siblings)
        if not share.is_empty:
            self.set_budget(share, "inherited")

    def continue_past_budget(self) -> None:
        """Let the subtree stopped by this agent's budget take one more step past it."""
        if self.budget.stopped is None:
            raise CommandRefusedError(f"{self.node.name} is not stopped by its budget")
        self.budget.allowance += 1
        self.shared.bus.emit(BudgetContinued, self.agent_id)
        self._release_budget("let go on once past its budget")

    def _release_budget(self, reason: str) -> None:
        account = self.budget
        paused, account.paused, account.stopped = account.paused, [], None
        for agent_id in paused:
            run = self.shared.runs.get(agent_id)
            if run is not None:
                run.resume_after_budget(reason)

    async def spend_gate(self, step: Step) -> None:
        """Before a model call or a tool call: wait while a budget up the chain is spent (the
        agent pauses, and the person raises it, lets it go on once, or cancels); then count
        the step."""
        while True:
            await self.gate.checkpoint()
            stop = self.budget.check(step)
            if stop is None:
                break
            self._stopped_by(stop)
        self.budget.charge_step(step)

    def _stopped_by(self, stop: BudgetStop) -> None:
        """Pause at a budget stop; the first agent to meet it says so (`budget:stop`), the
        others of the subtree join it at their own next step (a model call in flight is paid
        for whole: closing it would waste it)."""
        account = self.shared.runs[stop.owner].budget
        if account.stopped is None:
            account.stopped = stop
            account.paused = [self.agent_id]
            self.shared.bus.emit(
                BudgetReached,
                stop.owner,
                measure=stop.measure,
                limit=stop.limit,
                spent=stop.spent,
                over=stop.over,
                stopped_agent=self.agent_id,
                paused=[self.agent_id],
            )
        elif self.agent_id not in account.paused:
            account.paused.append(self.agent_id)
        self.pause(account.stopped.reason(), intervention=False)

    def _live_descendants(self) -> int:
        return sum(member.status.is_live for member in self.subtree()[1:])

    def fork_forecast(self) -> ForkForecast | None:
        """A fork's likely spend when it would go past what a budget up the chain has left."""
        runs, tree = self.shared.runs, self.shared.tree
        ended = [
            runs[child].budget.spent
            for child in self.node.children
            if not tree.get(child).status.is_live
        ]
        return forecast_fork(self.budget, ended)

    async def approve_fork(self, call: ToolCall) -> str | None:
        """Before the fork tool runs: when its forecast goes past what is left, ask the person
        (an approval of the call); None when it may go on, else why not (for the model).
        With approvals off (`--yes`) nobody is asked, so it is refused: a budget is the
        person's cap, which a blanket yes to tools does not lift."""
        reopened = self._take_reopened(lambda q: q.call_id == call.id)
        if reopened is not None:  # asked before the session ended: the same question waits
            await self._wait_for(reopened, reopened=True)
            if reopened.choice == "reject":
                return f"the person did not allow the fork: {reopened.reason or 'rejected'}"
            self._forks_allowed += 1
            return None
        forecast = self.fork_forecast()
        if forecast is None:
            return None
        approvals = self.shared.queries.approvals
        if approvals.approve_all:
            return (
                f"cannot fork: {forecast.describe()}; approvals are off, so nobody can allow "
                "it: finish the work yourself, or the person raises the budget"
            )
        if call.name not in approvals.always_allowed:
            await self.gate.checkpoint()
            query = self.shared.queries.new(
                self.agent_id,
                f"Fork past the budget? {forecast.describe()}.",
                "approval",
                tool=call.name,
                arguments=call.arguments,
                call_id=call.id,
            )
            await self._wait_for(query)
            if query.choice == "reject":
                return f"the person did not allow the fork: {query.reason or forecast.describe()}"
        self._forks_allowed += 1
        return None

    # -- the person's answers ------------------------------------------------------------

    async def ask_user(self, prompt: str, kind: str = "question") -> str | None:
        """Ask the person and wait; None when they decline."""
        await self.gate.checkpoint()
        reopened = self._take_reopened(
            lambda q: q.tool is None and (q.kind, q.prompt) == (kind, prompt)
        )
        query = reopened or self.shared.queries.new(self.agent_id, prompt, kind)
        await self._wait_for(query, reopened=reopened is not None)
        return query.answer

    async def approve(self, call: ToolCall) -> ApprovalDecision:
        """May this call of a tool marked `needs_approval` run? Asks the person unless
        approvals are off or they always allowed the tool; every answer is an event."""
        await self.gate.checkpoint()
        reopened = self._take_reopened(lambda q: q.call_id == call.id)
        if reopened is not None:  # asked before the session ended: the same question waits
            self.shared.queries.allow_by_policy(reopened)  # unless approvals are off now
            await self._wait_for(reopened, reopened=True)
            return ApprovalDecision(approved=reopened.choice != "reject", reason=reopened.reason)
        queries = self.shared.queries
        if queries.allowed_without_asking(self.agent_id, call.name, call.id):
            return ApprovalDecision(approved=True)
        # What the tool's own sandbox blocks, measured on a thread (the first time only).
        prompt = await approval_prompt_for(self.tools.get(call.name), call.name, call.arguments)
        query = queries.new(
            self.agent_id,
            prompt,
            "approval",
            tool=call.name,
            arguments=call.arguments,
            call_id=call.id,
        )
        await self._wait_for(query)
        return ApprovalDecision(approved=query.choice != "reject", reason=query.reason)

    async def _wait_for(self, query: Query, *, reopened: bool = False) -> None:
        """Raise `query` and wait, as `awaiting_user`, until it is resolved. A `reopened` one
        (reopen) is raised and counted already."""
        if not reopened:
            self._asking += 1
            self._activity_changed()
            self.shared.queries.raise_query(query)
        self.settle(f"waiting for the person ({query.kind})")
        try:
            await query.answered.wait()
        finally:
            self._asking -= 1
            self._activity_changed()
            stopped = not query.resolved
            self.shared.queries.withdraw(query)
            if not stopped and self.node.status.is_live:
                self.settle("answered" if query.answer is not None else "declined")

    # -- subagents -----------------------------------------------------------------------

    def use_profile(
        self,
        profile: AgentProfile,
        tools: ToolRegistry,
        model: str | None,
        to_come: ToolsToCome | None = None,
    ) -> None:
        """Run with `profile`: its tools (already picked from the runtime's; `to_come`: those
        a starting MCP server has yet to add, waited for as the run begins), its model (None:
        the runtime's) and, for a JSON profile, its contract."""
        self.profile = profile
        self.tools = tools
        self.tools_to_come = to_come
        if model is not None:
            self.model = model
        self.contract = profile.contract()

    def fork(self, prompt: str, *, name: str | None = None, profile: str | None = None) -> str:
        """Start a subagent on `prompt`, with the named agent profile if any; its handle.
        Refused past the depth and live-children limits and past a budget's children or its
        forecast (LimitExceededError), for an unknown profile (UnknownProfileError) and when
        this agent has ended."""
        node, tree, limits = self.node, self.shared.tree, self.shared.limits
        if not node.status.is_live:
            raise CommandRefusedError(f"{node.name} is {node.status}; it cannot fork")
        depth = tree.depth(self.agent_id) + 1
        if depth > limits.max_depth:
            raise LimitExceededError(
                "max_depth",
                f"cannot fork: a subagent of {node.name} would be at depth {depth}, "
                f"and the limit is {limits.max_depth}",
            )
        if (live := self.live_children) >= limits.max_live_children:
            raise LimitExceededError(
                "max_live_children",
                f"cannot fork: {node.name} already has {live} running subagents, the "
                f"limit; wait for one to finish first",
            )
        if (refused := self.budget.fork_refusal()) is not None:
            raise LimitExceededError("budget", refused)
        if self._forks_allowed:
            self._forks_allowed -= 1  # the person allowed it past its forecast
        elif (forecast := self.fork_forecast()) is not None:
            # Code (the python tool, the workflow) forks without waiting for an answer.
            raise LimitExceededError(
                "budget", f"cannot fork: {forecast.describe()}; finish the work yourself"
            )
        return self.shared.spawn(self.agent_id, prompt, name, profile)

    async def join(self, handle: str) -> SubagentOutcome:
        """Wait until `handle`, a subagent of this agent at any depth, has ended."""
        child = self.descendant(handle.strip())
        await self.shared.runs[child.id].until_ended()
        self.steps.child_handed(child.id)
        if child.id in self.owed:
            self.owed.remove(child.id)  # handed by this wait: not again as a note
        return self._outcome(child.id)

    def _outcome(self, child_id: str) -> SubagentOutcome:
        """How a subagent (at any depth) that ended ended."""
        child = self.shared.tree.get(child_id)
        run = self.shared.runs[child_id]
        error = child.error
        if child.status in (AgentStatus.CANCELLED, AgentStatus.DELETED) and run.stop is not None:
            error = error or run.stop.reason
        return SubagentOutcome(child.id, child.name, child.status.value, child.result, error)

    def descendant(self, handle: str) -> AgentNode:
        """The node of a subagent of this agent (at any depth); refused for any other id."""
        tree = self.shared.tree
        if handle in tree:
            node = tree.get(handle)
            while node.parent_id is not None:
                if node.parent_id == self.agent_id:
                    return tree.get(handle)
                node = tree.get(node.parent_id)
        raise CommandRefusedError(
            f"{handle!r} is not a subagent of {self.node.name}; "
            "wait takes a handle that fork returned"
        )

    def subtree(self) -> list[AgentNode]:
        """This agent and all its descendants, parents before children."""
        return self.shared.tree.subtree(self.agent_id)

    def stop_subagent(self, handle: str, reason: str) -> None:
        """End a live subagent and its subtree on this agent's behalf (not an intervention)."""
        self.shared.runs[self.descendant(handle).id].stop_subtree(reason)
