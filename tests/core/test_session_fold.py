"""The fold over a session's log gives back the live state: tree, conversations, transcripts."""

from __future__ import annotations

from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentNode, AgentStatus
from agentui.core.monologue.attach import attach_monologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import Event
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedError, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.state import INTERRUPTED, RunState
from agentui.core.state.transcript import TranscriptBuilder, TranscriptItem
from agentui.core.support.clock import FrozenClock

from .session_helpers import SAFETY_NET_S, echo_tool, gate_tool, next_event, recorded_runtime

pytestmark = pytest.mark.anyio

LAUNCH = Script(
    agents={
        "main": [
            Turn(
                thinking="Split it up, then ask.",
                text="I'll check a detail and ask you one thing.",
                tool_calls=[
                    ScriptedToolCall(name="echo", arguments={"text": "venues"}),
                    ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"}),
                ],
            ),
            Turn(text="The launch is planned for Lisbon, cheaply."),
        ],
        "main.1": [Turn(text="Three venues found.")],
        "main.2": [Turn(text="Budget so f", error=ScriptedError(message="boom", after_chunks=1))],
        "main.3": [Turn(text="Invitations are being written", hang_after_chunks=1)],
        "main.4": [Turn(text="Catering sorted.")],
    }
)


async def _launch(tmp_path: Path) -> tuple[RecordingRuntime, list[Event]]:
    """A run with every kind of ending: completed, error, cancelled, deleted; a question, a
    comment and tool calls."""
    runtime = recorded_runtime(tmp_path, script=LAUNCH, tools=[echo_tool()])
    async with runtime:
        everything = runtime.subscribe(maxsize=None)
        questions = runtime.subscribe(maxsize=None)
        streams = runtime.subscribe(maxsize=None)
        root = runtime.start("Plan the launch")
        venues = runtime.start("Find venues", parent_id=root)
        budget = runtime.start("Draft the budget", parent_id=root)
        invitations = runtime.start("Write invitations", parent_id=root)
        catering = runtime.start("Sort catering", parent_id=root)
        question = await next_event(questions, "query:raised", root)
        runtime.steer(root, "keep it cheap")
        runtime.answer(question.query_id, "Lisbon")  # type: ignore[attr-defined]
        await next_event(streams, "text:delta", invitations)
        runtime.cancel(invitations)
        for agent in (venues, budget, catering, invitations, root):
            with anyio.fail_after(SAFETY_NET_S):
                await runtime.wait(agent)
        runtime.delete(catering)
    return runtime, everything.drain()


def _fold(runtime: RecordingRuntime) -> RunState:
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    assert log.warnings == []
    return fold_session(log)


async def test_the_fold_gives_back_the_live_tree(tmp_path: Path) -> None:
    runtime, _ = await _launch(tmp_path)
    state = _fold(runtime)

    live = runtime.tree()
    assert [n.id for n in state.roots()] == live["roots"]
    assert {i: n.snapshot() for i, n in state.agents.items()} == live["agents"]
    statuses = [n.status.value for n in state.agents.values()]
    assert statuses == ["completed", "completed", "error", "cancelled", "deleted"]
    assert state.status == "completed"
    assert state.tokens == sum(runtime.node(i).usage.total_tokens for i in live["agents"])


async def test_the_fold_gives_back_every_conversation_exactly(tmp_path: Path) -> None:
    runtime, _ = await _launch(tmp_path)
    state = _fold(runtime)

    for agent_id, node in state.agents.items():
        saved = node.conversation.model_dump(mode="json")
        assert saved == runtime.agent(agent_id)["conversation"], agent_id
    root = state.agents["a1"].conversation
    assert root.instructions == runtime.instructions
    notes = [m.text for m in root.messages if m.role == "user"]
    assert any("keep it cheap" in text for text in notes), "the comment reached the model"
    assert [m.interrupted for m in state.agents["a4"].conversation.messages][-1]


