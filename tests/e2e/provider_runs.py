"""What the network providers' end-to-end tests share: one agent run on a provider pointed at
the stub server, with one tool, brief instructions, a frozen clock and the loop's retries
without waiting; one paused mid-stream and resumed; and reading their events."""

from __future__ import annotations

import json
from typing import Any

import anyio

from agentui.core.agent.limits import Limits
from agentui.core.agent.tree import AgentNode, AgentStatus
from agentui.core.protocol.events import Event
from agentui.core.providers.base import Provider
from agentui.core.runtime import Runtime
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import tool

from .stub_server import StubServer

TASK = "What is the port?"
INSTRUCTIONS = "Be brief."
SAFETY_S = 10  # a safety net against a hang, never a measurement


@tool
async def lookup(query: str) -> str:
    """Look a setting up."""
    return f"{query} = 8080"


def make_runtime(provider: Provider, **limits: Any) -> Runtime:
    return Runtime(
        provider,
        tools=ToolRegistry([lookup]),
        limits=Limits(retry_backoff_s=0, **limits),
        instructions=INSTRUCTIONS,
        clock=FrozenClock(),
    )


async def run(provider: Provider, task: str = TASK, **limits: Any) -> tuple[list[Event], AgentNode]:
    """Run one agent to its end; its events and its node."""
    async with make_runtime(provider, **limits) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start(task)
        with anyio.fail_after(SAFETY_S):
            node = await runtime.wait(agent_id)
    return events.drain(), node


def of_type(events: list[Event], kind: str) -> list[Any]:
    return [e for e in events if e.type == kind]


def deltas(events: list[Event], kind: str = "text:delta") -> list[str]:
    return [e.delta for e in of_type(events, kind)]


async def pause_mid_stream(
    provider: Provider, stub: StubServer, *, steer: str | None = None
) -> tuple[list[Event], AgentNode, Any]:
    """Pause at the first text piece (the stream then goes silent), wait until the stub saw the
    client go away, `steer` the paused agent if given, resume; the events, the node and its
    conversation."""
    async with make_runtime(provider, llm_retries=0) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start(TASK)
        seen: list[Event] = []
        with anyio.fail_after(SAFETY_S):
            async for event in events:
                seen.append(event)
                if event.type == "text:delta":
                    break
            runtime.pause(agent_id)
            await stub.wait_for_disconnect()  # closed though the stream sends nothing more
            assert len(stub.requests) == 1, "nothing is asked while paused"
            while_paused = events.drain()
            assert [e.type for e in while_paused] == [
                "execution:paused",
                "intervention:applied",
                "agent:status",
            ], "the agent itself says nothing while paused"
            seen += while_paused
            if steer is not None:
                runtime.steer(agent_id, steer)
            runtime.resume(agent_id)
            node = await runtime.wait(agent_id)
        history = runtime.agent(agent_id)["conversation"]["messages"]
    return seen + events.drain(), node, history


STEER = "Cover costs too."


async def steer_while_paused_is_sent_again(provider: Provider, stub: StubServer) -> None:
    """A steer given while paused mid-stream is in the request sent again on resume, and only
    there; the answer is the whole one and the steer is said delivered (`stub` streams slowly
    first, then whole: slow_then_whole)."""
    events, node, _ = await pause_mid_stream(provider, stub, steer=STEER)
    first, second = stub.requests
    assert STEER not in json.dumps(first.json())
    assert f"A message from the person: {STEER}" in json.dumps(second.json())
    assert node.status is AgentStatus.COMPLETED
    assert node.result == "A whole answer."
    assert len(of_type(events, "note:delivered")) == 1
    assert not of_type(events, "intervention:unused")


async def stop_mid_stream(
    provider: Provider, stub: StubServer, command: str
) -> tuple[list[Event], AgentNode]:
    """Cancel or delete (`command`) the agent at its first text piece (the stream then goes
    silent), wait until the stub saw the client go away; the events after the first piece and
    the node."""
    async with make_runtime(provider) as runtime:
        events = runtime.subscribe(maxsize=None)
        agent_id = runtime.start(TASK)
        with anyio.fail_after(SAFETY_S):
            async for event in events:
                if event.type == "text:delta":
                    break
            getattr(runtime, command)(agent_id)
            await stub.wait_for_disconnect()
            node = await runtime.wait(agent_id)
    return events.drain(), node
