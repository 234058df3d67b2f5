"""The stall watch: a runtime service that says when a running agent has gone silent.

A RUNNING agent with no event for `after_s` seconds ([attention] stalled_after_s) gets one
`agent:stalled` event (`since`: its last event's time), which puts it in the inbox
(core/state/inbox.py) until its next event. The next silence as long is a new stall, said again.

What explains a silence, so it is no stall:
- the agent is not RUNNING: it waits on a question or an approval (awaiting_user), is paused
  (by the person or by a budget's stop), or has ended; those are rows of their own or nothing;
- it has a live child (pending, running, paused, awaiting the person): it waits on its
  subtree (`wait`, or a python tool waiting on forks), and each child is watched itself, so a
  silent subtree is reported where the silence is, once, not again at every ancestor;
- it has an open query (a question being raised while its status changes).

A tool call in flight is no explanation: a command that runs longer than `after_s` is what the
person wants to see (it may hang); the tool's own timeout ends it in its time.

The watch folds the runtime's events as they come into a RunState of its own (the one fold),
first told of the agents the runtime holds as it starts (a resumed session's, adopted: they
emit no agent:spawned, and one continued or rewound is watched as any other), and looks at each candidate's due time, and at least every CHECK_EVERY_S (so an explanation
that ends without an event of the agent's own, its last child ending, is noticed soon). Time
is the runtime's clock (the events' `ts`); the wait between looks is `sleep`, which tests
replace.

    runtime = Runtime(provider, services=[StallWatch(300).attach])
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

import anyio

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import AgentSpawned, AgentStalled, Event, StatusChanged
from agentui.core.state import RunState
from agentui.core.support.errors import AgentUIError

if TYPE_CHECKING:
    from agentui.core.bus import Subscription
    from agentui.core.runtime import Runtime
    from agentui.core.state.agent_state import AgentState

CHECK_EVERY_S = 30.0  # the longest time between two looks
Sleep = Callable[[float], Awaitable[object]]


class StallWatch:
    def __init__(self, after_s: float, *, sleep: Sleep = anyio.sleep) -> None:
        """`after_s`: the silence that makes a stall (> 0; 0 means no watch: do not attach)."""
        if after_s <= 0:
            raise ValueError("a stall watch needs a silence of more than 0 s")
        self.after_s = after_s
        self._sleep = sleep
        self.state = RunState(transcripts=False, streamed_text=False)
        # Per agent, the time of the last event its announced stall was about: said once.
        self._announced: dict[str, float] = {}
        self._runtime: Runtime | None = None
        self._events: Subscription | None = None

    def attach(self, runtime: Runtime) -> None:
        """Watch `runtime` (a service: `Runtime(services=[watch.attach])`)."""
        self._runtime = runtime
        # Subscribed now, so nothing between here and the first look is missed. Folded as
        # events come, not at each look: behind by more than the bound, deltas would merge
        # into their first piece's time and a busy agent would look silent sooner.
        self._events = runtime.subscribe()
        self._events.join_deltas = True  # that an agent spoke is all it reads of a delta
        self.state.apply_all(_held(runtime))
        runtime.run_service(self._fold, name="stall watch fold")
        runtime.run_service(self._look_out, name="stall watch")

    # -- the rule ------------------------------------------------------------------------

    def stalled(self, now: float) -> list[AgentState]:
        """The agents whose silence is a stall now, not said yet."""
        return [
            agent
            for agent in self.state.agents.values()
            if self._may_stall(agent)
            and now >= self._due(agent)
            and self._announced.get(agent.id) != agent.last_event_ts
        ]

    def next_look_in(self, now: float) -> float:
        """Seconds until the next look: the earliest candidate's due time, at most
        CHECK_EVERY_S away."""
        wait = min(CHECK_EVERY_S, self.after_s)
        for agent in self.state.agents.values():
            if self._may_stall(agent) and self._announced.get(agent.id) != agent.last_event_ts:
                wait = min(wait, self._due(agent) - now)
        return max(wait, 0.0)

    def _due(self, agent: AgentState) -> float:
        """When its silence becomes a stall: one sum, read by `stalled` and `next_look_in`
        alike (`now - last >= after_s` can be false in floats where `now >= last + after_s`
        is true: the watch would look again at once, for ever, on a clock that stands)."""
        return agent.last_event_ts + self.after_s

    def _may_stall(self, agent: AgentState) -> bool:
        if agent.status is not AgentStatus.RUNNING or agent.stalled_since is not None:
            return False
        if agent.open_queries:
            return False
        agents = self.state.agents
        return not any(child in agents and agents[child].status.is_live for child in agent.children)

    # -- the service ---------------------------------------------------------------------

    def look(self) -> list[AgentStalled]:
        """Say every stall due now (one event each), what came so far folded first."""
        assert self._runtime is not None and self._events is not None
        self.state.apply_all(self._events.drain())
        said = []
        for agent in self.stalled(self._runtime.clock.now()):
            self._announced[agent.id] = agent.last_event_ts
            try:
                said.append(
                    self._runtime.publish(
                        AgentStalled, agent.id, since=agent.last_event_ts, after_s=self.after_s
                    )
                )
            except AgentUIError:  # deleted meanwhile: nothing to say of it
                continue
        return said

    async def _fold(self) -> None:
        assert self._events is not None
        try:
            while batch := await self._events.next_batch():
                self.state.apply_all(batch)
        finally:
            self._events.close()

    async def _look_out(self) -> None:
        assert self._runtime is not None
        while True:  # until the runtime's shutdown cancels it
            self.look()
            await self._sleep(self.next_look_in(self._runtime.clock.now()))


def _held(runtime: Runtime) -> list[Event]:
    """What the watch's fold needs of the agents the runtime already holds (adopted from a
    saved session): each one spawned, with its status. Only the watch's own fold reads them:
    nothing is published. Their number, not the saved log's length, is what they cost."""
    events: list[Event] = []
    for node in runtime.nodes():
        ts = node.ended_at if node.ended_at is not None else node.created_at
        events.append(
            AgentSpawned(
                seq=0, ts=ts, agent_id=node.id, parent_id=node.parent_id, name=node.name,
                task=node.task, profile=node.profile, driver=node.driver,
            )
        )  # fmt: skip
        if node.status is not AgentStatus.PENDING:
            events.append(
                StatusChanged(
                    seq=0, ts=ts, agent_id=node.id, old=AgentStatus.PENDING.value,
                    new=node.status.value, reason="",
                )
            )  # fmt: skip
    return events
