"""The stall watch (core/attention/stall_watch.py): a running agent silent for `after_s` gets one
agent:stalled, unless something explains the silence. Time is a frozen clock moved by hand."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.attention.stall_watch import CHECK_EVERY_S, StallWatch
from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import plan_resume
from agentui.core.session.writer import SessionWriter
from agentui.core.state.inbox import inbox
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type
from .manual_sleep import ManualSleep
from .session_helpers import SAFETY_NET_S, recorded_runtime

pytestmark = pytest.mark.anyio

AFTER_S = 300.0
HANGS = Turn(text="working", hang_after_chunks=1)  # streams a word, then nothing


async def never(seconds: float) -> None:
    await anyio.sleep_forever()


def runtime_with(
    watch: StallWatch, script: Script, clock: FrozenClock, **options: object
) -> Runtime:
    return Runtime(
        ScriptedProvider(script),
        clock=clock,
        services=[watch.attach],
        **options,  # type: ignore[arg-type]
    )


async def test_a_silent_running_agent_is_said_stalled_once() -> None:
    clock = FrozenClock()
    sleep = ManualSleep(clock)
    watch = StallWatch(AFTER_S, sleep=sleep)
    async with runtime_with(watch, Script.for_all(HANGS), clock) as runtime:
        rec = Recorder(runtime)
        root = runtime.start("Work")
        await rec.wait_for(is_type("text:delta", root))
        last_word = rec.of("text:delta")[-1].ts
        slept = 0.0
        while slept < AFTER_S:  # it looks every CHECK_EVERY_S while nothing is due
            slept += await sleep.elapse()
        [stalled] = await rec.wait_for(is_type("agent:stalled", root))
        assert isinstance(stalled, ev.AgentStalled)
        assert (stalled.since, stalled.after_s) == (last_word, AFTER_S)
        assert stalled.ts - last_word == AFTER_S
        # Said once: more silence is the same stall.
        for _ in range(3):
            await sleep.elapse()
        await sleep.asleep()
        rec.sync()
        assert len(rec.of("agent:stalled")) == 1
        runtime.cancel(root)


async def test_the_watch_looks_when_the_first_silence_is_due() -> None:
    watch = StallWatch(AFTER_S, sleep=never)
    clock = FrozenClock()
    async with runtime_with(watch, Script.for_all(HANGS), clock) as runtime:
        rec = Recorder(runtime)
        root = runtime.start("Work")
        await rec.wait_for(is_type("text:delta", root))
        clock.advance(AFTER_S - 10)
        assert watch.look() == []
        assert watch.next_look_in(clock.now()) == 10  # not CHECK_EVERY_S: it is due before
        clock.advance(10)
        assert [e.agent_id for e in watch.look()] == [root]
        assert watch.next_look_in(clock.now()) == CHECK_EVERY_S
        runtime.cancel(root)


async def test_its_next_word_ends_the_stall_and_a_new_silence_is_a_new_one() -> None:
    watch = StallWatch(AFTER_S, sleep=never)
    clock = FrozenClock()
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})]),
        HANGS,
    )
    async with runtime_with(watch, script, clock, tools=ToolRegistry([ASK_USER])) as runtime:
        rec = Recorder(runtime)
        root = runtime.start("Work")
        [raised] = await rec.wait_for(is_type("query:raised", root))
        clock.advance(AFTER_S)
        assert watch.look() == []  # it waits on the person: no stall
        assert isinstance(raised, ev.QueryRaised)
        runtime.answer(raised.query_id, "that one")
        await rec.wait_for(is_type("text:delta", root))
        clock.advance(AFTER_S)
        [first] = watch.look()
        watch.look()  # its own event folded: it stands in the inbox
        assert [row.id for row in inbox(watch.state)] == [f"stalled:{root}"]
        runtime.steer(root, "still there?")  # an event of the agent's: the stall ends
        await rec.wait_for(is_type("note:queued", root))
        watch.look()
        assert inbox(watch.state) == []
        clock.advance(AFTER_S)
        [second] = watch.look()
        assert second.since > first.since
        runtime.cancel(root)


async def test_a_paused_agent_is_not_stalled() -> None:
    watch = StallWatch(AFTER_S, sleep=never)
    clock = FrozenClock()
    async with runtime_with(watch, Script.for_all(HANGS), clock) as runtime:
        rec = Recorder(runtime)
        root = runtime.start("Work")
        await rec.wait_for(is_type("text:delta", root))
        runtime.pause(root)
        await rec.wait_for(lambda e: e.type == "agent:status" and e.new == "paused")  # type: ignore[attr-defined]
        clock.advance(AFTER_S * 2)
        assert watch.look() == []
        runtime.cancel(root)


async def test_a_parent_waiting_on_a_silent_child_leaves_the_stall_to_the_child() -> None:
    watch = StallWatch(AFTER_S, sleep=never)
    clock = FrozenClock()
    script = Script(
        agents={
            "main": [
                Turn(tool_calls=[ScriptedToolCall(name="fork", arguments={"prompt": "Count"})]),
                Turn(tool_calls=[ScriptedToolCall(name="wait", arguments={"handle": "a2"})]),
            ],
            "main.1": [HANGS],
        }
    )
    async with runtime_with(watch, script, clock, tools=ToolRegistry([FORK, WAIT])) as runtime:
        rec = Recorder(runtime)
        root = runtime.start("Split")
        [child_word] = await rec.wait_for(lambda e: e.type == "text:delta" and e.agent_id != root)
        await rec.wait_for(lambda e: e.type == "tool:start" and e.agent_id == root, count=2)
        clock.advance(AFTER_S)
        assert [e.agent_id for e in watch.look()] == [child_word.agent_id]
        runtime.cancel(root)


def test_a_watch_needs_a_silence_longer_than_nothing() -> None:
    with pytest.raises(ValueError, match="more than 0"):
        StallWatch(0)


async def test_a_continued_agent_of_a_resumed_session_is_watched(tmp_path: Path) -> None:
    """A resumed session's agents are adopted (no agent:spawned): the watch is told of them as
    the runtime starts, so one continued and silent is said stalled."""
    first = recorded_runtime(tmp_path, Turn(text="Done."))
    async with first:
        root = first.start("work")
        with anyio.fail_after(SAFETY_NET_S):
            await first.wait(root)
    assert first.session.path is not None
    plan = plan_resume(read_session(first.session.path))
    clock = FrozenClock()
    sleep = ManualSleep(clock)
    watch = StallWatch(AFTER_S, sleep=sleep)
    resumed = RecordingRuntime(
        ScriptedProvider(Script.for_all(HANGS)),
        session=SessionWriter(plan.continued_session()),
        clock=clock,
        last_seq=plan.last_seq,
        ids=plan.id_source(),
        services=[watch.attach],
    )
    plan.adopt_into(resumed)
    async with resumed:
        rec = Recorder(resumed)
        resumed.send(root, "and once more")
        await rec.wait_for(is_type("text:delta", root))
        slept = 0.0
        while slept < AFTER_S:
            slept += await sleep.elapse()
        [stalled] = await rec.wait_for(is_type("agent:stalled", root))
        assert stalled.ts - rec.of("text:delta")[-1].ts == AFTER_S
        resumed.cancel(root)


def test_when_the_next_look_is_due_now_the_stall_is_said_now() -> None:
    """Due is one sum for both: `now - last >= after_s` is false here, in floats, while
    `now >= last + after_s` is true, and the watch looked again at once, for ever."""
    last = 261984.03134488701
    watch = StallWatch(AFTER_S, sleep=never)
    watch.state.apply_all([
        ev.AgentSpawned(seq=1, ts=last, agent_id="a1", parent_id=None, name="main", task="t"),
        ev.StatusChanged(seq=2, ts=last, agent_id="a1", old="pending", new="running", reason=""),
    ])  # fmt: skip
    now = last + AFTER_S
    assert now - last < AFTER_S, "the case the two forms disagree on"
    assert watch.next_look_in(now) == 0
    assert [agent.id for agent in watch.stalled(now)] == ["a1"]
