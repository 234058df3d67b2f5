"""Nothing is lost in silence: a session log that cannot be written says so at once (a
`session:error` event every front end folds), how far the file holds the run, and leaves no
file that claims a session it cannot give back. Session files are the owner's alone (0600)."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import anyio
import pytest

from agentui.core.protocol.events import SessionLogFailed
from agentui.core.providers.scripted.script import ScriptedToolCall, Turn
from agentui.core.session.errors import SessionError
from agentui.core.session.reader import read_session
from agentui.core.session.store import find_session
from agentui.core.session.summary import summary_path
from agentui.core.state import RunState

from .session_failures import disk_fills_after_first_write, unwritable_dir
from .session_helpers import SAFETY_NET_S, gate_tool, next_event, recorded_runtime

pytestmark = pytest.mark.anyio


def failures(events: list[object]) -> list[SessionLogFailed]:
    return [e for e in events if isinstance(e, SessionLogFailed)]


async def test_a_folder_that_cannot_be_made_is_said_at_once_and_leaves_no_session(
    tmp_path: Path,
) -> None:
    """Fails as root too: the data dir's parent is a regular file."""
    sessions = unwritable_dir(tmp_path)
    release = anyio.Event()
    runtime = recorded_runtime(
        sessions,
        Turn(tool_calls=[ScriptedToolCall(name="gate")]),
        Turn(text="still fine"),
        tools=[gate_tool(release)],
    )
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("work")
        failed = await next_event(events, "session:error")
        # Said while the agent still runs: the run goes on, unsaved.
        assert runtime.snapshot()["agents"][root]["status"] == "running"
        release.set()
        node = await runtime.wait(root)
    assert node.result == "still fine"
    assert isinstance(failed, SessionLogFailed) and failed.saved_until is None
    assert failed.path == str(runtime.session.path) and failed.path in failed.error
    assert failed.reason == os.strerror(20)  # ENOTDIR: "Not a directory"
    assert runtime.session.error == failed.error and not runtime.session.saved
    session_id = runtime.session.session_id
    assert session_id is not None
    with pytest.raises(SessionError):
        find_session(session_id, sessions)
    # Once only, however many writes would have failed after it.
    assert failures([failed, *events.drain()]) == [failed]


@pytest.mark.skipif(
    hasattr(os, "geteuid") and os.geteuid() == 0,
    reason="root writes in a read-only folder; the unmakeable folder covers root",
)
async def test_a_read_only_data_dir_is_said_and_leaves_no_session(tmp_path: Path) -> None:
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    sessions.chmod(0o500)
    release = anyio.Event()
    try:
        runtime = recorded_runtime(
            sessions,
            Turn(tool_calls=[ScriptedToolCall(name="gate")]),
            Turn(text="fine"),
            tools=[gate_tool(release)],
        )
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            root = runtime.start("work")
            # Said while the agent runs (a run that ended first would say it only as the
            # runtime closes, after its subscribers have gone).
            failed = await next_event(events, "session:error")
            release.set()
            await runtime.wait(root)
        assert isinstance(failed, SessionLogFailed)
        assert failed.saved_until is None and "Permission denied" in failed.error
        assert list(sessions.iterdir()) == []
    finally:
        sessions.chmod(0o700)


async def test_a_disk_that_fills_mid_run_keeps_what_was_written_and_says_up_to_when(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    release = anyio.Event()
    runtime = recorded_runtime(
        tmp_path,
        Turn(tool_calls=[ScriptedToolCall(name="gate")]),
        Turn(text="the rest of the run, which no longer fits on the disk"),
        tools=[gate_tool(release)],
    )
    with disk_fills_after_first_write(monkeypatch, room=10):
        async with runtime:
            events = runtime.subscribe(maxsize=None)
            root = runtime.start("fill the disk")
            started = await next_event(events, "tool:start", root)
            with anyio.fail_after(SAFETY_NET_S):
                await runtime.session.wait_written(started.seq)  # the first write
            saved_seq, saved_ts = runtime.session.written_seq, runtime.session.written_ts
            release.set()  # the next write finds the disk full
            failed = await next_event(events, "session:error")
            await runtime.wait(root)
    assert isinstance(failed, SessionLogFailed)
    assert failed.reason == "No space left on device"
    assert failed.error == f"cannot write {runtime.session.path}: No space left on device"
    assert failed.saved_until == saved_ts is not None
    assert runtime.session.written_seq == saved_seq and runtime.session.saved
    # What was written before is a session that opens: the torn line is skipped.
    path = runtime.session.path
    assert path is not None and find_session(path.stem, tmp_path) == path
    log = read_session(path)
    assert log.events and log.events[-1].seq <= saved_seq
    assert not [e for e in log.events if e.type == "execution:complete"]


def test_the_fold_keeps_the_first_failure() -> None:
    state = RunState()
    first = SessionLogFailed(
        seq=1, ts=1.0, agent_id="", path="/s.jsonl", error="cannot write /s.jsonl: x", reason="x"
    )
    state.apply(first)
    state.apply(first.model_copy(update={"seq": 2, "reason": "later"}))
    assert state.session_log_failed is first
    assert not state.unfolded


async def test_session_files_are_the_owner_s_alone_whatever_the_umask(tmp_path: Path) -> None:
    sessions = tmp_path / "new" / "sessions"
    previous = os.umask(0)  # the widest umask: only the mode agentui asks for holds
    try:
        runtime = recorded_runtime(sessions, Turn(text="private"))
        async with runtime:
            await runtime.wait(runtime.start("secret task"))
    finally:
        os.umask(previous)
    path = runtime.session.path
    assert path is not None and runtime.session.error is None
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert stat.S_IMODE(summary_path(path).stat().st_mode) == 0o600
    assert stat.S_IMODE(sessions.stat().st_mode) == 0o700
