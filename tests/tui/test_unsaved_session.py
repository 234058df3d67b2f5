"""Nothing is lost in silence, on screen: the first failed write of the session shows in the
status bar at once and stays (what failed, where, that the run goes on), and the line printed
when the app closes says the session was not saved, or up to when; it offers `--resume` only
for a session that opens."""

from __future__ import annotations

import time
from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import SessionLogFailed
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.errors import SessionError
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.store import find_session
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.app.app import AgentUIApp
from agentui.tui.cli.app_run import say_where_the_session_is

from ..core.session_failures import disk_fills_after_first_write, unwritable_dir
from ..core.session_helpers import gate_tool
from .helpers import settle

pytestmark = pytest.mark.anyio

GATED = Script.for_all(
    Turn(tool_calls=[ScriptedToolCall(name="gate")]),
    Turn(text="the run went on"),
)


def recording_app(sessions: Path, release: anyio.Event) -> AgentUIApp:
    """The app recording its session into `sessions`, its agent held at a gate."""
    clock = FrozenClock()

    def runtime() -> Runtime:
        writer = SessionWriter(NewSession("scripted", "scripted-1", directory=sessions))
        tools = ToolRegistry([gate_tool(release)])
        return RecordingRuntime(ScriptedProvider(GATED), session=writer, tools=tools, clock=clock)

    return AgentUIApp(
        runtime,
        initial_task="keep working",
        clock=clock,
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )


def status_line(app: AgentUIApp) -> str:
    return str(app.main.status_view.render())


def root_status(app: AgentUIApp) -> AgentStatus | None:
    agent = app.main.model.agents.get("a1")
    return agent.status if agent is not None else None


@pytest.mark.parametrize("width", [250, 80])
async def test_a_folder_that_cannot_be_written_shows_at_once_and_the_end_says_not_saved(
    tmp_path: Path, width: int, capsys: pytest.CaptureFixture[str]
) -> None:
    sessions = unwritable_dir(tmp_path)  # fails as root too
    release = anyio.Event()
    app = recording_app(sessions, release)
    async with app.run_test(size=(width, 30)) as pilot:
        await settle(pilot, lambda: app.main.model.session_log_failed is not None)
        line = status_line(app)
        assert root_status(app) is AgentStatus.RUNNING, "said while the run goes on"
        assert "⚠ not saving the session" in line
        if width == 250:  # what failed, where (a test's long path), and that the run goes on
            assert f"cannot write {sessions}/" in line and "Not a directory" in line
            assert "the run goes on" in line
        release.set()
        await settle(pilot, lambda: root_status(app) is AgentStatus.COMPLETED)
        assert "⚠ not saving" in status_line(app), "it lasts"
        session_id = app.host.runtime.session.session_id  # type: ignore[union-attr]
    capsys.readouterr()
    say_where_the_session_is(app)
    said = capsys.readouterr().err
    assert said.startswith("agentui: this session was not saved (cannot write ")
    assert "Not a directory" in said and "--resume" not in said and " saved;" not in said
    with pytest.raises(SessionError):
        find_session(session_id, sessions)


async def test_a_disk_that_fills_mid_run_shows_at_once_and_the_end_says_up_to_when(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    release = anyio.Event()
    app = recording_app(tmp_path, release)
    with disk_fills_after_first_write(monkeypatch, room=10):
        async with app.run_test(size=(120, 30)) as pilot:
            await settle(
                pilot, lambda: app.host.runtime is not None and app.host.runtime.session.saved
            )  # type: ignore[attr-defined]
            writer: SessionWriter = app.host.runtime.session  # type: ignore[union-attr]
            assert "not saving" not in status_line(app) and "saved only" not in status_line(app)
            release.set()  # the next write finds the disk full
            await settle(pilot, lambda: app.main.model.session_log_failed is not None)
            failed = app.main.model.session_log_failed
            assert isinstance(failed, SessionLogFailed) and failed.saved_until is not None
            saved = time.strftime("%H:%M:%S", time.localtime(failed.saved_until))
            assert f"⚠ session saved only up to {saved}: No space left on device" in (
                status_line(app)
            )
            await settle(pilot, lambda: root_status(app) is AgentStatus.COMPLETED)
    capsys.readouterr()
    say_where_the_session_is(app)
    said = capsys.readouterr().err
    session_id = writer.session_id
    assert session_id is not None
    assert said.startswith(f"agentui: session {session_id} saved only up to {saved} (")
    assert "No space left on device" in said
    assert said.rstrip().endswith(f"`agentui --resume {session_id}` reopens what was saved")
    assert find_session(session_id, tmp_path) == writer.path, "what it offers opens"


async def test_a_session_that_saved_says_so_as_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    release = anyio.Event()
    release.set()
    app = recording_app(tmp_path, release)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, lambda: root_status(app) is AgentStatus.COMPLETED)
        assert "saving" not in status_line(app) and "saved" not in status_line(app)
    capsys.readouterr()
    say_where_the_session_is(app)
    session_id = app.host.runtime.session.session_id  # type: ignore[union-attr]
    assert capsys.readouterr().err == (
        f"agentui: session {session_id} saved; `agentui --resume {session_id}` reopens it\n"
    )


async def test_quitting_a_saved_run_says_what_a_resume_gives_back(tmp_path: Path) -> None:
    release = anyio.Event()
    app = recording_app(tmp_path, release)
    async with app.run_test(size=(100, 30)) as pilot:
        await settle(pilot, lambda: "a1" in app.main.model.agents)
        question = app.quit_dialog._question()
        assert question == (
            "1 agent is not finished (working, paused or waiting for you). "
            "Quit? After `agentui --resume`, what waits for you waits; work cut short comes back"
            " stopped (r continues it)."
        )
        release.set()
