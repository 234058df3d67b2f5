"""The event log's oldest entries on disk (log_spill.py): they read back exactly as logged, an
SSE id sent before they left memory resumes exactly, memory stays bounded, a disk that refuses
keeps them in memory; and a client attaching from seq 0 to a real server whose log went to
disk folds the whole run."""

from __future__ import annotations

import logging
import tracemalloc
from functools import partial
from pathlib import Path

import anyio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.protocol.events import Event, IterationStarted, TextDelta
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.remote.event_log import EventLog
from agentui.core.remote.log_entry import Logged
from agentui.core.remote.log_spill import LogSpill
from agentui.core.remote.sse_batches import Outgoing, ResumePoint, feed
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.fork import FORK
from agentui.core.tools.registry import ToolRegistry

from .event_reader import FAIL_AFTER_S
from .event_steps import build, received_exactly_once, step_strategy
from .server_fixture import served_runtime

longer_steps = st.lists(step_strategy, min_size=1, max_size=120)


def as_read(entry: Logged) -> tuple[object, ...]:
    return (entry.seq, entry.type, entry.agent_id, entry.delta, entry.json)


def spaced(events: list[Event], gap: int) -> list[Event]:
    """The same events with seqs `gap` apart (a resumed session's log has gaps)."""
    return [event.model_copy(update={"seq": event.seq * gap}) for event in events]


@given(steps=longer_steps, keep=st.integers(0, 12), gap=st.integers(1, 3), data=st.data())
def test_a_spilled_log_reads_back_exactly_as_logged(
    steps: list[tuple[str, str, int]], keep: int, gap: int, data: st.DataObject
) -> None:
    events = spaced(build(steps), gap)
    plain = EventLog(events, keep_recent=None)
    log = EventLog(keep_recent=keep, memory_bytes=0)  # every compacted entry goes to disk
    position = 0
    while position < len(events):  # in batches, as the runtime publishes them: many blocks
        size = data.draw(st.integers(1, 10))
        log.extend(events[position : position + size])
        position += size
    if data.draw(st.booleans()):
        log.compact(len(log))  # everything goes, the last entries too
    try:
        assert len(log) == len(plain) and log.last_seq == plain.last_seq
        assert log.spilled > 0 or keep * 2 + 1 > len(events)
        start = data.draw(st.integers(0, len(log)))
        end = data.draw(st.integers(start, len(log)))
        for got, logged in zip(log.entries(start, end), plain.entries(start, end), strict=True):
            assert as_read(got) == as_read(logged)
        assert log.states(start, end) == plain.states(start, end)
        for seq in range(events[-1].seq + 2):
            assert log.position_after(seq) == plain.position_after(seq)
        for agent in "abc":
            assert log.spawn_position(agent) == plain.spawn_position(agent)
    finally:
        log.discard()


async def stream(log: EventLog, start: ResumePoint, behind_after: int) -> list[Outgoing]:
    with anyio.fail_after(FAIL_AFTER_S):
        batches = feed(log, start, behind_after=behind_after)
        return [message async for batch in batches for message in batch]


@given(steps=longer_steps, behind_after=st.sampled_from([1, 10**6]), data=st.data())
def test_an_id_sent_before_the_log_went_to_disk_resumes_exactly(
    steps: list[tuple[str, str, int]], behind_after: int, data: st.DataObject
) -> None:
    events = build(steps)

    async def check() -> None:
        log = EventLog(events, keep_recent=None, memory_bytes=0)  # all in memory for now
        log.close()
        try:
            first = await stream(log, ResumePoint(0), behind_after)
            cut = data.draw(st.integers(0, len(first)))
            delivered = first[:cut]
            log.compact(len(log))  # the client was away: everything went to disk
            assert log.spilled == len(log)
            start = ResumePoint.parse(delivered[-1].id) if delivered else ResumePoint(0)
            delivered += await stream(log, start, behind_after)
            received_exactly_once(delivered, events)
        finally:
            log.discard()

    anyio.run(check)


def long_run(count: int) -> list[Event]:
    """`count` events of 50 agents: iterations starting and short deltas, interleaved."""
    events: list[Event] = []
    for seq in range(1, count + 1):
        common = {"seq": seq, "ts": float(seq), "agent_id": f"a{seq % 50}", "iteration": 1}
        if seq % 4 == 0:
            events.append(IterationStarted(**common))
        else:
            events.append(TextDelta(**common, delta="abcde"))
    return events


