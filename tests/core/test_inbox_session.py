"""The inbox's rows are events in the session log: the log read again and folded (as replay,
export and a server's history do) lists the same rows as the live run did at that point: a
question, a budget's stop, a stalled agent, a steer to a paused agent. `--resume` gives every
one of them back, waiting, after the runtime's shutdown cancelled their agents in the log
(tests/core/test_inbox_resume.py acts on each)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.attention.stall_watch import StallWatch
from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.delta_merge import merge_deltas
from agentui.core.session.fold import fold_parts
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.state import RunState
from agentui.core.state.inbox import inbox
from agentui.core.support.clock import FrozenClock

from .helpers import Recorder, is_type
from .session_helpers import SAFETY_NET_S, echo_tool, recorded_runtime

pytestmark = pytest.mark.anyio

AFTER_S = 300.0


def echo(text: str) -> ScriptedToolCall:
    return ScriptedToolCall(name="echo", arguments={"text": text})


async def never(seconds: float) -> None:
    await anyio.sleep_forever()


async def test_a_session_folded_again_lists_the_same_rows(tmp_path: Path) -> None:
    asks = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})])
    script = Script(
        agents={
            "main": [asks],  # a question
            "main-2": [  # its second model call waits on its budget
                Turn(tool_calls=[echo("costly")], usage=Usage(output_tokens=500)),
                Turn(text="more"),
            ],
            "main-3": [Turn(text="thinking", hang_after_chunks=1)],  # goes silent
            "main-4": [Turn(text="working", hang_after_chunks=1)],  # paused with a steer
        }
    )
    clock = FrozenClock()
    watch = StallWatch(AFTER_S, sleep=never)
    runtime = recorded_runtime(
        tmp_path, script=script, tools=[echo_tool()], clock=clock, services=[watch.attach]
    )
    with anyio.fail_after(SAFETY_NET_S):
        async with runtime:
            rec = Recorder(runtime)
            asker = runtime.start("ask")
            spender = runtime.start("spend")
            silent = runtime.start("think")
            steered = runtime.start("work")
            runtime.set_budget(spender, {"tokens": 100})
            await rec.wait_for(is_type("query:raised", asker))
            await rec.wait_for(is_type("budget:stop", spender))
            await rec.wait_for(is_type("text:delta", silent))
            await rec.wait_for(is_type("text:delta", steered))
            runtime.pause(steered)
            runtime.steer(steered, "use metric")
            await rec.wait_for(lambda e: e.agent_id == steered and e.type == "note:queued")
            clock.advance(AFTER_S)
            assert [e.agent_id for e in watch.look()] == [silent]
            await rec.wait_for(is_type("agent:stalled", silent))
            live = RunState()
            live.apply_all(rec.events)
            rows = inbox(live)
            assert sorted(row.kind for row in rows) == ["budget", "question", "stalled", "steer"]
            until = rec.events[-1].seq
            path = runtime.session.path
            assert path is not None
    # The log up to that moment, read back and folded (replay from there shows this).
    log = read_session(path)
    events = [e for e in merge_deltas(log.events) if e.seq <= until]
    records = [r for r in log.conversations if r.seq <= until]
    assert inbox(fold_parts(events, records, transcripts=False)) == rows
    # Leaving the runtime cancelled every live agent, in the log too (the question declined,
    # the stop and the stall ended with their agents): `--resume` reads back what each waited
    # on and gives it back, the question raised again in the same words (since the quit: a
    # row's wait counts from the events it comes from).
    resumed = plan_resume(log, transcripts=False)
    again = inbox(resumed.state)
    assert sorted((r.kind, r.agent_id, r.text) for r in again) == sorted(
        (r.kind, r.agent_id, r.text) for r in rows
    )
