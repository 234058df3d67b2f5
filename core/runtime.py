"""Runtime: the one facade a front end drives. Owns the tree, the bus and the task group.

Commands are plain methods (`start`, `send`, `pause`, `resume`, `cancel`, `delete`, `modify`,
`steer`, `answer`, `approve`); their effect is immediate: once `pause(id)` returns, that agent
emits nothing until `resume(id)`. Everything that changes is reported as an event on the bus.
Each agent's life is its AgentRun (agent_run.py), which its loop, tools and workflow talk to;
one execution of it is `execute` (execution.py); queries live in the QueryBook (queries.py).
Which command applies to an agent as it is now is the one table, `allowed` (protocol/commands.py):
a command it leaves out is refused in its words (`refusal`), as the HTTP API and ACP refuse it.

A root task runs the bare agentic loop ("plain", the default here) or the six-step
human-in-the-loop workflow ("six-step", which the app and `agentui run` choose); subagents run
the plain loop. Tools marked `needs_approval` run once the person allows them (`approve`),
unless `approve_all` is set.

An agent may run with an agent profile (core/profiles), by name from the runtime's catalog or
given whole (a scene's own): its instructions, tools, model and, for a JSON profile, its answer
contract. Such an agent runs the plain loop; a JSON one's validated answer is `payload(id)`:

    agent_id = runtime.start(task, profile="critic")
    await runtime.wait(agent_id)
    verdict = runtime.payload(agent_id)   # None unless it completed (else: node(id).error)
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from contextlib import suppress
from dataclasses import replace
from functools import partial
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup

from agentui.core.agent.agent_run import AgentRun, Driver, RunContext
from agentui.core.agent.approval import ApprovalChoice, ApprovalPolicy
from agentui.core.agent.budget import Budget
from agentui.core.agent.budget_account import BudgetStop
from agentui.core.agent.hooks import HookManager
from agentui.core.agent.ids import IdSource
from agentui.core.agent.limits import Limits
from agentui.core.agent.pending_interventions import Modification, Note
from agentui.core.agent.queries import Query, QueryBook
from agentui.core.agent.reopening import Reopening
from agentui.core.agent.steps import (
    ForkOrigin,
    KeepsResults,
    Step,
    StepLog,
    rewound_reason,
)
from agentui.core.agent.tree import AgentNode, AgentTree, own_copy
from agentui.core.agent.workflow_trail import TakeUp
from agentui.core.bus import EventBus, Subscription
from agentui.core.execution import WORKFLOWS, WorkflowName, execute
from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.profiles.config import ProfilesConfig
from agentui.core.profiles.profile import AgentProfile
from agentui.core.profiles.prompt import profile_instructions
from agentui.core.protocol import commands
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import AgentView, Command, Mode, RuntimePort
from agentui.core.protocol.conversation import Message, user_text
from agentui.core.protocol.events import (
    RUNTIME_EVENT,
    SHUTDOWN_REASON,
    AgentForked,
    AgentRewound,
    AgentSpawned,
    E,
)
from agentui.core.protocol.subagent import SubagentOutcome
from agentui.core.protocol.workflow_report import WorkflowReport
from agentui.core.providers.base import Provider
from agentui.core.providers.model_aliases import model_on
from agentui.core.providers.scene_cue import SceneCue
from agentui.core.support.clock import Clock, SystemClock
from agentui.core.support.errors import AgentUIError, CommandRefusedError
from agentui.core.support.pricing import DEFAULT_PRICES, PriceTable
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.pending_source import PendingTools
from agentui.core.tools.pending_tools import ToolsToCome, named_tools
from agentui.core.tools.registry import ToolRegistry

__all__ = ["DEFAULT_INSTRUCTIONS", "WORKFLOWS", "Query", "Runtime", "WorkflowName"]

DEFAULT_INSTRUCTIONS = (
    "You are an agent working inside agentui, where a person watches and steers a tree of "
    "agents. Work on the task you are given. Use your tools when they help. Ask the person "
    "only when you cannot go on without them. Finish with a clear, complete answer."
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
        profiles: ProfileCatalog | None = None,
        profile_settings: ProfilesConfig | None = None,
        services: Sequence[Callable[[Runtime], None]] = (),
        budget: Budget | None = None,
    ) -> None:
        """Make a runtime; nothing runs until it is entered (`async with`).

        The settings are fixed for the runtime's life, except the provider (`set_provider`).

        Args:
            provider: The model backend root agents run on (closed at shutdown).
            tools: The tools agents may call; default: `ask_user` alone.
            hooks: Code the agentic loop calls at its hook points (core/agent/hooks.py).
            limits: Every agent's limits: iterations, tool calls, duration, depth, children.
            instructions: The instructions of an agent given none and no profile.
            streaming: Stream model answers as deltas (else each arrives whole).
            clock: The time events carry; default: the system's.
            ids: Where agent and query ids come from (a resumed session's continues its own).
            last_seq: The last event number already used (a resumed session's log goes on from it).
            prices: What a model's tokens cost, for the `usd` totals and budgets.
            workflow: What a root task runs unless `start` says otherwise: "plain" or "six-step".
            approve_all: Let tools marked `needs_approval` run without asking (the `--yes` flag).
            profiles: The agent profiles `start` and `fork` know by name; default: the built-ins.
            profile_settings: The `[profiles]` settings (contract retries and checks).
            services: Attached as the runtime starts running, each called with it (and calling
                `run_service`), so every front end that enters the runtime gets them (MCP servers).
            budget: Every root agent's budget (its subtree's: core/agent/budget.py), which
                `set_budget` changes per agent.

        Raises:
            AgentUIError: `workflow` is not one of WORKFLOWS.
        """
        if workflow not in WORKFLOWS:
            raise AgentUIError(f"unknown workflow {workflow!r}; choose one of {WORKFLOWS}")
        self.provider = provider  # new root agents' (see set_provider)
        self._providers = [provider]  # every one it was given, closed at shutdown
        self.prices = prices if prices is not None else DEFAULT_PRICES
        self.tools = tools if tools is not None else ToolRegistry([ASK_USER])
        self.hooks = hooks if hooks is not None else HookManager()
        self.limits = limits if limits is not None else Limits()
        self.instructions = instructions
        self.streaming = streaming
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.workflow: WorkflowName = workflow
        self.budget = budget if budget is not None else Budget()
        self.approvals = ApprovalPolicy(approve_all=approve_all)
        self.profiles = profiles if profiles is not None else ProfileCatalog(builtin_profiles())
        self._ids = ids if ids is not None else IdSource()
        self._bus = EventBus(self.clock, last_seq=last_seq)
        self._tree = AgentTree()
        self._runs: dict[str, AgentRun] = {}
        self._queries = QueryBook(self._bus, self._ids, self.approvals)
        self._shared = RunContext(
            bus=self._bus, tree=self._tree, runs=self._runs, queries=self._queries, ids=self._ids,
            clock=self.clock, provider=provider, tools=self.tools, hooks=self.hooks,
            limits=self.limits, prices=self.prices, streaming=streaming, spawn=self._start_subagent,
            profile_settings=profile_settings if profile_settings is not None else ProfilesConfig(),
        )  # fmt: skip
        self._roots = 0  # root agents so far (a count: listing the roots per start is quadratic)
        self._task_group: TaskGroup | None = None
        self._service_scopes: list[anyio.CancelScope] = []
        self._services = list(services)
        self._closing = False
        # Agents a resumed session gave back live (adopt), whose runs start with the runtime.
        self._to_reopen: list[AgentRun] = []
        # Sources of tools that join `tools` later (MCP servers): a profile may name theirs.
        self.pending_tools: list[PendingTools] = []

    # -- lifecycle -----------------------------------------------------------------------

    async def __aenter__(self) -> Runtime:
        """Start running: the services are attached and the agents a resumed session gave back
        live (`adopt`) start.

        Returns:
            The runtime, taking commands.
        """
        self._task_group = anyio.create_task_group()
        await self._task_group.__aenter__()
        try:
            for attach in self._services:
                attach(self)
        except BaseException:
            await self.aclose()
            raise
        to_reopen, self._to_reopen = self._to_reopen, []
        for run in to_reopen:
            self._start_reopened(run)
        return self

    async def __aexit__(self, *exc_info: Any) -> bool | None:
        """Shut down as `aclose` does.

        Args:
            *exc_info: The exception leaving the `async with` block, if any.

        Returns:
            Whether that exception is suppressed.
        """
        return await self.aclose(*exc_info)

    async def aclose(self, *exc_info: Any) -> bool | None:
        """Cancel every agent, then the services; return once no task of this runtime is left,
        and the provider is closed (once, also when the runtime ends by cancellation).

        Args:
            *exc_info: The exception the runtime ends with, if any (as `__aexit__` is given it).

        Returns:
            Whether that exception is suppressed; None when the runtime was not running.
        """
        if self._task_group is None:
            return None
        self._closing = True
        group, self._task_group = self._task_group, None
        try:
            for run in self._runs.values():
                if run.node.status.is_live:
                    run.request_stop(SHUTDOWN_REASON)
            with anyio.CancelScope(shield=True):
                for run in list(self._runs.values()):
                    await run.done.wait()
            # Services saw every agent end; now their subscriptions end and they stop.
            self._bus.close()
            for scope in self._service_scopes:
                scope.cancel()
            return await group.__aexit__(*(exc_info or (None, None, None)))
        finally:
            self._bus.close()
            with anyio.CancelScope(shield=True):  # a cancelled exit still closes the clients
                for provider in self._providers:
                    await provider.aclose()

    @property
    def closing(self) -> bool:
        """The runtime is shutting down: its agents are being stopped for that, not by anyone."""
        return self._closing

    def set_provider(self, provider: Provider) -> None:
        """Run root agents started from now on with `provider` (and its model).

        Agents that exist keep theirs, for their continued runs and the subagents they start; the
        runtime closes every provider it was given when it shuts down.

        Args:
            provider: The model backend for new root agents.
        """
        if provider is self.provider:
            return
        self.provider = provider
        if all(provider is not known for known in self._providers):
            self._providers.append(provider)
        self._shared = replace(self._shared, provider=provider)

    def run_service(self, service: Callable[[], Awaitable[None]], *, name: str) -> None:
        """Run a long-lived helper (narrator, session writer) in this runtime's task group.

        It is cancelled at shutdown after every agent has ended; final writes belong in a
        `finally` under a shielded CancelScope.

        Args:
            service: The helper, called once with no arguments.
            name: The task's name, as a traceback or a task dump shows it.

        Raises:
            AgentUIError: The runtime is not running.
        """
        group = self._running_group()
        scope = anyio.CancelScope()
        self._service_scopes.append(scope)

        async def run() -> None:
            with scope:
                await service()

        group.start_soon(run, name=name)

    def expect_tools(self, source: PendingTools) -> None:
        """Let agent profiles name tools that `source` adds to `tools` later.

        An agent started with one waits for them (pending_tools.py), and a call to one before it
        came waits for it.

        Args:
            source: What adds the tools (a service's, such as an MCP server's).
        """
        self.pending_tools.append(source)
        self.tools.later.append(source)  # and a call to one before it came waits for it

    def publish(self, cls: type[E], agent_id: str, **fields: Any) -> E:
        """Put an event about an agent on the bus from a service (e.g. a monologue entry).

        Agents' own events go through their pause gates; a service's do not.

        Args:
            cls: The event's class (core/protocol/events.py).
            agent_id: The agent it is about.
            **fields: The event's own fields.

        Returns:
            The event, numbered and timed as it went out.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        self._tree.get(agent_id)
        return self._bus.emit(cls, agent_id, **fields)

    def publish_runtime(self, cls: type[E], **fields: Any) -> E:
        """Put an event about the runtime itself, not one agent, on the bus from a service (an
        MCP server's state); its agent_id is `events.RUNTIME_EVENT`.

        Args:
            cls: The event's class (core/protocol/events.py).
            **fields: The event's own fields.

        Returns:
            The event, numbered and timed as it went out.
        """
        return self._bus.emit(cls, RUNTIME_EVENT, **fields)

    # -- reading -------------------------------------------------------------------------

    def subscribe(self, maxsize: int | None = 4096) -> Subscription:
        """A new stream of every event from now on.

        Args:
            maxsize: How many events may wait undrained (events.py says what a full stream
                does); None for no bound.

        Returns:
            The subscriber's stream; `close` it when done.
        """
        return self._bus.subscribe(maxsize)

    def snapshot(self) -> dict[str, Any]:
        """Every agent, without message histories.

        Returns:
            A JSON-ready dict of the tree (AgentTree.snapshot).
        """
        return self._tree.snapshot()

    def tree(self) -> dict[str, Any]:
        """The same as `snapshot()` (its older name).

        Returns:
            What `snapshot()` returns.
        """
        return self.snapshot()

    def agent(self, agent_id: str) -> dict[str, Any]:
        """One agent with its full message history.

        Args:
            agent_id: The agent.

        Returns:
            A JSON-ready dict of its node, its messages among them.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return self._tree.get(agent_id).with_history()

    def node(self, agent_id: str) -> AgentNode:
        """The agent's node in the tree: its status, name, usage, result, conversation.

        Args:
            agent_id: The agent.

        Returns:
            The live node (changed in place as the agent runs: read, do not change).

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return self._tree.get(agent_id)

    def nodes(self) -> list[AgentNode]:
        """Every agent, parents before children (the order they were started or adopted).

        Returns:
            Their nodes.
        """
        return self._tree.nodes()

    def subtree(self, agent_id: str) -> list[AgentNode]:
        """The agent and all its descendants, parents before children.

        Args:
            agent_id: The subtree's root.

        Returns:
            Their nodes, the agent's first.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return self._tree.subtree(agent_id)

    def open_queries(self) -> list[Query]:
        """The questions and approvals raised and not yet answered, declined or withdrawn.

        Returns:
            The open queries, in the order they were raised.
        """
        return self._queries.open_queries()

    def allowed(self, agent_id: str) -> frozenset[Command]:
        """The commands that apply to the agent now (commands.allowed, the one table).

        Args:
            agent_id: The agent.

        Returns:
            The commands a person may give it now.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return commands.allowed(self._view(self._tree.get(agent_id)), Mode.LOCAL)

    def check(self, agent_id: str, command: Command) -> None:
        """Refuse `command` in the words a person reads when it does not apply to the agent now.

        Args:
            agent_id: The agent.
            command: The command to check.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The table leaves `command` out for the agent now (`refusal`).
        """
        self._refuse_unless_allowed(self._tree.get(agent_id), command)

    def payload(self, agent_id: str) -> Any:
        """The validated JSON answer of the agent's latest run (a JSON profile's).

        Args:
            agent_id: The agent.

        Returns:
            The answer once the run completed; else None (`node(id).error` says why).

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return self._run(agent_id).payload

    def workflow_report(self, agent_id: str) -> WorkflowReport | None:
        """The report of the agent's six-step workflow.

        Args:
            agent_id: The agent.

        Returns:
            The report once the workflow completed; else None.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return self._run(agent_id).report

    async def wait(self, agent_id: str) -> AgentNode:
        """Wait until the agent's current run has ended (one stopped to be rewound: the run
        after it).

        Args:
            agent_id: The agent.

        Returns:
            Its node, as the run left it.

        Raises:
            UnknownAgentError: No agent has that id.
        """
        await self._run(agent_id).until_ended()
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
        profile: str | AgentProfile | None = None,
        driver: Driver | None = None,
        cue: SceneCue | None = None,
    ) -> str:
        """Create an agent for `task` and start it.

        Args:
            task: The agent's task: its first message.
            name: Its name; default: `main`, `main-2`, ... for a root, `PARENT.N` for a subagent.
            parent_id: The agent it is a subagent of; None starts a root.
            instructions: Its instructions; default: the runtime's (left out with a profile).
            workflow: "plain" or "six-step"; default: the runtime's for a root without a profile
                or driver, "plain" otherwise.
            profile: A name in `profiles` or a profile itself: the agent's instructions, tools,
                model, answer contract and budget.
            driver: Code that runs the agent instead of a model (a scene, a round of one:
                core/scene); such an agent has no profile.
            cue: The agent's place in a scene, declared on its model requests.

        Returns:
            The new agent's id.

        Raises:
            UnknownProfileError: No profile has that name.
            UnknownAgentError: No agent has the id `parent_id`.
            AgentUIError: The runtime is not running; both a profile and instructions, or a
                driver and a profile, were given; the workflow is unknown; or the profile names
                tools this runtime does not have.
        """
        group = self._running_group()
        chosen = self.profiles.get(profile) if isinstance(profile, str) else profile
        if chosen is not None and instructions is not None:
            raise AgentUIError("give an agent a profile or instructions, not both")
        if driver is not None and chosen is not None:
            raise AgentUIError("an agent run by a driver has no profile")
        # Refused first; tools a source has yet to add are waited for when the agent runs.
        tools, to_come = self._tools_for(chosen) if chosen is not None else (self.tools, None)
        if workflow is None:
            plain = parent_id is not None or chosen is not None or driver is not None
            workflow = "plain" if plain else self.workflow
        elif workflow not in WORKFLOWS:
            raise AgentUIError(f"unknown workflow {workflow!r}; choose one of {WORKFLOWS}")
        if parent_id is not None:
            parent = self._tree.get(parent_id)
            name = name or f"{parent.name}.{len(parent.children) + 1}"
        else:
            self._roots += 1  # the nth root is main, main-2 (never main2 beside main.2)
            name = name or ("main" if self._roots == 1 else f"main-{self._roots}")
        agent_id = self._ids.next("a")
        profile_name = chosen.name if chosen is not None else None
        node = AgentNode(
            id=agent_id,
            parent_id=parent_id,
            name=name,
            task=task,
            profile=profile_name,
            driver=driver.kind if driver is not None else None,
            created_at=self.clock.now(),
        )
        self._tree.add(node)
        # A subagent runs where its parent does, whatever root agents run on now.
        parent_run = self._runs[parent_id] if parent_id is not None else None
        shared = parent_run.shared if parent_run is not None else self._shared
        siblings = parent_run.live_children if parent_run is not None else 0
        run = self._runs[agent_id] = AgentRun(node, shared)
        if chosen is not None:
            run.use_profile(chosen, tools, self._model_for(chosen, run), to_come)
        run.driver, run.cue = driver, cue
        self._bus.emit(
            AgentSpawned,
            agent_id,
            parent_id=parent_id,
            name=name,
            task=task,
            profile=profile_name,
            driver=node.driver,
        )
        if parent_run is not None:
            parent_run.steps.child_started(agent_id)  # a rewind before now sets it aside
        self._give_starting_budget(run, chosen, parent_run, siblings)
        if chosen is not None:
            instructions = profile_instructions(chosen)
        node.conversation.set_instructions(
            instructions if instructions is not None else self.instructions
        )
        node.conversation.append(user_text(task))
        run.publish_conversation(announce=True)
        group.start_soon(execute, run, task, workflow, name=f"agent {agent_id}")
        return agent_id

    def send(self, agent_id: str, text: str) -> None:
        """Continue an ended agent's conversation with a new message from the person.

        Args:
            agent_id: The agent to continue.
            text: The person's message; the agent runs again on it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent has not ended, or agentui's own code runs it.
            AgentUIError: The runtime is not running.
        """
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.CONTINUE)
        group = self._running_group("the runtime is not running")
        run.continue_with(text)
        group.start_soon(execute, run, text, "plain", name=f"agent {agent_id}")

    def adopt(
        self,
        node: AgentNode,
        *,
        notes: Sequence[Note] = (),
        modification: Modification | None = None,
        reopening: Reopening | None = None,
    ) -> None:
        """Take in an agent rebuilt from a saved session, with its conversation.

        Parents are adopted before their children. A node saved while still live comes back
        cancelled ("interrupted"): `send(id, text)` continues it from its saved conversation,
        delivering the `notes` and `modification` its model had not read. With a `reopening` it
        goes on instead: its run starts from its saved conversation when the runtime runs, waiting
        on the question or approval it waited on, or held paused. Nothing is emitted here: the
        saved events (and a resume's closing ones) already tell its story.

        Args:
            node: The agent as the saved session's events fold it (copied, not kept).
            notes: Steers its model had not read yet.
            modification: A modify its model had not read yet.
            reopening: How a live node waiting on the person goes on (core/session/resume.py
                decides it); None ends it as interrupted.

        Raises:
            AgentUIError: Its parent has not been adopted yet.
        """
        if node.parent_id is not None and node.parent_id not in self._tree:
            raise AgentUIError(f"adopt {node.id}: its parent {node.parent_id} is not here yet")
        # A folded agent (a saved session's) counted its calls: its budget still holds them.
        calls = getattr(node, "model_calls", 0), getattr(node, "tool_calls", 0)
        node = own_copy(node)
        if node.parent_id is None:
            self._roots += 1
        if node.status.is_live and reopening is None:
            node.status = AgentStatus.CANCELLED
            node.error = node.error or "interrupted: the session ended while it ran"
        self._tree.add(node)
        self._ids.observe(node.id)
        run = self._runs[node.id] = AgentRun(node, self._shared)
        # What it spent counts against its budget and its ancestors' as before the resume.
        run.budget.charge_usage(node.usage.total_tokens, node.cost_usd)
        run.budget.charge_calls(*calls)
        if node.profile is not None and node.profile in self.profiles:
            # A continued run holds to the profile as it is now (a scene's own is not here).
            chosen = self.profiles.get(node.profile)
            with suppress(AgentUIError):
                tools, to_come = self._tools_for(chosen)
                run.use_profile(chosen, tools, self._model_for(chosen, run), to_come)
        run.notes, run.modification = list(notes), modification
        run.publish_conversation(announce=False)
        if reopening is None or not node.status.is_live:
            run.done.set()
            return
        run.reopen(reopening)
        if node.status is AgentStatus.PAUSED:
            # Its run starts when it is resumed: one waiting at the gate now would count a run
            # (execute's) that a cancel before the resume never starts.
            run.start_when_resumed(lambda: self._start_reopened(run))
        elif self._task_group is None:
            self._to_reopen.append(run)
        else:
            self._start_reopened(run)

    def hold_budget_stop(self, owner_id: str, stop: BudgetStop, paused: Sequence[str]) -> None:
        """Give an adopted agent's budget the stop that held its subtree when the session ended
        (core/session/resume.py).

        The `paused` agents go on when the person raises the budget or lets it go on once; a resume
        is refused meanwhile, as before the session ended.

        Args:
            owner_id: The agent whose budget stopped its subtree.
            stop: The stop, as the saved `budget:stop` said it.
            paused: The ids of the agents it paused, adopted paused.

        Raises:
            UnknownAgentError: No agent has the id `owner_id`.
        """
        account = self._run(owner_id).budget
        account.stopped, account.paused = stop, list(paused)

    def pause(self, agent_id: str, *, subtree: bool = False) -> None:
        """Hold the agent at its next pause gate: once this returns it emits nothing until
        `resume`.

        Args:
            agent_id: The agent to pause.
            subtree: Pause its live descendants too.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live.
        """
        for run in self._live_targets(agent_id, Command.PAUSE, subtree=subtree):
            run.pause("paused by the person")

    def resume(self, agent_id: str, *, subtree: bool = False) -> None:
        """Let a paused agent go on.

        Args:
            agent_id: The agent to resume.
            subtree: Resume its live descendants too.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live, or a budget stopped it (raise it with
                `set_budget` or go on once with `continue_past_budget`).
        """
        for run in self._live_targets(agent_id, Command.RESUME, subtree=subtree):
            run.resume()

    def cancel(self, agent_id: str, reason: str = "cancelled by the person") -> None:
        """Cancel the agent and its live descendants; siblings are untouched.

        Args:
            agent_id: The agent to cancel.
            reason: Why, as its events and its parent read it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live.
        """
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.CANCEL)
        run.intervened("cancel", reason)
        run.stop_subtree(reason)

    def delete(self, agent_id: str) -> None:
        """Stop the agent and its subtree, mark them deleted, and tell the parent.

        Args:
            agent_id: The agent to delete.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is already deleted.
        """
        run = self._run(agent_id)
        node = run.node
        self._refuse_unless_allowed(node, Command.DELETE)
        run.intervened("delete")
        for member in self._tree.subtree(agent_id):
            self._runs[member.id].mark_deleted()
        parent = self._runs.get(node.parent_id) if node.parent_id is not None else None
        if parent is not None and parent.node.status.is_live:
            parent.queue_note(
                f"The person deleted your subagent {node.name}; do not wait for its result."
            )

    def modify(
        self, agent_id: str, *, instructions: str | None = None, content: str | None = None
    ) -> None:
        """Replace the agent's instructions and/or task content from its next model call on.

        New content withdraws the questions the agent waits on (declined, "withdrawn: the person
        changed the task"): they were about the old task; its next call reads which.

        Args:
            agent_id: The agent to modify.
            instructions: Its new instructions; None keeps them.
            content: Its task's new content; None keeps it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: Neither is given, the agent is not live, or agentui's own code
                runs it.
        """
        if instructions is None and content is None:
            raise CommandRefusedError("modify needs new instructions, new content, or both")
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.MODIFY)
        run.modify(instructions, content)

    def steer(self, agent_id: str, text: str) -> None:
        """Queue the person's message into the agent's next model call, without stopping it.

        Args:
            agent_id: The agent to steer.
            text: The message; it may not be empty.

        Raises:
            UnknownAgentError: No agent has that id.
            AgentEndedError: The agent has ended: continue it with the words (`send`) instead.
            CommandRefusedError: The text is empty, or agentui's own code runs the agent.
        """
        run = self._run(agent_id)
        # An agent that ended refuses with AgentEndedError: continue it with the words instead.
        self._refuse_unless_allowed(run.node, Command.STEER)
        if not text.strip():
            raise CommandRefusedError("an empty message steers nothing")
        run.steer(text)

    def answer(self, query_id: str, text: str | None) -> None:
        """Answer an open query, or decline it with None.

        An approval takes "once", "always" or "reject" (and "yes", "no", "reject: reason", ...);
        None or any other text rejects it, the text being the reason (see approval.py).

        Args:
            query_id: The open query.
            text: The answer; None declines it.

        Raises:
            UnknownQueryError: No open query has that id.
        """
        self._queries.answer(query_id, text)

    def approve(self, query_id: str, decision: ApprovalChoice, reason: str | None = None) -> None:
        """Decide an open approval.

        Args:
            query_id: The open approval.
            decision: "once" allows the call, "always" the tool for the rest of this runtime's
                life, "reject" refuses the call.
            reason: Why a rejection; it goes to the model.

        Raises:
            UnknownQueryError: No open query has that id.
            CommandRefusedError: The query is not an approval, or the decision is unknown.
        """
        self._queries.approve(query_id, decision, reason)

    def set_budget(self, agent_id: str, limits: Mapping[str, float]) -> None:
        """Give the agent's subtree a budget (core/agent/budget.py).

        Raising a budget that stopped its subtree lets the agents it paused go on.

        Args:
            agent_id: The agent whose subtree the budget holds.
            limits: Measure -> limit: `{"tokens": 50000, "usd": 2}`; `{}` removes it.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: A limit is not valid (said in one sentence), or the agent is
                deleted.
        """
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.BUDGET)
        try:
            budget = limits if isinstance(limits, Budget) else Budget.from_limits(limits)
        except ValueError as exc:
            raise CommandRefusedError(str(exc)) from None
        run.set_budget(budget, "person")

    def continue_past_budget(self, agent_id: str) -> None:
        """Let the subtree the agent's budget stopped take one more step (a model or tool call)
        past it; it stops again at the next.

        Args:
            agent_id: The agent whose own budget stopped its subtree.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: The agent is not live, or its own budget did not stop it (an
                ancestor's may have: continue that one).
        """
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.PAST_BUDGET)
        run.continue_past_budget()

    # -- time travel (core/agent/steps.py) ---------------------------------------------------

    def steps(self, agent_id: str) -> list[Step]:
        """The agent's steps so far, in order (those a rewind set aside among them).

        Args:
            agent_id: The agent.

        Returns:
            A copy of its step list (core/agent/steps.py).

        Raises:
            UnknownAgentError: No agent has that id.
        """
        return list(self._run(agent_id).steps.steps)

    def recall_steps(self, agent_id: str, steps: StepLog) -> None:
        """Give an adopted agent (a resumed session's) its steps, so it can be rewound or forked
        from them.

        Args:
            agent_id: The adopted agent.
            steps: Its steps, folded from its saved events (`steps_in`).

        Raises:
            UnknownAgentError: No agent has that id.
        """
        run = self._run(agent_id)
        steps.agent_name = run.node.name
        run.steps = steps
        run.publish_conversation(announce=False)  # its changes from now on join them

    def rewind(self, agent_id: str, step: int) -> None:
        """Take the agent back to `step`, then let it wait for the person, paused.

        Its conversation becomes what it was right after the step; what came later is set aside
        (kept in the log), and the subagents it started after it are stopped and set aside. Resume
        continues it; a steer or a modify goes with it. A live agent's run is stopped first: it is
        rewound once that run has ended (an `agent:rewound` event says it), an ended one at once.

        Args:
            agent_id: The agent to rewind.
            step: The number of the step to go back to.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: No such step; a step an earlier rewind set aside (`fork_from`
                starts a new root from it instead); an agent already going back; one agentui's own
                code runs; or one whose result a round already took.
            AgentUIError: The runtime is not running.
        """
        run = self._run(agent_id)
        node = run.node
        self._refuse_unless_allowed(node, Command.REWIND)
        run.steps.rewind_target(step)  # refused in words: no such step, or one set aside
        if run.rewinding is not None:
            raise CommandRefusedError(f"{node.name} is already going back to step {run.rewinding}")
        keeper = self._runs[node.parent_id].driver if node.parent_id is not None else None
        if isinstance(keeper, KeepsResults) and (refusal := keeper.rewind_refused(node.id)):
            raise CommandRefusedError(refusal)  # its result is a round's line now
        group = self._running_group()
        # A six-step root goes on with its workflow, from a phase's start if not halfway.
        take_up = run.steps.workflow_take_up(step)
        step = take_up.step if take_up is not None else step
        set_aside = run.steps.started_after(step)
        for child_id in set_aside:
            self._runs[child_id].stop_subtree(rewound_reason(node.name, step))
        if node.status.is_live or not run.done.is_set():
            run.rewinding, run.rewound = step, anyio.Event()
            run.request_stop(f"rewound to step {step} by the person")
            group.start_soon(self._rewind_once_ended, run, step, set_aside, take_up)
        else:
            self._rewound(run, step, set_aside, take_up)

    def fork_from(self, agent_id: str, step: int, *, instructions: str | None = None) -> str:
        """Start a new root, `NAME~1` (then ~2, ...), from a copy of the agent's conversation at
        `step`, running beside it (an `agent:forked` event names its origin).

        The results of tool calls before the step are in the copy: they are reused, not run again.

        Args:
            agent_id: The agent to fork from.
            step: The number of the step whose conversation is copied.
            instructions: The new root's instructions; None keeps those the agent had at the step.

        Returns:
            The new root's id.

        Raises:
            UnknownAgentError: No agent has that id.
            CommandRefusedError: No such step, or agentui's own code runs the agent.
            AgentUIError: The runtime is not running.
        """
        run = self._run(agent_id)
        self._refuse_unless_allowed(run.node, Command.FORK)
        kept, messages = run.steps.conversation_at(step)
        origin = ForkOrigin(run.agent_id, run.node.name, step)
        return self.start_from(
            run.node.task, instructions or kept, messages, origin=origin, profile=run.profile
        )

    def start_from(
        self,
        task: str,
        instructions: str,
        messages: Sequence[Message],
        *,
        origin: ForkOrigin,
        profile: str | AgentProfile | None = None,
    ) -> str:
        """Start a root agent on a conversation that already holds `messages`, named after its
        origin.

        Args:
            task: The root's task, as its `agent:spawned` says it.
            instructions: Its instructions.
            messages: Its conversation so far (a fork's copy, from this run or a saved session).
            origin: The agent and step it was copied from (`agent:forked` names them).
            profile: The origin's profile (by name in `profiles`, or itself): the root has its
                tools, model, contract and budget, as `start` gives them.

        Returns:
            The new root's id.

        Raises:
            UnknownProfileError: No profile has that name.
            AgentUIError: The runtime is not running, or the profile names tools it does not have.
        """
        group = self._running_group()
        profile = self.profiles.get(profile) if isinstance(profile, str) else profile
        tools, to_come = self._tools_for(profile) if profile is not None else (self.tools, None)
        name = self._fork_name(origin.name)
        agent_id = self._ids.next("a")
        profile_name = profile.name if profile is not None else None
        node = AgentNode(
            id=agent_id, name=name, task=task, profile=profile_name, created_at=self.clock.now()
        )
        self._tree.add(node)
        self._roots += 1
        run = self._runs[agent_id] = AgentRun(node, self._shared)
        if profile is not None:
            run.use_profile(profile, tools, self._model_for(profile, run), to_come)
        self._bus.emit(AgentSpawned, agent_id, parent_id=None, name=name, task=task,
                       profile=profile_name)  # fmt: skip
        node.forked_from = self._bus.emit(
            AgentForked, agent_id, origin_id=origin.agent_id, origin_name=origin.name,
            step=origin.step, session=origin.session,
        )  # fmt: skip
        self._give_starting_budget(run, profile)
        node.conversation.apply_change(0, list(messages), instructions)
        run.publish_conversation(announce=True)
        group.start_soon(execute, run, task, "plain", name=f"agent {agent_id}")
        return agent_id

    def fork(
        self, parent_id: str, prompt: str, *, name: str | None = None, profile: str | None = None
    ) -> str:
        """Start a subagent of `parent_id` on `prompt` as the agent itself would (`fork` tool).

        Args:
            parent_id: The agent the subagent belongs to; it must be live.
            prompt: The subagent's task.
            name: Its name; default: `PARENT.N`.
            profile: An agent profile's name for it; None: the plain loop, the parent's tools.

        Returns:
            The subagent's id (the handle `join` takes).

        Raises:
            UnknownAgentError: No agent has the id `parent_id`.
            LimitExceededError: Past `limits.max_depth`, `limits.max_live_children`, or a budget's
                children or forecast.
            UnknownProfileError: No profile has that name.
            CommandRefusedError: The parent has ended.
        """
        return self._run(parent_id).fork(prompt, name=name, profile=profile)

    async def join(self, caller_id: str, handle: str) -> SubagentOutcome:
        """Wait until `handle`, a subagent (at any depth) of `caller_id`, has ended.

        Args:
            caller_id: The agent that waits.
            handle: The subagent's id, as `fork` returned it.

        Returns:
            How it ended: its status, result or error.

        Raises:
            UnknownAgentError: No agent has the id `caller_id`.
            CommandRefusedError: `handle` is not a subagent of the caller.
        """
        return await self._run(caller_id).join(handle)

    # -- internals -----------------------------------------------------------------------

    def _start_reopened(self, run: AgentRun) -> None:
        """Run an agent a resumed session gave back live, from its saved conversation: it
        waits at once on its reopened question, or at its pause gate; one that was in its
        six-step workflow goes on in it."""
        group = self._running_group()
        # The run it was in goes on, on that run's task: no message of the person (its
        # workflow hands the task as it stands on to the subagents it starts).
        task = run.resumed_task or run.node.task
        take_up, run.resumed_workflow = run.resumed_workflow, None
        workflow: WorkflowName = "six-step" if take_up is not None else "plain"
        group.start_soon(
            partial(execute, run, task, workflow, take_up, goes_on=True),
            name=f"agent {run.agent_id}",
        )

    def _start_subagent(
        self, parent_id: str, task: str, name: str | None, profile: str | None
    ) -> str:
        return self.start(task, parent_id=parent_id, name=name, workflow="plain", profile=profile)

    async def _rewind_once_ended(
        self, run: AgentRun, step: int, set_aside: list[str], take_up: TakeUp | None
    ) -> None:
        await run.done.wait()
        try:
            if not self._closing and run.node.status is not AgentStatus.DELETED:
                self._rewound(run, step, set_aside, take_up)
        finally:
            run.rewinding = None
            run.rewound.set()  # a parent waiting on it (join) waits for its next run now

    def _rewound(
        self, run: AgentRun, step: int, set_aside: list[str], take_up: TakeUp | None
    ) -> None:
        """The agent's run has ended: back to `step`, then paused, with a run ready to go on
        (a six-step root's with its workflow, where `take_up` says)."""
        node = run.node
        rewound = self._bus.emit(
            AgentRewound, node.id, step=step, step_seq=run.steps.step(step).seq,
            set_aside=set_aside,
        )  # fmt: skip
        run.steps.apply(rewound)
        for child_id in set_aside:
            self._tree.get(child_id).set_aside = True
        run.restore_conversation(*run.steps.conversation_at(step))
        # What was queued for the later conversation is set aside with it; the results of the
        # subagents it keeps that the step had not had are handed again (AgentRun.owed).
        run.notes, run.modification, run.withdrawn_questions = [], None, []
        run.owed = run.steps.owed_after(step, lambda child: self._tree.get(child).status.is_live)
        if take_up is not None:  # its workflow's summary waits for its own subagents itself
            run.owed = [child for child in run.owed if child not in take_up.subagents]
        run.prepare_next_run()
        reason = f"rewound to step {step}: waiting for the person"
        if take_up is not None:
            reason += f"; {take_up.notice}"
        run.pause(reason, intervention=False)
        if node.status is not AgentStatus.PAUSED:
            run.set_status(AgentStatus.PAUSED, reason)
        group = self._running_group()
        task = f"continued from step {step}"
        workflow: WorkflowName = "six-step" if take_up is not None else "plain"
        group.start_soon(execute, run, task, workflow, take_up, name=f"agent {node.id}")

    def _give_starting_budget(
        self,
        run: AgentRun,
        profile: AgentProfile | None,
        parent_run: AgentRun | None = None,
        siblings: int = 0,
    ) -> None:
        """A new agent's budget (`start`'s and a fork's alike): a subagent's share of what its
        parent has left, a root's the runtime's; then its profile's, never more than that
        (AgentProfile.budget_within)."""
        if parent_run is not None:
            run.inherit_budget(parent_run, siblings)
        elif not self.budget.is_empty:
            run.set_budget(self.budget, "start")
        if profile is not None and profile.budget is not None:
            limit = profile.budget_within(run.budget.limit)
            if limit is not None and limit != run.budget.limit:
                run.set_budget(limit, "start")

    def _fork_name(self, origin: str) -> str:
        taken = {root.name for root in self._tree.roots()}
        number = 1
        while f"{origin}~{number}" in taken:
            number += 1
        return f"{origin}~{number}"

    def _tools_for(self, profile: AgentProfile) -> tuple[ToolRegistry, ToolsToCome | None]:
        """The runtime's tools the profile names (all of them when it names none), and those
        of them a source has yet to add (an MCP server that is starting)."""
        if profile.tools is None:
            return self.tools, None
        needed_by = f"profile {profile.name!r} ({profile.origin.describe()})"
        tools, to_come, missing = named_tools(
            self.tools, profile.tools, self.pending_tools, needed_by
        )
        if missing:
            raise AgentUIError(
                f"profile {profile.name!r} ({profile.origin.describe()}) names tools this "
                f"runtime does not have: {', '.join(missing)}; it has: "
                f"{', '.join(self.tools.names()) or 'none'}"
            )
        return tools, to_come

    @staticmethod
    def _model_for(profile: AgentProfile, run: AgentRun) -> str | None:
        """The profile's model as the provider the agent runs on names it (its aliases)."""
        if profile.model is None:
            return None
        return model_on(run.shared.provider, profile.model)

    def _run(self, agent_id: str) -> AgentRun:
        self._tree.get(agent_id)  # raises UnknownAgentError with a clear message
        return self._runs[agent_id]

    def _running_group(self, refusal: str = "") -> TaskGroup:
        if self._task_group is None or self._closing:
            raise AgentUIError(
                refusal or "the runtime is not running: use `async with Runtime(...)`"
            )
        return self._task_group

    def _live_targets(self, agent_id: str, command: Command, *, subtree: bool) -> list[AgentRun]:
        """The agent (and with `subtree` its descendants) that are live; refused when the
        command does not apply to the agent itself."""
        targets = self._tree.subtree(agent_id) if subtree else [self._tree.get(agent_id)]
        self._refuse_unless_allowed(targets[0], command)
        return [self._runs[node.id] for node in targets if node.status.is_live]

    def _view(self, node: AgentNode) -> AgentView:
        asks = (query.kind for query in self._queries.open_queries() if query.agent_id == node.id)
        # The first budget up the chain that is stopped holds the agent too: its own, or an
        # ancestor's that paused it (or will, at its next step). The fold reads the same.
        account = next(
            (a for a in self._runs[node.id].budget.chain() if a.stopped is not None), None
        )
        if account is None:
            return AgentView.of(node, asks=asks)
        owner = None if account.agent_id == node.id else account.agent_name
        return AgentView.of(node, asks=asks, budget_stopped=True, budget_owner=owner)

    def _refuse_unless_allowed(self, node: AgentNode, command: Command) -> None:
        refused = commands.refusal(node.name, self._view(node), command, Mode.LOCAL)
        if refused is not None:
            raise refused


if TYPE_CHECKING:  # checked by mypy: a Runtime is what every front end drives

    def _drives_as_a_port(runtime: Runtime) -> RuntimePort:
        return runtime