async def test_transcripts_read_back_match_the_live_ones(tmp_path: Path) -> None:
    # The app folds the live events with the same builder: the file gives back the screen.
    runtime, emitted = await _launch(tmp_path)
    state = _fold(runtime)
    live: dict[str, TranscriptBuilder] = {}
    for event in emitted:
        live.setdefault(event.agent_id, TranscriptBuilder(event.agent_id)).apply(event)

    def shape(items: list[TranscriptItem]) -> list[tuple[object, ...]]:
        return [
            (i.kind, i.text, i.title, i.key, i.detail, i.failed, i.open, i.interrupted)
            for i in items
        ]

    assert set(live) == set(state.transcripts)
    for agent_id, builder in live.items():
        assert shape(state.transcripts[agent_id]) == shape(builder.items), agent_id
    root_texts = [i.text for i in state.transcripts["a1"] if i.kind == "text"]
    assert root_texts[-1] == "The launch is planned for Lisbon, cheaply."
    (question,) = [i for i in state.transcripts["a1"] if i.kind == "question"]
    assert (question.text, question.detail) == ("Which city?", "Lisbon")


async def test_the_monologue_is_folded_with_its_own_tokens(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(thinking="Think first.", text="Done."))
    async with runtime:
        narration = attach_monologue(runtime, runtime.provider, MonologueConfig())
        await runtime.wait(runtime.start("Say done"))
        with anyio.fail_after(SAFETY_NET_S):
            await narration.wait_idle()
    state = _fold(runtime)

    assert state.monologue, "the narrator wrote at least the closing narrative"
    assert all(line.agent_id == "a1" for line in state.monologue)
    assert state.narrator_usage.total_tokens == narration.usage.total_tokens
    assert state.tokens == runtime.node("a1").usage.total_tokens


async def test_a_log_cut_while_agents_run_reads_as_interrupted(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="Streaming and then", hang_after_chunks=2))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("hang")
        deltas = [await next_event(events, "text:delta", root) for _ in range(2)]
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(deltas[-1].seq)
        assert runtime.session.path is not None
        snapshot = runtime.session.path.read_bytes()  # what a crash right now would leave
    crashed = tmp_path / "crashed.jsonl"
    crashed.write_bytes(snapshot)
    state = fold_session(read_session(crashed))

    assert state.status == "interrupted"
    assert [n.status.value for n in state.live()] == ["running"]
    streamed = "".join(d.delta for d in deltas)  # type: ignore[attr-defined]
    assert state.streaming["a1"].startswith(streamed)


def test_an_empty_state_has_its_own_word() -> None:
    assert RunState().status == "empty"


async def test_the_interrupted_reason_is_the_runtime_s() -> None:
    runtime = Runtime(ScriptedProvider(), clock=FrozenClock())
    live = AgentNode(id="a1", name="main", task="t", created_at=0, status=AgentStatus.RUNNING)
    runtime.adopt(live)
    assert runtime.node("a1").error == INTERRUPTED, "Runtime.adopt and the fold say the same"


async def test_interventions_are_folded_and_new_instructions_saved(tmp_path: Path) -> None:
    release = anyio.Event()
    runtime = recorded_runtime(
        tmp_path,
        Turn(text="Waiting at the gate.", tool_calls=[ScriptedToolCall(name="gate")]),
        Turn(text="Done under the new rules."),
        tools=[gate_tool(release)],
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Old task")
        await next_event(events, "tool:start", root)
        runtime.pause(root)
        runtime.modify(root, instructions="New rules.", content="New task")
        runtime.resume(root)
        release.set()
        await runtime.wait(root)
    state = _fold(runtime)

    live = runtime.tree()["agents"][root]
    folded = state.agents[root].snapshot()
    assert folded == live, "a modify's new content is in its event"
    conversation = state.agents[root].conversation
    assert conversation.instructions == "New rules."
    assert conversation.messages[0].text == "New task"
    assert conversation.model_dump(mode="json") == runtime.agent(root)["conversation"]
