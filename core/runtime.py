"""Runtime: the one facade a front end drives. Owns the tree, the bus and the task group.

Commands are plain methods (`start`, `pause`, `resume`, `cancel`, `delete`, `modify`, `comment`,
`answer`, `approve`, `send`); their effect is immediate: once `pause(id)` returns, that agent
emits nothing until `resume(id)`. Everything that changes is reported as an event on the bus.

A root task runs the bare agentic loop ("plain", the default here) or the six-step
human-in-the-loop workflow ("six-step", which the app and `agentui run` choose); subagents run
the plain loop. Tools marked `needs_approval` run once the person allows them (`approve`),
unless `approve_all` is set.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

import anyio
import anyio.lowlevel
from anyio.abc import TaskGroup

from .approval import APPROVAL_CHOICES, ApprovalChoice, ApprovalPolicy, parse_answer
from .approval import prompt as approval_prompt
from .clock import Clock, SystemClock
from .control import AgentControl, PauseListener
from .conversation import Conversation, Message, user_text
from .errors import (
    AgentEndedError,
    AgentUIError,
    CommandRefusedError,
    DecisionError,
    LimitExceededError,
    ProviderError,
    ToolFailedError,
    UnknownQueryError,
)
from .events import (
    AgentSpawned,
    ApprovalDecided,
    ConversationChanged,
    E,
    Event,
    EventBus,
    ExecutionCancelled,
    ExecutionCompleted,
    ExecutionFailed,
    ExecutionPaused,
    ExecutionResumed,
    ExecutionStarted,
    InterventionApplied,
    InterventionKind,
    InterventionsUnused,
    ModifiedPart,
    NoteQueued,
    NotesDelivered,
    QueryAnswered,
    QueryDeclined,
    QueryRaised,
    StatusChanged,
    Subscription,
    UsageUpdated,
)
from .hooks import ApprovalDecision, HookManager
from .ids import IdSource
from .limits import Limits
from .loop import AgenticLoop
from .pricing import DEFAULT_PRICES, PriceTable
from .providers.base import Provider
from .subagent import SubagentOutcome
from .tools.ask_user import ASK_USER
from .tools.registry import ToolRegistry
from .tree import AgentNode, AgentStatus, AgentTree, UserComment
from .turn import ToolCall
from .usage import Usage
from .workflow.report import WorkflowReport
from .workflow.six_step import SixStepWorkflow

WorkflowName = Literal["plain", "six-step"]
WORKFLOWS: tuple[WorkflowName, ...] = ("plain", "six-step")

log = logging.getLogger("agentui.runtime")

DEFAULT_INSTRUCTIONS = (
    "You are an agent working inside agentui, where a person watches and steers a tree of "
    "agents. Work on the task you are given. Use your tools when they help. Ask the person "
    "only when you cannot go on without them. Finish with a clear, complete answer."
)


@dataclass(slots=True)
class Query:
    id: str
    agent_id: str
    prompt: str
    kind: str
    answered: anyio.Event
    answer: str | None = None
    resolved: bool = False
    # Approvals only: the call in question, and the person's choice and reason.
    tool: str | None = None
    arguments: dict[str, Any] | None = None
    call_id: str | None = None
    choice: ApprovalChoice | None = None
    reason: str = ""


class _AgentHost:
    """The loop's view of its agent: gated emission, interventions, usage."""

    def __init__(self, runtime: Runtime, control: AgentControl) -> None:
        self._runtime = runtime
        self._control = control
        self.agent_id = control.node.id
        self.agent_name = control.node.name
        self.services = runtime

    async def emit(self, cls: type[Event], **fields: Any) -> None:
        await self._control.checkpoint()
        self._runtime._bus.emit(cls, self.agent_id, **fields)

    async def checkpoint(self) -> None:
        await self._control.checkpoint()

    def request_pause(self, reason: str) -> None:
        self._runtime._pause_one(self._control, reason, intervention=False)

    def apply_interventions(self, conversation: Conversation) -> None:
        self._runtime._apply_interventions(self._control, conversation)

    def active_seconds(self) -> float:
        return self._control.active_seconds()

    async def approve(self, call: ToolCall) -> ApprovalDecision:
        return await self._runtime.ask_approval(
            self.agent_id, call.name, call.arguments, call_id=call.id
        )

    async def add_usage(self, usage: Usage) -> None:
        await self._control.checkpoint()
        self.count_usage_now(usage)

    def count_usage_now(self, usage: Usage) -> None:
        node = self._control.node
        node.usage = node.usage + usage
        cost = self._runtime.prices.cost(self._runtime.provider.model, usage)
        if cost is not None:
            node.cost_usd = (node.cost_usd or 0.0) + cost
        if usage.total_tokens:
            self._runtime._bus.emit(
                UsageUpdated,
                self.agent_id,
                delta=usage,
                total=node.usage,
                cost_usd=cost,
                total_cost_usd=node.cost_usd,
            )


