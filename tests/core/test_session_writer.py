"""SessionWriter: every event in the file, in order, flushed promptly and off the event loop."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import anyio
import pytest

from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.session.reader import read_session
from agentui.core.session.records import FORMAT_VERSION
from agentui.core.session.writer import SessionWriter

from .session_helpers import SAFETY_NET_S, gate_tool, next_event, recorded_runtime
from .session_story import assert_same_story

pytestmark = pytest.mark.anyio

TWO_TURNS = (
    Turn(
        thinking="Let me check.",
        text="I'll ask the gate.",
        tool_calls=[ScriptedToolCall(name="gate")],
    ),
    Turn(text="All done: the gate opened."),
)


async def test_every_event_is_written_in_order_after_a_header(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(thinking="Hmm.", text="The answer is 42."))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("What is the answer?")
        await runtime.wait(root)
    emitted = events.drain()
    path = runtime.session.path
    assert path is not None and path.parent == tmp_path and path.suffix == ".jsonl"

    lines = path.read_text("utf-8").splitlines()
    header = json.loads(lines[0])
    assert header["record"] == "header"
    assert header["format"] == FORMAT_VERSION
    assert header["task"] == "What is the answer?"
    assert header["id"] == path.stem
    assert (header["provider"], header["model"]) == ("scripted", "scripted-1")
    assert_same_story(read_session(path).events, emitted)
    assert runtime.session.written_seq == emitted[-1].seq


async def test_nothing_is_written_until_the_first_event(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="unused"))
    async with runtime:
        pass
    assert runtime.session.path is None
    assert list(tmp_path.iterdir()) == []


async def test_a_status_change_is_flushed_at_once_while_agents_run(tmp_path: Path) -> None:
    release = anyio.Event()
    # A flush interval no test waits out: only the status change can have flushed the line.
    runtime = recorded_runtime(
        tmp_path, *TWO_TURNS, tools=[gate_tool(release)], flush_interval_s=3600
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("open the gate")
        running = await next_event(events, "agent:status", root)
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(running.seq)
        assert runtime.session.path is not None
        on_disk = read_session(runtime.session.path)
        assert running in on_disk.events
        release.set()
        await runtime.wait(root)


async def test_other_events_are_flushed_within_the_interval(tmp_path: Path) -> None:
    release = anyio.Event()
    runtime = recorded_runtime(
        tmp_path, *TWO_TURNS, tools=[gate_tool(release)], flush_interval_s=0.05
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("open the gate")
        started = await next_event(events, "tool:start", root)
        # The agent now waits on the gate: no status change will come to force a flush.
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(started.seq)
        assert runtime.session.path is not None
        assert started in read_session(runtime.session.path).events
        release.set()
        await runtime.wait(root)


async def test_lines_are_written_in_a_worker_thread(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[threading.Thread] = []
    original = SessionWriter._write

    def spy(self: SessionWriter, pending: list[str], seq: int, ts: float | None) -> None:
        threads.append(threading.current_thread())
        original(self, pending, seq, ts)

    monkeypatch.setattr(SessionWriter, "_write", spy)
    runtime = recorded_runtime(tmp_path, Turn(text="hello"))
    async with runtime:
        await runtime.wait(runtime.start("greet"))
    assert threads
    assert all(t is not threading.main_thread() for t in threads)


async def test_shutdown_writes_the_last_events_under_cancellation(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="streaming forever", hang_after_chunks=1))
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("hang")
        first = await next_event(events, "text:delta", root)
    # Leaving the block cancelled the agent; its ending must be in the file.
    assert runtime.session.path is not None
    written = read_session(runtime.session.path).events
    assert [e.type for e in written][-2:] == ["execution:cancelled", "agent:status"]
    assert written[-1].new == "cancelled"  # type: ignore[attr-defined]
    assert written[written.index(first) + 1 :] == events.drain()


async def test_a_disk_error_stops_the_log_never_the_agents(tmp_path: Path) -> None:
    blocked = tmp_path / "not-a-directory"
    blocked.write_text("a file where the sessions folder should be")
    runtime = recorded_runtime(blocked, Turn(text="still fine"))
    async with runtime:
        root = runtime.start("work")
        node = await runtime.wait(root)
    assert node.result == "still fine"
    assert runtime.session.error is not None
    assert str(blocked) in runtime.session.error


async def test_attaching_twice_is_refused(tmp_path: Path) -> None:
    runtime = recorded_runtime(tmp_path, Turn(text="x"))
    async with runtime:
        with pytest.raises(Exception, match="already attached"):
            runtime.session.attach(runtime)
