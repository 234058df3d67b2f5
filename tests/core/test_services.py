"""Services attached to a runtime: they see every agent's events and may publish their own."""

from __future__ import annotations

from collections.abc import AsyncIterator

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.bus import Subscription
from agentui.core.protocol.events import Event, MonologueFailed
from agentui.core.providers.scripted.script import Turn
from agentui.core.support.errors import AgentUIError, UnknownAgentError

from .helpers import scripted_runtime

pytestmark = pytest.mark.anyio


async def test_a_service_sees_agent_events_and_publishes_onto_the_bus() -> None:
    runtime = scripted_runtime(Turn(text="hello"))
    seen: list[Event] = []
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        watched = runtime.subscribe(maxsize=None)

        async def service() -> None:
            async for event in watched:
                seen.append(event)
                if event.type == "execution:complete":
                    runtime.publish(MonologueFailed, event.agent_id, error="narrator offline")

        runtime.run_service(service, name="watcher")
        agent = runtime.start("greet")
        await runtime.wait(agent)
        with anyio.fail_after(5):
            published = [e async for e in _until(events, "monologue:error")]
    assert published[-1].agent_id == agent
    assert "execution:complete" in [e.type for e in seen]


async def test_shutdown_waits_for_agents_then_stops_services() -> None:
    runtime = scripted_runtime(Turn(text="hold", hang_after_chunks=0))
    stopped = anyio.Event()
    statuses_at_stop: list[str] = []
    async with runtime:
        agent = runtime.start("hold")

        async def service() -> None:
            try:
                await anyio.sleep_forever()
            finally:
                statuses_at_stop.append(runtime.node(agent).status.value)
                stopped.set()

        runtime.run_service(service, name="idle")
    assert stopped.is_set()
    assert statuses_at_stop == ["cancelled"], "services stop only after every agent has ended"


async def test_publish_needs_a_known_agent_and_run_service_a_running_runtime() -> None:
    runtime = scripted_runtime(Turn(text="x"))
    with pytest.raises(AgentUIError):
        runtime.run_service(anyio.sleep_forever, name="too early")
    async with runtime:
        with pytest.raises(UnknownAgentError):
            runtime.publish(MonologueFailed, "a99", error="nope")


async def _until(subscription: Subscription, event_type: str) -> AsyncIterator[Event]:
    async for event in subscription:
        yield event
        if event.type == event_type:
            return


async def test_adopted_agents_keep_their_state_and_can_be_continued() -> None:
    first = scripted_runtime(Turn(text="first answer"), Turn(text="second answer"))
    async with first:
        told = first.subscribe(maxsize=None)
        root = first.start("task")
        await first.wait(root)
        child = first.start("sub", parent_id=root)
        await first.wait(child)
        saved = [first.node(root).model_copy(deep=True), first.node(child).model_copy(deep=True)]
        saved[1].status = S.RUNNING  # as if the session ended while it ran
        last = told.drain()[-1].seq

    again = scripted_runtime(Turn(text="continued"), last_seq=last)
    async with again:
        events = again.subscribe(maxsize=None)
        for node in saved:
            again.adopt(node)
        assert again.node(root).status is S.COMPLETED
        assert again.node(root).children == [child]
        assert again.node(child).status is S.CANCELLED, "a live agent comes back interrupted"
        assert len(again.node(root).conversation.messages) == 2
        new = again.start("another")
        assert new == "a3", "new ids never repeat adopted ones"
        again.send(child, "Continue.")
        node = await again.wait(child)
        assert node.status is S.COMPLETED
        first_event = events.drain()[0]
        assert first_event.seq == last + 1, "a resumed session continues its numbering"
