"""attach_monologue: narrate every agent of a runtime, from its bus, onto its bus.

One service task reads a lossless subscription, turns each agent's events into actions for
that agent's MonologueService, and publishes what the narrator writes as `monologue` events
(`monologue:error` when it fails). The agents never wait for any of it: the bus never blocks a
publisher, and narrator calls run as tasks of their own.

    async with Runtime(provider) as runtime:
        monologue = attach_monologue(runtime, runtime.provider, MonologueConfig())
        runtime.start("...")
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Coroutine, Mapping
from typing import TYPE_CHECKING, Any

import anyio
from anyio.abc import TaskGroup

from agentui.core.agent.tree import AgentNode
from agentui.core.bus import Subscription
from agentui.core.monologue.action import Action, ActionKind
from agentui.core.monologue.config import MonologueConfig
from agentui.core.monologue.narrator import Narrator
from agentui.core.monologue.service import MonologueService
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import (
    Event,
    ExecutionCancelled,
    LLMResponded,
    MonologueFailed,
    MonologueGenerated,
    StatusChanged,
    ThinkingDelta,
    ToolCompleted,
    ToolFailed,
    ToolStarted,
    ToolTimedOut,
)
from agentui.core.protocol.narrative import NarrativeEntry
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import Provider
from agentui.core.support.errors import UnknownAgentError

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime

log = logging.getLogger("agentui.monologue")

AgentFilter = Callable[[AgentNode], bool]

# What a narrator is told of (see `_route`), and what it is not: the rest is the runtime's
# bookkeeping, the person's side, or the monologue's own output.
NARRATED = (
    ThinkingDelta, LLMResponded, ToolStarted, ToolCompleted, ToolFailed, ToolTimedOut,
    ExecutionCancelled, StatusChanged,
)  # fmt: skip
NOT_NARRATED = frozenset({
    "agent:spawned", "answer:validated", "approval:decided", "conversation:changed", "execution:complete",
    "execution:error", "execution:paused", "execution:resumed", "execution:start", "hook:error",
    "intervention:applied", "intervention:unused", "iteration:complete", "iteration:start",
    "llm:abandoned", "llm:error", "llm:request", "monologue", "monologue:error",
    "note:delivered", "note:queued", "query:answered", "query:declined", "query:raised",
    "text:delta", "thinking:redacted", "tool:detected", "usage:updated", "workflow:deciding",
    "tool:progress",  # a call's progress: its end is narrated
    "workflow:decision", "workflow:result", "workflow:step",
    # A directed scene's round bookkeeping: its director's and characters' own agents are
    # narrated like any agent.
    "scene:start", "round:start", "director:start", "director:complete", "character:start",
    "character:complete", "state:updated", "character:activated", "character:deactivated",
    "round:complete",
    # A budget's bookkeeping: its stop pauses the agent, which the person sees in the tree.
    "budget:set", "budget:stop", "budget:continue",
    # Silence noticed by the stall watch: nothing the agent did to narrate.
    "agent:stalled",
    # Time travel's bookkeeping: the transcript shows the rewind or the fork.
    "agent:rewound", "agent:forked",
    # The runtime's own, of no agent.
    "mcp:server", "run:resumed", "session:error",
})  # fmt: skip


def attach_monologue(
    runtime: Runtime,
    provider: Provider,
    config: MonologueConfig | None = None,
    *,
    enabled: AgentFilter | None = None,
) -> AttachedMonologue:
    """Narrate the agents of a running runtime (call it inside `async with runtime`).

    `provider` is the narrator's backend (often `runtime.provider`); it is asked for
    `config.resolved_model`. `enabled(node)` picks the agents to narrate (default: all). With
    `config.enabled` false nothing is attached, and the handle stays idle.
    """
    config = config if config is not None else MonologueConfig()
    attached = AttachedMonologue(
        runtime, Narrator(provider, config, clock=runtime.clock), config, enabled
    )
    if config.enabled:
        attached.start()
    return attached


class AttachedMonologue:
    """The handle attach_monologue returns: per-agent services, totals, and `wait_idle()`."""

    def __init__(
        self,
        runtime: Runtime,
        narrator: Narrator,
        config: MonologueConfig,
        enabled: AgentFilter | None,
    ) -> None:
        self.runtime = runtime
        self.narrator = narrator
        self.config = config
        self._enabled = enabled
        self._services: dict[str, MonologueService] = {}
        self._skipped: set[str] = set()
        self.unfolded: set[str] = set()  # event types met that are neither narrated nor passed over
        self._thinking: dict[str, tuple[float, list[str]]] = {}  # agent -> (ts, pieces)
        self._subscription: Subscription | None = None
        self._group: TaskGroup | None = None
        self._serving = False
        self._wakeup = anyio.Event()

    # -- reading -------------------------------------------------------------------------

    @property
    def services(self) -> Mapping[str, MonologueService]:
        return self._services

    def service(self, agent_id: str) -> MonologueService | None:
        return self._services.get(agent_id)

    @property
    def calls(self) -> int:
        return sum(s.calls for s in self._services.values())

    @property
    def narratives(self) -> int:
        return sum(s.narratives for s in self._services.values())

    @property
    def usage(self) -> Usage:
        """Every narrator token spent, waits and all; never part of any agent's usage."""
        total = Usage()
        for service in self._services.values():
            total = total + service.usage
        return total

    @property
    def idle(self) -> bool:
        """Every event so far is routed and no narrator call is in flight."""
        if not self._serving:
            return True
        pending = self._subscription is not None and len(self._subscription) > 0
        return not pending and not any(s.busy for s in self._services.values())

    async def wait_idle(self) -> None:
        """Return once idle: e.g. after an agent ended, when its closing narrative is out."""
        while not self.idle:
            await self._wakeup.wait()

    # -- running -------------------------------------------------------------------------

    def start(self) -> None:
        """Begin narrating (attach_monologue calls it; a disabled config never does)."""
        # Subscribe now, not when the service task first runs, so no event is missed.
        self._subscription = self.runtime.subscribe(maxsize=None)
        self._subscription.join_deltas = True  # it passes text over and merges thinking itself
        try:
            self.runtime.run_service(self._serve, name="monologue")
        except BaseException:
            self._subscription.close()
            raise
        self._serving = True

    async def _serve(self) -> None:
        assert self._subscription is not None
        subscription = self._subscription
        try:
            async with anyio.create_task_group() as group:
                self._group = group
                while batch := await subscription.next_batch():
                    for event in batch:
                        try:
                            self._route(event)
                        except Exception:  # a monologue bug must never take the runtime down
                            log.exception("monologue: could not route %s", event.type)
                    self._notify()
        finally:
            self._group = None
            self._serving = False
            subscription.close()
            self._notify()

    def _notify(self) -> None:
        self._wakeup.set()
        self._wakeup = anyio.Event()

    def _spawn(self, call: Callable[[], Coroutine[Any, Any, None]]) -> None:
        if self._group is None:  # shutting down: the call would be cancelled anyway
            return
        self._group.start_soon(call, name="monologue narrator call")

    # -- routing -------------------------------------------------------------------------

    def _route(self, event: Event) -> None:
        if event.type in NOT_NARRATED:
            return
        if not isinstance(event, NARRATED):
            self.unfolded.add(event.type)  # a type the router has not been taught
            return
        service = self._service_for(event)
        if service is None:
            return
        agent_id = event.agent_id
        match event:
            case ThinkingDelta(delta=delta):
                self._thinking.setdefault(agent_id, (event.ts, []))[1].append(delta)
            case LLMResponded(text=text):
                self._close_thinking(service)
                if text.strip():
                    service.add(Action(ActionKind.TEXT, event.ts, text))
            case ToolStarted(call=call):
                self._close_thinking(service)
                arguments = json.dumps(call.arguments, ensure_ascii=False, sort_keys=True)
                service.add(Action(ActionKind.TOOL_CALL, event.ts, arguments, call.name))
            case ToolCompleted(name=name, result=result):
                service.add(Action(ActionKind.TOOL_RESULT, event.ts, result, name))
            case ToolFailed(name=name, error=error):
                service.add(Action(ActionKind.TOOL_RESULT, event.ts, error, name, is_error=True))
            case ToolTimedOut(name=name, timeout_s=timeout_s):
                detail = f"timed out after {timeout_s:g} s"
                service.add(Action(ActionKind.TOOL_RESULT, event.ts, detail, name, is_error=True))
            case ExecutionCancelled(partial_text=partial) if partial.strip():
                self._close_thinking(service)
                service.add(Action(ActionKind.TEXT, event.ts, f"{partial} [interrupted]"))
            case StatusChanged(new=new):
                status = AgentStatus(new)
                if status is AgentStatus.AWAITING_USER:
                    service.natural_point()
                elif status.is_final:
                    self._close_thinking(service)
                    service.finish(status.value)

    def _close_thinking(self, service: MonologueService) -> None:
        """A thought arrives as many deltas; it is one action once something else happens."""
        opened = self._thinking.pop(service.agent_id, None)
        if opened is not None:
            ts, pieces = opened
            thought = "".join(pieces)
            if thought.strip():
                service.add(Action(ActionKind.THINKING, ts, thought))

    def _service_for(self, event: Event) -> MonologueService | None:
        agent_id = event.agent_id
        service = self._services.get(agent_id)
        if service is not None or agent_id in self._skipped:
            return service
        # Agents spawned before attaching are picked up at their first event.
        try:
            node = self.runtime.node(agent_id)
        except UnknownAgentError:
            return None
        # An agent agentui's own code runs (a scene, a round) makes no model call: its story
        # is its director's and characters', narrated as theirs.
        if node.driver is not None or (self._enabled is not None and not self._enabled(node)):
            self._skipped.add(agent_id)
            return None
        service = MonologueService(
            agent_id=agent_id,
            agent_name=node.name,
            narrator=self.narrator,
            config=self.config,
            spawn=self._spawn,
            on_entry=lambda entry, usage: self._publish_entry(agent_id, entry, usage),
            on_failure=lambda error: self._publish_failure(agent_id, error),
            on_settled=self._notify,
        )
        self._services[agent_id] = service
        return service

    def _publish_entry(self, agent_id: str, entry: NarrativeEntry, usage: Usage) -> None:
        self.runtime.publish(MonologueGenerated, agent_id, entry=entry, usage=usage)

    def _publish_failure(self, agent_id: str, error: str) -> None:
        self.runtime.publish(MonologueFailed, agent_id, error=error)