def traced_size(make: object) -> tuple[int, EventLog]:
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        log = make()  # type: ignore[operator]
        return tracemalloc.get_traced_memory()[0] - before, log
    finally:
        tracemalloc.stop()


def test_memory_stays_bounded_whatever_the_log_holds() -> None:
    kept: dict[int, int] = {}
    bounded_sizes: dict[int, int] = {}
    for count in (5_000, 20_000):
        events = long_run(count)
        kept[count], unbounded = traced_size(
            partial(EventLog, events, keep_recent=512, memory_bytes=None)
        )
        bounded_sizes[count], bounded = traced_size(
            partial(EventLog, events, keep_recent=512, memory_bytes=256 << 10)
        )
        try:
            assert bounded.spilled > count - 1_000
            last = len(events) - 1
            assert [as_read(e) for e in bounded.entries(0, 3)] == [
                as_read(e) for e in unbounded.entries(0, 3)
            ]
            assert as_read(bounded.entries(last, last + 1)[0]) == as_read(
                unbounded.entries(last, last + 1)[0]
            )
        finally:
            bounded.discard()
    assert kept[20_000] > 3 * kept[5_000], "a log kept in memory grows with the run"
    # Four times the events, the same memory: what stays is the budget and the recent entries.
    assert bounded_sizes[20_000] < 1.25 * bounded_sizes[5_000], bounded_sizes
    assert bounded_sizes[20_000] < 1_000_000, bounded_sizes


def test_a_disk_that_refuses_keeps_the_log_in_memory(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    not_a_directory = tmp_path / "file"
    not_a_directory.write_text("")
    events = long_run(2_000)
    with caplog.at_level(logging.WARNING, logger="agentui.remote"):
        log = EventLog(events, keep_recent=8, memory_bytes=0, spill=LogSpill(not_a_directory))
    plain = EventLog(events, keep_recent=None)
    assert log.spilled == 0
    assert [as_read(e) for e in log.entries(0, len(log))] == [
        as_read(e) for e in plain.entries(0, len(plain))
    ]
    warnings = [r.getMessage() for r in caplog.records]
    assert len(warnings) == 1 and "cannot be written to disk" in warnings[0]


ROOTS = ["main", "main-2", "main-3", "main-4"]


def forking_runtime() -> Runtime:
    """Each root streams text, forks a subagent and answers; each subagent streams text."""
    fork = ScriptedToolCall(name="fork", arguments={"prompt": "look it up"})
    asks = Turn(text="Let me ask a helper. " * 6, tool_calls=[fork])
    answers = Turn(text="Here is what I found. " * 12)
    agents = {root: [asks, answers] for root in ROOTS}
    agents |= {f"{root}.1": [answers] for root in ROOTS}
    provider = ScriptedProvider(Script(agents=agents))
    return Runtime(provider, tools=ToolRegistry([FORK]), clock=FrozenClock())


@pytest.mark.anyio
async def test_a_client_attaching_from_seq_0_after_the_log_went_to_disk_folds_the_whole_run() -> (
    None
):
    runtime = forking_runtime()
    async with (
        served_runtime(runtime=runtime, keep_recent=16, memory_bytes=0) as server,
        server.client() as client,
    ):
        published = runtime.subscribe(maxsize=None)
        roots = [await client.start(f"task {n}") for n in range(len(ROOTS))]
        with anyio.fail_after(FAIL_AFTER_S):
            for root in roots:
                await runtime.wait(root)  # its subagent was spawned before it answered
            for agent_id in runtime.snapshot()["agents"]:
                await runtime.wait(agent_id)
        server.events.catch_up()
        truth = published.drain()
        assert server.events.spilled > len(server.events) // 2  # most of the run is on disk

        folded = RunState()
        last = server.events.last_seq
        with anyio.fail_after(FAIL_AFTER_S):
            async for event in client.events(0):
                folded.apply(event)
                if event.seq == last:
                    break
        expected = RunState()
        for event in truth:
            expected.apply(event)

        agents = runtime.snapshot()["agents"]
        assert len(agents) == 8 and set(folded.agents) == set(agents)
        for agent_id, live in agents.items():
            assert folded.agents[agent_id].snapshot() == live
            mine = [(item.kind, item.text) for item in folded.agents[agent_id].entries]
            theirs = [(item.kind, item.text) for item in expected.agents[agent_id].entries]
            assert mine == theirs
        assert folded.last_seq == last
