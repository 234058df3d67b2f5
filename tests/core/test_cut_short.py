""" "Cut short" goes on exactly what a cut cut: the thinking or the text being streamed then.

Thinking that had ended before the text began is whole; a response that had ended before the
cut (its agent waiting at a tool) has nothing cut. The same fold marks the app's transcript
and the Markdown export, so both are checked from one run: live, and from its session file.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.base import TextChunk, ThinkingChunk
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.session.export import export_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock

from .helpers import ConnectedProvider
from .session_helpers import SAFETY_NET_S, gate_tool, recorded_runtime

pytestmark = pytest.mark.anyio

Cut = Callable[[RecordingRuntime, str], Awaitable[None]]


async def cancel(runtime: RecordingRuntime, root: str) -> None:
    runtime.cancel(root)
    with anyio.fail_after(SAFETY_NET_S):
        await runtime.wait(root)


async def quit_(runtime: RecordingRuntime, root: str) -> None:
    """Leave the agent running: the runtime shuts down around it, as quitting the app does."""


async def cut_run(
    tmp_path: Path, runtime: RecordingRuntime, cut_after: str, cut: Cut
) -> tuple[list[tuple[str, str, bool]], str]:
    """Start a task, cut it once its agent's first `cut_after` event is out: the live fold's
    (kind, text, cut short) items after the task, and the session's Markdown export."""
    live = RunState()
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Plan a product launch")
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                live.apply(event)
                if event.type == cut_after:
                    break
        await cut(runtime, root)
    for event in events.drain():  # the subscription kept every event, the shutdown's too
        live.apply(event)
    assert runtime.session.path is not None
    markdown = export_session(read_session(runtime.session.path), "md")
    items = [(i.kind, i.text, i.interrupted) for i in live.agents[root].entries]
    return [i for i in items if i[0] in ("thinking", "text")], markdown


def held_runtime(tmp_path: Path, *chunks: ThinkingChunk | TextChunk) -> RecordingRuntime:
    """A recording runtime whose model streams `chunks`, then holds its stream open."""
    writer = SessionWriter(NewSession(provider="held", model="held-1", directory=tmp_path))
    provider = ConnectedProvider([*chunks, None])
    return RecordingRuntime(provider, session=writer, clock=FrozenClock())


@pytest.mark.parametrize("cut", [cancel, quit_], ids=["cancelled", "quit"])
async def test_thinking_cut_while_it_streams_is_cut_short(tmp_path: Path, cut: Cut) -> None:
    runtime = held_runtime(tmp_path, ThinkingChunk("My subagents cover pa"))

    streamed, markdown = await cut_run(tmp_path, runtime, "thinking:delta", cut)

    assert streamed == [("thinking", "My subagents cover pa", True)]
    assert "> My subagents cover pa *[cut short]*\n" in markdown


async def test_text_cut_while_it_streams_is_cut_short_and_its_whole_thinking_is_not(
    tmp_path: Path,
) -> None:
    runtime = held_runtime(tmp_path, ThinkingChunk("All planned."), TextChunk("The launch needs"))

    streamed, markdown = await cut_run(tmp_path, runtime, "text:delta", cancel)

    assert streamed == [("thinking", "All planned.", False), ("text", "The launch needs", True)]
    assert "> All planned.\n" in markdown
    assert "The launch needs *[cut short]*\n" in markdown
    assert markdown.count("[cut short]") == 1


async def test_a_scripted_stream_held_in_its_text_is_cut_there(tmp_path: Path) -> None:
    turn = Turn(thinking="Venues first.", text="one two three four five six", hang_after_chunks=2)
    runtime = recorded_runtime(tmp_path, turn)

    streamed, markdown = await cut_run(tmp_path, runtime, "text:delta", cancel)

    (thinking, text) = streamed
    assert thinking == ("thinking", "Venues first.", False)
    assert text[2] and "one two three four five six".startswith(text[1])
    assert markdown.count("[cut short]") == 1 and f"{text[1]} *[cut short]*" in markdown


async def test_a_response_that_had_ended_has_nothing_cut(tmp_path: Path) -> None:
    """Cancelled at a tool: its response's thinking and text were whole."""
    release = anyio.Event()  # never set: the agent waits at the gate until it is cancelled
    turn = Turn(thinking="Wait first.", text="Waiting.", tool_calls=[ScriptedToolCall(name="gate")])
    runtime = recorded_runtime(tmp_path, turn, tools=[gate_tool(release)])

    streamed, markdown = await cut_run(tmp_path, runtime, "tool:start", cancel)

    assert streamed == [("thinking", "Wait first.", False), ("text", "Waiting.", False)]
    assert "[cut short]" not in markdown
