"""Saved sessions for the "Compare runs…" tests: each one a whole run on the zero-delay
scripted model with a frozen clock, written by the session writer under a fixed id into the
folder the app lists (AGENTUI_DATA_DIR's sessions), in a few milliseconds."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import anyio
import pytest

from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from ..core.scene_helpers import SAFETY_NET_S, harbour, play
from ..core.session_helpers import echo_tool

OLD = "20260101T000000Z-aaaa"
NEW = "20260101T000100Z-bbbb"


def sessions_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The folder `agentui sessions` (and the app's palette) lists, under `tmp_path`."""
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    return folder


def echo(text: str) -> Turn:
    return Turn(text="Echoing.", tool_calls=[ScriptedToolCall(name="echo",
                                                              arguments={"text": text})])  # fmt: skip


# The two runs part at main's third step: the same first call, then other arguments.
LEFT = Script.for_all(echo("harbour"), echo("left"), Turn(text="Done on the left."))
RIGHT = Script.for_all(echo("harbour"), echo("right"), Turn(text="Done on the right."))


def recording(folder: Path, session_id: str, script: Script | None) -> RecordingRuntime:
    writer = SessionWriter(NewSession("scripted", "scripted-1", folder, session_id))
    tools = ToolRegistry([ASK_USER, echo_tool()])
    provider = ScriptedProvider(script, pace_s=0)
    return RecordingRuntime(provider, session=writer, tools=tools, clock=FrozenClock())


async def saved_run(
    folder: Path,
    session_id: str,
    script: Script,
    *,
    task: str = "Say the harbour back",
    roots: int = 1,
) -> Path:
    """A finished run of `script` (each of `roots` roots given `task`), saved as `session_id`."""
    runtime = recording(folder, session_id, script)
    async with runtime:
        for root in [runtime.start(task) for _ in range(roots)]:
            await runtime.wait(root)
    return folder / f"{session_id}.jsonl"


ASK_CITY = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})]),
    Turn(text="Booked."),
)


async def saved_answered_run(folder: Path, session_id: str, answer: str) -> Path:
    """main asks "Which city?" and is told `answer`, then ends: saved as `session_id`."""
    runtime = recording(folder, session_id, ASK_CITY)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("Book the trip")
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, answer)
                    break
        await runtime.wait(root)
    return folder / f"{session_id}.jsonl"


async def saved_scene(folder: Path, session_id: str, answers: Sequence[str | None]) -> Path:
    """The harbour scene played on the scripted model's scene demo, the person's inputs
    `answers` (None ends it), saved as `session_id`."""
    runtime = recording(folder, session_id, None)
    async with runtime:
        await play(runtime, harbour(), answers)
    return folder / f"{session_id}.jsonl"


def two_runs(folder: Path) -> None:
    """OLD (LEFT) and NEW (RIGHT), saved, from a test that is not async itself."""

    async def both() -> None:
        await saved_run(folder, OLD, LEFT)
        await saved_run(folder, NEW, RIGHT)

    anyio.run(both)


def two_scenes(folder: Path) -> None:
    """OLD and NEW: the harbour scene, the same first round, another input in the second."""

    async def both() -> None:
        await saved_scene(folder, OLD, ["Good evening.", "The fog lifts.", None])
        await saved_scene(folder, NEW, ["Good evening.", "A ship comes in.", None])

    anyio.run(both)
