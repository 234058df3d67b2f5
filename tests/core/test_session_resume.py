"""Resume: a saved session back in a runtime; what was running comes back interrupted,
continuable; what waited on the person waits again (tests/core/test_inbox_resume.py)."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.conversation import ToolResultBlock
from agentui.core.protocol.events import ApprovalDecided
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.errors import SessionError
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import NOT_RUN, open_for_resume, plan_resume
from agentui.core.state import INTERRUPTED, RunState

from .session_helpers import (
    SAFETY_NET_S,
    echo_tool,
    gate_tool,
    next_event,
    recorded_runtime,
    resumed_runtime,
    session_being_written,
)

pytestmark = pytest.mark.anyio


async def _crash_image(runtime: RecordingRuntime, until_seq: int, tmp_path: Path) -> Path:
    """Copy the session file as a crash right after `until_seq` was flushed would leave it."""
    with anyio.fail_after(SAFETY_NET_S):
        await runtime.session.wait_written(until_seq)
    assert runtime.session.path is not None
    crashed = tmp_path / "crashed" / runtime.session.path.name
    crashed.parent.mkdir(exist_ok=True)
    crashed.write_bytes(runtime.session.path.read_bytes())
    return crashed


async def test_an_agent_cut_off_mid_stream_comes_back_interrupted(tmp_path: Path) -> None:
    runtime = recorded_runtime(
        tmp_path, Turn(text="Here is my half-written answ", hang_after_chunks=3)
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Write the answer")
        deltas = [await next_event(events, "text:delta", root) for _ in range(3)]
        crashed = await _crash_image(runtime, deltas[-1].seq, tmp_path)
        runtime.cancel(root)
    streamed = "".join(d.delta for d in deltas)  # type: ignore[attr-defined]

    plan = plan_resume(read_session(crashed))

    assert plan.interrupted == [root]
    node = plan.state.agents[root]
    assert (node.status, node.error) == (S.CANCELLED, INTERRUPTED)
    kinds = [e.type for e in plan.closing]
    assert kinds == ["execution:cancelled", "conversation:changed", "agent:status", "run:resumed"]
    assert plan.closing[0].partial_text == streamed  # type: ignore[attr-defined]
    seqs = [e.seq for e in plan.history]
    assert seqs == sorted(set(seqs)) and seqs[-1] == plan.last_seq
    last = node.conversation.messages[-1]
    assert (last.role, last.text, last.interrupted) == ("assistant", streamed, True)


async def test_tools_running_at_the_crash_get_their_results_or_not_run(tmp_path: Path) -> None:
    release = anyio.Event()
    script = Script.for_all(
        Turn(
            text="Two tools.",
            tool_calls=[
                ScriptedToolCall(name="echo", arguments={"text": "one"}),
                ScriptedToolCall(name="gate"),
            ],
        ),
        Turn(text="unused"),
    )
    runtime = recorded_runtime(tmp_path, script=script, tools=[echo_tool(), gate_tool(release)])
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Use both tools")
        gate = await next_event(events, "tool:start", root)
        gate = await next_event(events, "tool:start", root)  # the second: the gate
        crashed = await _crash_image(runtime, gate.seq, tmp_path)
        runtime.cancel(root)

    plan = plan_resume(read_session(crashed))

    results = plan.state.agents[root].conversation.messages[-1].tool_results
    by_id = {r.tool_use_id: r for r in results}
    echo_id, gate_id = [u.id for u in plan.state.agents[root].conversation.messages[-2].tool_uses]
    assert by_id[echo_id] == ToolResultBlock(tool_use_id=echo_id, content="echo: one")
    assert by_id[gate_id] == ToolResultBlock(tool_use_id=gate_id, content=NOT_RUN, is_error=True)


async def test_an_open_question_is_still_open_when_the_session_resumes(tmp_path: Path) -> None:
    script = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})]),
        Turn(text="unused"),
    )
    runtime = recorded_runtime(tmp_path, script=script)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Ask me")
        raised = await next_event(events, "query:raised", root)
        waiting = await next_event(events, "agent:status", root)
        crashed = await _crash_image(runtime, max(raised.seq, waiting.seq), tmp_path)
        runtime.cancel(root)

    plan = plan_resume(read_session(crashed))

    # A crash left the question open in the log: nothing closes it, nothing raises it twice.
    assert [e.type for e in plan.closing] == ["run:resumed"]
    assert list(plan.state.open_queries) == [raised.query_id]  # type: ignore[attr-defined]
    assert plan.state.agents[root].status is S.AWAITING_USER
    assert plan.interrupted == []
    assert list(plan.reopenings) == [root]


async def test_a_resumed_agent_continues_its_saved_conversation_in_the_same_file(
    tmp_path: Path,
) -> None:
    runtime = recorded_runtime(
        tmp_path,
        script=Script(
            agents={
                "main": [Turn(text="Working on it", hang_after_chunks=1)],
                "main.1": [Turn(text="Child finished.")],
            }
        ),
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Long task")
        child = runtime.start("Small part", parent_id=root)
        streaming = child_done = False
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                streaming = streaming or (event.agent_id == root and event.type == "text:delta")
                child_done = child_done or (
                    event.agent_id == child and getattr(event, "new", "") == "completed"
                )
                if streaming and child_done:
                    break
        crashed = await _crash_image(runtime, event.seq, tmp_path)

        runtime.cancel(root)
    # A crash also tears the line being written.
    with crashed.open("ab") as file:
        file.write(b'{"type":"text:delta","seq":')

    plan = open_for_resume(str(crashed))
    assert plan.log.warnings and plan.interrupted == [root]
    resumed = resumed_runtime(plan, Script.for_all(Turn(text="Picked up where I left off.")))
    async with resumed:
        new_events = resumed.subscribe(maxsize=None)
        assert resumed.node(child).status is S.COMPLETED
        assert resumed.node(root).status is S.CANCELLED
        resumed.send(root, "Please go on.")
        node = await resumed.wait(root)
        assert node.result == "Picked up where I left off."
        assert resumed.start("A new task") == "a3", "new ids never repeat saved ones"
        await resumed.wait("a3")
    sent = resumed.provider.requests[0].messages  # type: ignore[attr-defined]
    assert sent[0].text == "Long task"
    assert (sent[-2].text, sent[-2].interrupted) == ("Working on it"[: len(sent[-2].text)], True)
    assert sent[-1].text == "Please go on."
    assert new_events.drain()[0].seq == plan.last_seq + 1

    reread = read_session(crashed)
    assert reread.warnings == [], "the torn tail was cut off before appending"
    assert reread.header == plan.log.header
    seqs = [e.seq for e in reread.events]
    assert seqs == sorted(set(seqs)) and seqs[-1] <= reread.last_seq
    state = fold_session(reread)
    assert {i: n.snapshot() for i, n in state.agents.items()} == resumed.tree()["agents"]
    for agent_id, saved in state.agents.items():
        assert saved.conversation.model_dump(mode="json") == resumed.agent(agent_id)["conversation"]


async def test_a_session_still_being_written_cannot_beresumed_runtime(tmp_path: Path) -> None:
    async with session_being_written(tmp_path) as runtime:
        assert runtime.session.path is not None
        with pytest.raises(SessionError, match="still open in another agentui"):
            open_for_resume(str(runtime.session.path))
    assert open_for_resume(str(runtime.session.path)).interrupted == []


async def test_a_session_with_a_damaged_line_resumes_and_keeps_growing(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="First answer."))
    async with runtime:
        root = runtime.start("Answer twice")
        await runtime.wait(root)
    path = runtime.session.path
    assert path is not None
    lines = path.read_bytes().split(b"\n")
    damaged = next(i for i, line in enumerate(lines) if b'"iteration:start"' in line)
    lines[damaged] = b'{"type":"iteration:start","seq":4,"ts":17672'
    path.write_bytes(b"\n".join(lines))

    plan = open_for_resume(str(path))

    assert plan.log.damaged_lines == [damaged + 1]
    assert plan.interrupted == [] and plan.state.agents[root].status is S.COMPLETED
    resumed = resumed_runtime(plan, Script.for_all(Turn(text="Second answer.")))
    async with resumed:
        resumed.send(root, "Again, please.")
        assert (await resumed.wait(root)).result == "Second answer."
    sent = resumed.provider.requests[0].messages  # type: ignore[attr-defined]
    assert [m.text for m in sent] == ["Answer twice", "First answer.", "Again, please."]

    reread = read_session(path)
    assert reread.damaged_lines == [damaged + 1], "the damage stays where it was, nothing new"
    assert reread.last_seq > plan.last_seq
    assert (fold_session(reread).status, fold_session(reread).agents[root].runs) == (
        "completed",
        2,
    )


async def test_a_session_with_a_damaged_header_resumes_under_its_stand_in(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="First answer."))
    async with runtime:
        root = runtime.start("Answer twice")
        await runtime.wait(root)
    path = runtime.session.path
    assert path is not None
    data = path.read_bytes()
    path.write_bytes(b"\x00" * 20 + data[data.index(b"\n") :])  # the header overwritten

    plan = open_for_resume(str(path))

    assert (plan.log.id, plan.log.header.task) == (path.stem, "Answer twice")
    resumed = resumed_runtime(plan, Script.for_all(Turn(text="Second answer.")))
    async with resumed:
        resumed.send(root, "Again, please.")
        assert (await resumed.wait(root)).result == "Second answer."
    reread = read_session(path)
    assert reread.damaged_lines == [1]
    assert fold_session(reread).agents[root].runs == 2


async def test_a_steer_and_a_modify_the_model_never_read_are_delivered_after_a_resume(
    tmp_path: Path,
) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="Working on it", hang_after_chunks=1))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Compare databases")
        await next_event(events, "text:delta", root)
        runtime.steer(root, "Mention that sqlite works offline")
        runtime.modify(root, instructions="Answer in one line.")
        queued = await next_event(events, "agent:status", root)  # modified
        crashed = await _crash_image(runtime, queued.seq, tmp_path)
        runtime.cancel(root)

    plan = plan_resume(read_session(crashed))
    resumed = resumed_runtime(plan, Script.for_all(Turn(text="sqlite: free and offline.")))
    async with resumed:
        new_events = resumed.subscribe(maxsize=None)
        resumed.send(root, "Go on.")
        await resumed.wait(root)
    request = resumed.provider.requests[0]  # type: ignore[attr-defined]
    assert request.instructions == "Answer in one line."
    said = "\n".join(message.text for message in request.messages)
    assert "A message from the person: Mention that sqlite works offline" in said
    delivered = [e for e in new_events.drain() if e.type == "note:delivered"]
    assert [e.note_ids for e in delivered] == [["n1"]]  # type: ignore[attr-defined]
    assert delivered[0].modified == ["instructions"]  # type: ignore[attr-defined]
    assert plan.id_source().next("n") == "n2", "a new note never takes a saved note's id"


async def test_a_session_resumed_in_one_agentui_is_refused_in_another_at_once(
    tmp_path: Path,
) -> None:
    """The file is held from the moment the resumed run starts, not from its first write."""
    runtime = recorded_runtime(tmp_path, Turn(text="Done."))
    async with runtime:
        await runtime.wait(runtime.start("A task"))
    assert runtime.session.path is not None
    path = runtime.session.path

    first = resumed_runtime(open_for_resume(str(path)), Script.for_all(Turn(text="unused")))
    async with first:
        with pytest.raises(SessionError, match="still open in another agentui"):
            open_for_resume(str(path))
    open_for_resume(str(path))  # free again once the first one ends


async def test_an_always_allowed_tool_asks_again_after_a_resume(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="Done."))
    async with runtime:
        root = runtime.start("A task")
        await runtime.wait(root)
        runtime.publish(ApprovalDecided, root, query_id="q9", tool="python", decision="always")
    assert runtime.session.path is not None
    assert fold_session(read_session(runtime.session.path)).always_allowed == ["python"]
    plan = plan_resume(read_session(runtime.session.path))
    assert plan.state.always_allowed == []
    # A view that folds the history itself (a screen attached to `serve --resume`) learns it too.
    assert plan.history[-1].type == "run:resumed"
    attached = RunState()
    attached.apply_all(plan.history)
    assert attached.always_allowed == []


async def test_an_agent_a_quit_stopped_mid_stream_is_counted_interrupted(tmp_path: Path) -> None:
    """The quit's shutdown cancelled it in the log (nothing to add on resume), and it counts
    among the interrupted agents the resume's notice names, as after a crash."""
    runtime = recorded_runtime(
        tmp_path, Turn(text="Here is my half-written answ", hang_after_chunks=3)
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Write the answer")
        for _ in range(3):
            await next_event(events, "text:delta", root)
    assert runtime.session.path is not None

    plan = plan_resume(read_session(runtime.session.path))

    assert plan.interrupted == [root]
    assert plan.state.agents[root].status is S.CANCELLED
    assert [e.type for e in plan.closing] == ["run:resumed"], "the quit's cancel is in the log"