class Runtime:
    """Run and steer a tree of agents. Use as `async with Runtime(provider) as runtime:`."""

    def __init__(
        self,
        provider: Provider,
        *,
        tools: ToolRegistry | None = None,
        hooks: HookManager | None = None,
        limits: Limits | None = None,
        instructions: str = DEFAULT_INSTRUCTIONS,
        streaming: bool = True,
        clock: Clock | None = None,
        ids: IdSource | None = None,
        last_seq: int = 0,
        prices: PriceTable | None = None,
        workflow: WorkflowName = "plain",
        approve_all: bool = False,
    ) -> None:
        """`workflow` is what a root task runs unless `start` says otherwise; `approve_all`
        lets tools marked `needs_approval` run without asking (the `--yes` flag)."""
        if workflow not in WORKFLOWS:
            raise AgentUIError(f"unknown workflow {workflow!r}; choose one of {WORKFLOWS}")
        self.provider = provider
        self.prices = prices if prices is not None else DEFAULT_PRICES
        self.tools = tools if tools is not None else ToolRegistry([ASK_USER])
        self.hooks = hooks if hooks is not None else HookManager()
        self.limits = limits if limits is not None else Limits()
        self.instructions = instructions
        self.streaming = streaming
        self.clock: Clock = clock if clock is not None else SystemClock()
        self._ids = ids if ids is not None else IdSource()
        self._bus = EventBus(self.clock, last_seq=last_seq)
        self._tree = AgentTree()
        self._roots = 0  # root agents so far (a count: listing the roots per start is quadratic)
        self._controls: dict[str, AgentControl] = {}
        self._queries: dict[str, Query] = {}
        self.workflow: WorkflowName = workflow
        self.approvals = ApprovalPolicy(approve_all=approve_all)
        self._next_workflow: dict[str, WorkflowName] = {}  # agent -> what its next run runs
        self._reports: dict[str, WorkflowReport] = {}
        self._task_group: TaskGroup | None = None
        self._service_scopes: list[anyio.CancelScope] = []
        self._closing = False

    # -- lifecycle -----------------------------------------------------------------------

    async def __aenter__(self) -> Runtime:
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        return await self.aclose(*exc_info)

    async def aclose(self, *exc_info: Any) -> bool | None:
        """Cancel every agent, then the services; return once no task of this runtime is left,
        and the provider is closed (once, also when the runtime ends by cancellation)."""
        if self._task_group is None:
            return None
        self._closing = True
        group, self._task_group = self._task_group, None
        try:
            for control in self._controls.values():
                if control.node.status.is_live:
                    control.stop_reason = control.stop_reason or "the runtime shut down"
                    control.scope.cancel()
            with anyio.CancelScope(shield=True):
                for control in list(self._controls.values()):
                    await control.done.wait()
            # Services saw every agent end; now their subscriptions end and they stop.
            self._bus.close()
            for scope in self._service_scopes:
                scope.cancel()
            return await group.__aexit__(*(exc_info or (None, None, None)))
        finally:
            self._bus.close()
            with anyio.CancelScope(shield=True):  # a cancelled exit still closes the client
                await self.provider.aclose()

    def run_service(self, service: Callable[[], Awaitable[None]], *, name: str) -> None:
        """Run a long-lived helper (narrator, session writer) in this runtime's task group.

        It is cancelled at shutdown after every agent has ended; final writes belong in a
        `finally` under a shielded CancelScope.
        """
        if self._task_group is None or self._closing:
            raise AgentUIError("the runtime is not running: use `async with Runtime(...)`")
        scope = anyio.CancelScope()
        self._service_scopes.append(scope)

        async def run() -> None:
            with scope:
                await service()

        self._task_group.start_soon(run, name=name)

    def publish(self, cls: type[E], agent_id: str, **fields: Any) -> E:
        """Put an event about an agent on the bus from a service (e.g. a monologue entry).

        Agents' own events go through their pause gates; a service's do not.
        """
        self._tree.get(agent_id)
        return self._bus.emit(cls, agent_id, **fields)

    # -- reading -------------------------------------------------------------------------

    def subscribe(self, maxsize: int | None = 4096) -> Subscription:
        """A new stream of every event from now on (see events.py for the full-stream policy)."""
        return self._bus.subscribe(maxsize)

    def tree(self) -> dict[str, Any]:
        """A JSON-ready snapshot of every agent, without message histories."""
        return self._tree.snapshot()

    def agent(self, agent_id: str) -> dict[str, Any]:
        """One agent with its full message history."""
        return self._tree.get(agent_id).with_history()

    def node(self, agent_id: str) -> AgentNode:
        return self._tree.get(agent_id)

    def subtree(self, agent_id: str) -> list[AgentNode]:
        """The agent and all its descendants, parents before children."""
        return self._tree.subtree(agent_id)

    def open_queries(self) -> list[Query]:
        return [q for q in self._queries.values() if not q.resolved]

    def workflow_report(self, agent_id: str) -> WorkflowReport | None:
        """The report of the agent's six-step workflow once it completed, else None."""
        self._tree.get(agent_id)
        return self._reports.get(agent_id)

    async def wait(self, agent_id: str) -> AgentNode:
        """Wait until the agent's current run has ended; return its node."""
        await self._control(agent_id).done.wait()
        return self._tree.get(agent_id)

    # -- commands ------------------------------------------------------------------------

    def start(
        self,
        task: str,
        *,
        name: str | None = None,
        parent_id: str | None = None,
        instructions: str | None = None,
        workflow: WorkflowName | None = None,
    ) -> str:
        """Create an agent for `task` and start it; returns its id.

        `workflow` defaults to the runtime's for a root and to "plain" for a subagent.
        """
        if self._task_group is None or self._closing:
            raise AgentUIError("the runtime is not running: use `async with Runtime(...)`")
        if workflow is None:
            workflow = self.workflow if parent_id is None else "plain"
        elif workflow not in WORKFLOWS:
            raise AgentUIError(f"unknown workflow {workflow!r}; choose one of {WORKFLOWS}")
        if parent_id is not None:
            parent = self._tree.get(parent_id)
            name = name or f"{parent.name}.{len(parent.children) + 1}"
        if parent_id is None:
            self._roots += 1
        agent_id = self._ids.next("a")
        node = AgentNode(
            id=agent_id,
            parent_id=parent_id,
            name=name or self._root_name(),
            task=task,
            created_at=self.clock.now(),
        )
        self._tree.add(node)
        control = AgentControl(node, self.clock)
        self._controls[agent_id] = control
        self._next_workflow[agent_id] = workflow
        self._bus.emit(AgentSpawned, agent_id, parent_id=parent_id, name=node.name, task=task)
        node.conversation.set_instructions(
            instructions if instructions is not None else self.instructions
        )
        node.conversation.append(user_text(task))
        self._publish_conversation(node, announce=True)
        self._task_group.start_soon(self._run_agent, control, task, name=f"agent {agent_id}")
        return agent_id

    def send(self, agent_id: str, text: str) -> None:
        """Continue an ended agent's conversation with a new message from the person."""
        control = self._control(agent_id)
        node = control.node
        if node.status not in (AgentStatus.COMPLETED, AgentStatus.ERROR, AgentStatus.CANCELLED):
            raise CommandRefusedError(
                f"{node.name} is {node.status}; only an ended agent can be continued"
            )
        if self._task_group is None or self._closing:
            raise AgentUIError("the runtime is not running")
        node.conversation.append(user_text(text))
        control.scope = anyio.CancelScope()
        control.done = anyio.Event()
        control.stop_reason = None
        self._task_group.start_soon(self._run_agent, control, text, name=f"agent {agent_id}")

    def _publish_conversation(self, node: AgentNode, *, announce: bool = False) -> None:
        """From now on every change of the agent's conversation is a `conversation:changed`;
        `announce`: the conversation as it stands is one too (a new agent's first)."""

        def publish(keep: int, append: list[Message], instructions: str | None) -> None:
            self._bus.emit(
                ConversationChanged, node.id, keep=keep, append=append, instructions=instructions
            )

        node.conversation.watch(publish)
        if announce:
            conversation = node.conversation
            publish(0, list(conversation.messages), conversation.instructions)

    def _root_name(self) -> str:
        """The nth root is main, main-2, main-3 (never main2 beside main's child main.2)."""
        return "main" if self._roots == 1 else f"main-{self._roots}"

    def adopt(self, node: AgentNode) -> None:
        """Take in an agent rebuilt from a saved session, with its conversation, without running it.

        Parents are adopted before their children. A node saved while still live comes back
        cancelled ("interrupted"): `send(id, text)` continues it from its saved conversation.
        Nothing is emitted: the saved events already tell its story.
        """
        if node.parent_id is not None and node.parent_id not in self._tree:
            raise AgentUIError(f"adopt {node.id}: its parent {node.parent_id} is not here yet")
        node = node.model_copy(update={"children": []})
        if node.parent_id is None:
            self._roots += 1
        if node.status.is_live:
            node.status = AgentStatus.CANCELLED
            node.error = node.error or "interrupted: the session ended while it ran"
        self._tree.add(node)
        self._ids.observe(node.id)
        self._publish_conversation(node)
        control = AgentControl(node, self.clock)
        control.done.set()
        self._controls[node.id] = control

    def pause(self, agent_id: str, *, subtree: bool = False) -> None:
        targets = self._tree.subtree(agent_id) if subtree else [self._tree.get(agent_id)]
        self._refuse_if_ended(targets[0], "pause")
        for node in targets:
            if node.status.is_live:
                self._pause_one(self._controls[node.id], "paused by the person", intervention=True)

    def resume(self, agent_id: str, *, subtree: bool = False) -> None:
        targets = self._tree.subtree(agent_id) if subtree else [self._tree.get(agent_id)]
        self._refuse_if_ended(targets[0], "resume")
        for node in targets:
            control = self._controls[node.id]
            if node.status.is_live and control.resume():
                self._bus.emit(ExecutionResumed, node.id)
                self._intervened(control, "resume")
                self._settle(control, "resumed by the person")

    def cancel(self, agent_id: str, reason: str = "cancelled by the person") -> None:
        """Cancel the agent and its live descendants; siblings are untouched."""
        node = self._tree.get(agent_id)
        self._refuse_if_ended(node, "cancel")
        self._intervened(self._controls[agent_id], "cancel", reason)
        self._stop_subtree(agent_id, reason)

    def delete(self, agent_id: str) -> None:
        """Stop the agent and its subtree, mark them deleted, and tell the parent."""
        node = self._tree.get(agent_id)
        if node.status is AgentStatus.DELETED:
            raise CommandRefusedError(f"{node.name} is already deleted")
        self._intervened(self._controls[agent_id], "delete")
        for member in self._tree.subtree(agent_id):
            control = self._controls[member.id]
            member.user_comment = UserComment.DELETE
            if member.status is AgentStatus.DELETED:
                continue
            if member.status.is_live or not control.done.is_set():
                control.delete_requested = True
                control.stop_reason = control.stop_reason or "deleted by the person"
                control.scope.cancel()
            else:
                self._set_status(member, AgentStatus.DELETED, "deleted by the person")
        if node.parent_id is not None:
            parent = self._controls[node.parent_id]
            if parent.node.status.is_live:
                self._queue_note(
                    parent,
                    f"The person deleted your subagent {node.name} ({node.id}); "
                    "do not wait for its result.",
                )

    def modify(
        self, agent_id: str, *, instructions: str | None = None, content: str | None = None
    ) -> None:
        """Replace the agent's instructions and/or task content from its next model call on."""
        if instructions is None and content is None:
            raise CommandRefusedError("modify needs new instructions, new content, or both")
        control = self._control(agent_id)
        node = control.node
        if not node.status.is_live:
            raise CommandRefusedError(
                f"{node.name} is {node.status}; only a live agent can be modified"
            )
        if instructions is not None:
            control.pending_instructions = instructions
        if content is not None:
            control.pending_content = content
            node.user_content = content
        node.user_comment = UserComment.MODIFY
        changed = " and ".join(
            part
            for part, value in (("instructions", instructions), ("task", content))
            if value is not None
        )
        self._bus.emit(
            InterventionApplied,
            node.id,
            kind="modify",
            detail=changed,
            instructions=instructions,
            content=content,
        )
        control.interventions.append("modify")
        self._settle(control, f"modified: new {changed}")

    def steer(self, agent_id: str, text: str) -> None:
        """Queue the person's message into the agent's next model call, without stopping it."""
        control = self._control(agent_id)
        node = control.node
        if not text.strip():
            raise CommandRefusedError("an empty message steers nothing")
        if not node.status.is_live:
            raise AgentEndedError(
                f"{node.name} is {node.status} and will make no further model call; "
                "continue it with the message instead"
            )
        node.user_comment = UserComment.COMMENT
        node.comment = text
        self._intervened(control, "steer", text)
        self._queue_note(control, text, from_person=True)

    def answer(self, query_id: str, text: str | None) -> None:
        """Answer an open query, or decline it with None.

        An approval takes "once", "always" or "reject" (and "yes", "no", "reject: reason", ...);
        None or any other text rejects it, the text being the reason (see approval.py).
        """
        query = self._open_query(query_id)
        if query.kind == "approval":
            choice, reason = parse_answer(text)
            self._decide(query, choice, reason)
            return
        query.resolved = True
        query.answer = text
        if text is None:
            self._bus.emit(
                QueryDeclined, query.agent_id, query_id=query_id, reason="declined by the person"
            )
        else:
            self._bus.emit(QueryAnswered, query.agent_id, query_id=query_id, answer=text)
        query.answered.set()

    def approve(self, query_id: str, decision: ApprovalChoice, reason: str | None = None) -> None:
        """Decide an open approval: allow the call "once", allow the tool "always" (for the
        rest of this runtime's life), or "reject" it; a rejection's reason goes to the model."""
        query = self._open_query(query_id)
        if query.kind != "approval":
            raise CommandRefusedError(
                f"query {query_id} is a {query.kind}, not an approval: answer it with answer()"
            )
        if decision not in APPROVAL_CHOICES:
            raise CommandRefusedError(
                f"unknown approval decision {decision!r}; choose one of {APPROVAL_CHOICES}"
            )
        self._decide(query, decision, (reason or "").strip())

    # -- services offered to tools -------------------------------------------------------

    async def ask_user(self, agent_id: str, prompt: str, kind: str = "question") -> str | None:
        control = self._control(agent_id)
        await control.checkpoint()
        query = Query(self._ids.next("q"), agent_id, prompt, kind, anyio.Event())
        await self._await_query(control, query)
        return query.answer

    async def ask_approval(
        self,
        agent_id: str,
        tool: str,
        arguments: dict[str, Any],
        *,
        call_id: str | None = None,
    ) -> ApprovalDecision:
        """May the agent's call of `tool` run? Asks the person unless approvals are off or
        they always allowed this tool; every answer is an `approval:decided` event."""
        control = self._control(agent_id)
        await control.checkpoint()
        standing = self.approvals.standing_decision(tool)
        if standing is not None:
            self._bus.emit(
                ApprovalDecided,
                agent_id,
                tool=tool,
                call_id=call_id,
                decision="always",
                source=standing,
            )
            return ApprovalDecision(approved=True)
        query = Query(
            self._ids.next("q"),
            agent_id,
            approval_prompt(tool, arguments),
            "approval",
            anyio.Event(),
            tool=tool,
            arguments=arguments,
            call_id=call_id,
        )
        await self._await_query(control, query)
        return ApprovalDecision(approved=query.choice != "reject", reason=query.reason)

    def fork(self, parent_id: str, prompt: str, *, name: str | None = None) -> str:
        """Start a subagent of `parent_id` on `prompt` (plain loop); returns its id, the handle.

        Refused with LimitExceededError past `limits.max_depth` or `limits.max_live_children`.
        """
        parent = self._tree.get(parent_id)
        if not parent.status.is_live:
            raise CommandRefusedError(f"{parent.name} is {parent.status}; it cannot fork")
        depth = self._tree.depth(parent_id) + 1
        if depth > self.limits.max_depth:
            raise LimitExceededError(
                "max_depth",
                f"cannot fork: a subagent of {parent.name} would be at depth {depth}, "
                f"and the limit is {self.limits.max_depth}",
            )
        live = [c for c in parent.children if self._tree.get(c).status.is_live]
        if len(live) >= self.limits.max_live_children:
            raise LimitExceededError(
                "max_live_children",
                f"cannot fork: {parent.name} already has {len(live)} running subagents, the "
                f"limit; wait for one to finish first",
            )
        return self.start(prompt, parent_id=parent_id, name=name, workflow="plain")

    async def join(self, caller_id: str, handle: str) -> SubagentOutcome:
        """Wait until `handle`, a subagent (at any depth) of `caller_id`, has ended."""
        handle = handle.strip()
        if handle not in self._tree or not self._is_descendant(handle, caller_id):
            raise CommandRefusedError(
                f"{handle!r} is not a subagent of {self._tree.get(caller_id).name}; "
                "wait takes a handle that fork returned"
            )
        node = await self.wait(handle)
        error = node.error
        if node.status in (AgentStatus.CANCELLED, AgentStatus.DELETED):
            error = error or self._controls[handle].stop_reason
        return SubagentOutcome(handle, node.name, node.status.value, node.result, error)

    def watch_pause(self, agent_id: str, listener: PauseListener) -> Callable[[], None]:
        """Call `listener(True)` when the agent pauses and `listener(False)` when it resumes
        (at once with True if it is paused now); returns a function that stops it."""
        return self._control(agent_id).watch_pause(listener)

    def stop_subagent(self, agent_id: str, reason: str) -> None:
        """End a live subagent and its subtree on its parent's behalf (not an intervention)."""
        self._stop_subtree(agent_id, reason)

    def _stop_subtree(self, agent_id: str, reason: str) -> None:
        """Cancel every live agent from `agent_id` down; the first reason given is kept."""
        for member in self._tree.subtree(agent_id):
            control = self._controls[member.id]
            if member.status.is_live:
                control.stop_reason = control.stop_reason or reason
                control.scope.cancel()

    # -- queries -------------------------------------------------------------------------

    def _open_query(self, query_id: str) -> Query:
        query = self._queries.get(query_id)
        if query is None or query.resolved:
            raise UnknownQueryError(query_id)
        return query

    def _decide(self, query: Query, choice: ApprovalChoice, reason: str) -> None:
        """Resolve an approval query with the person's choice; "always" also settles the
        other open approvals of the same tool."""
        assert query.tool is not None
        query.resolved = True
        query.choice, query.reason = choice, reason
        if choice == "reject":
            declined = f"rejected: {reason}" if reason else "rejected"
            self._bus.emit(QueryDeclined, query.agent_id, query_id=query.id, reason=declined)
        else:
            query.answer = "allowed once" if choice == "once" else "always allowed"
            self._bus.emit(QueryAnswered, query.agent_id, query_id=query.id, answer=query.answer)
        self._bus.emit(
            ApprovalDecided,
            query.agent_id,
            tool=query.tool,
            call_id=query.call_id,
            decision=choice,
            reason=reason,
            query_id=query.id,
        )
        query.answered.set()
        if choice != "always":
            return
        self.approvals.always_allowed.add(query.tool)
        for other in self.open_queries():
            if other.kind == "approval" and other.tool == query.tool:
                other.resolved = True
                other.choice, other.answer = "always", "always allowed (an earlier answer)"
                self._bus.emit(
                    QueryAnswered, other.agent_id, query_id=other.id, answer=other.answer
                )
                self._bus.emit(
                    ApprovalDecided,
                    other.agent_id,
                    tool=other.tool,
                    call_id=other.call_id,
                    decision="always",
                    query_id=other.id,
                    source="remembered",
                )
                other.answered.set()

    async def _await_query(self, control: AgentControl, query: Query) -> None:
        """Raise `query` and wait, as `awaiting_user`, until it is resolved."""
        agent_id = control.node.id
        kind = query.kind
        self._queries[query.id] = query
        control.open_queries.add(query.id)
        control.activity_changed()
        extra: dict[str, Any] = {}
        if kind == "approval":
            extra = {"tool": query.tool, "arguments": query.arguments, "choices": APPROVAL_CHOICES}
        self._bus.emit(
            QueryRaised, agent_id, query_id=query.id, prompt=query.prompt, kind=kind, **extra
        )
        self._settle(control, f"waiting for the person ({kind})")
        try:
            await query.answered.wait()
        finally:
            control.open_queries.discard(query.id)
            control.activity_changed()
            del self._queries[query.id]
            if not query.resolved:  # the agent was stopped while waiting
                query.resolved = True
                self._bus.emit(
                    QueryDeclined, agent_id, query_id=query.id, reason="the agent stopped"
                )
            elif control.node.status.is_live:
                self._settle(control, "answered" if query.answer is not None else "declined")

    # -- internals -----------------------------------------------------------------------

    def _control(self, agent_id: str) -> AgentControl:
        self._tree.get(agent_id)  # raises UnknownAgentError with a clear message
        return self._controls[agent_id]

    def _is_descendant(self, agent_id: str, ancestor_id: str) -> bool:
        node = self._tree.get(agent_id)
        while node.parent_id is not None:
            if node.parent_id == ancestor_id:
                return True
            node = self._tree.get(node.parent_id)
        return False

    def _intervened(self, control: AgentControl, kind: InterventionKind, detail: str = "") -> None:
        control.interventions.append(kind)
        self._bus.emit(InterventionApplied, control.node.id, kind=kind, detail=detail)

    def _refuse_if_ended(self, node: AgentNode, command: str) -> None:
        if not node.status.is_live:
            raise CommandRefusedError(f"cannot {command} {node.name}: it is {node.status}")

    def _set_status(self, node: AgentNode, new: AgentStatus, reason: str) -> None:
        old = self._tree.set_status(node.id, new)
        if new.is_final:
            node.ended_at = self.clock.now()
        self._bus.emit(StatusChanged, node.id, old=old.value, new=new.value, reason=reason)

    def _settle(self, control: AgentControl, reason: str) -> None:
        """Bring a live agent's status in line with its control state."""
        node = control.node
        if not node.status.is_live:
            return
        if control.paused:
            wanted = AgentStatus.PAUSED
        elif control.open_queries:
            wanted = AgentStatus.AWAITING_USER
        elif control.has_pending_modification:
            wanted = AgentStatus.MODIFIED
        elif control.started:
            wanted = AgentStatus.RUNNING
        else:
            wanted = AgentStatus.PENDING
        if wanted is not node.status:
            self._set_status(node, wanted, reason)

    def _pause_one(self, control: AgentControl, reason: str, *, intervention: bool) -> None:
        if control.pause():
            self._bus.emit(ExecutionPaused, control.node.id, reason=reason)
            if intervention:
                self._intervened(control, "pause")
            self._settle(control, reason)

    def _queue_note(self, control: AgentControl, text: str, *, from_person: bool = False) -> None:
        note_id = self._ids.next("n")
        # The model is told whose words a steer is; the event keeps them as typed.
        said = f"A message from the person: {text}" if from_person else text
        control.notes.append((note_id, said))
        self._bus.emit(
            NoteQueued, control.node.id, text=text, note_id=note_id, from_person=from_person
        )

    def _apply_interventions(self, control: AgentControl, conversation: Conversation) -> None:
        notes: list[str] = []
        modified = self._pending_parts(control)
        if modified:
            if control.pending_instructions is not None:
                conversation.set_instructions(control.pending_instructions)
            if control.pending_content is not None:
                conversation.replace_task(control.pending_content)
            notes.append(
                "The person modified your instructions or task. Continue under the new ones."
            )
            control.pending_instructions = control.pending_content = None
            self._settle(control, "modification applied")
        delivered = [note_id for note_id, _ in control.notes]
        notes.extend(text for _, text in control.notes)
        control.notes.clear()
        if notes:
            conversation.add_user_note("\n".join(notes))
            self._bus.emit(NotesDelivered, control.node.id, note_ids=delivered, modified=modified)

    @staticmethod
    def _pending_parts(control: AgentControl) -> list[ModifiedPart]:
        parts: list[ModifiedPart] = []
        if control.pending_instructions is not None:
            parts.append("instructions")
        if control.pending_content is not None:
            parts.append("task")
        return parts

    def _report_unused(self, control: AgentControl) -> None:
        """The run ended with a steer or modify the model never read: say so (a continued
        run still delivers it)."""
        modified = self._pending_parts(control)
        if control.notes or modified:
            self._bus.emit(
                InterventionsUnused,
                control.node.id,
                note_ids=[note_id for note_id, _ in control.notes],
                modified=modified,
            )

    async def _run_agent(self, control: AgentControl, task: str) -> None:
        node = control.node
        host = _AgentHost(self, control)
        loop = AgenticLoop(
            host,
            self.provider,
            self.tools,
            self.hooks,
            self.limits,
            node.conversation,
            streaming=self.streaming,
        )
        execution_id = self._ids.next("x")
        # A follow-up run (`send`) continues the conversation with the plain loop.
        workflow = self._next_workflow.pop(node.id, "plain")
        runner = SixStepWorkflow(self, host, loop, control) if workflow == "six-step" else None
        node.runs += 1
        node.result = node.error = None
        node.started_at = self.clock.now()
        node.ended_at = None
        try:
            with control.scope:
                # A cancel or delete that came before the task ran ends it here, before any
                # model call.
                await anyio.lowlevel.checkpoint()
                if node.status.is_final:  # a follow-up run of an ended agent
                    self._set_status(node, AgentStatus.RUNNING, "continued by the person")
                control.begin_run()
                self._settle(control, "started")
                await host.emit(
                    ExecutionStarted, execution_id=execution_id, task=task, run=node.runs
                )
                try:
                    result = await (runner.run(task) if runner is not None else loop.run(task))
                except DecisionError as exc:
                    await self._fail(host, node, execution_id, str(exc), "decision")
                except LimitExceededError as exc:
                    await self._fail(host, node, execution_id, str(exc), exc.limit)
                except ProviderError as exc:
                    await self._fail(host, node, execution_id, str(exc), "provider")
                except ToolFailedError as exc:
                    await self._fail(host, node, execution_id, str(exc), "tool")
                except Exception as exc:
                    log.exception("agent %s failed unexpectedly", node.id)
                    await self._fail(
                        host, node, execution_id, f"{type(exc).__name__}: {exc}", "internal"
                    )
                else:
                    node.result = result.text
                    if runner is not None and runner.report is not None:
                        self._reports[node.id] = runner.report
                    await host.emit(
                        ExecutionCompleted,
                        execution_id=execution_id,
                        result=result.text,
                        iterations=result.iterations,
                        duration_s=control.active_seconds(),
                        stop_reason=result.stop_reason,
                    )
                    self._set_status(node, AgentStatus.COMPLETED, "finished")
        finally:
            # Reached on our own cancel/delete and when the whole runtime is torn down from
            # outside (its task group cancelled): either way the agent ends with an event.
            if node.status.is_live:
                reason = control.stop_reason or "the runtime shut down"
                self._bus.emit(
                    ExecutionCancelled, node.id, reason=reason, partial_text=loop.partial_text
                )
                final = AgentStatus.DELETED if control.delete_requested else AgentStatus.CANCELLED
                self._set_status(node, final, reason)
            if node.status is not AgentStatus.DELETED:
                self._report_unused(control)
            if control.paused:
                control.resume()
            control.done.set()

    async def _fail(
        self, host: _AgentHost, node: AgentNode, execution_id: str, error: str, kind: str
    ) -> None:
        node.error = error
        await host.emit(ExecutionFailed, execution_id=execution_id, error=error, kind=kind)
        self._set_status(node, AgentStatus.ERROR, error)
