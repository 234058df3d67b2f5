"""Copy and export from the palette: the selected agent's last answer or transcript to the
clipboard (and to a private file the toast names), the session as Markdown to a file here."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.app.app import AgentUIApp

from ..core.session_helpers import recorded_runtime
from .helpers import has_status, make_app, settle, toasts

pytestmark = pytest.mark.anyio

ANSWERS = Script.for_all(Turn(text="Lisbon, \x1b[2Jthree days, by train."))


def palette_titles(app: AgentUIApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


@pytest.fixture
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


async def test_the_last_answer_is_copied_as_written_and_kept_in_a_private_file(
    state_dir: Path,
) -> None:
    app = make_app("Plan a trip", ANSWERS)
    async with app.run_test() as pilot:
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert "Copy the last answer" in palette_titles(app)
        writing = app.copy_export.copy_last_answer()
        assert app.clipboard == "Lisbon, \x1b[2Jthree days, by train."  # as the model wrote it
        assert writing is not None
        await writing.wait()  # the private file is written in a thread
        kept = state_dir / "copied.txt"
        assert kept.read_text() == app.clipboard
        assert os.stat(kept).st_mode & 0o777 == 0o600
        await settle(pilot, lambda: any("Copied its last answer" in t for t in toasts(app)))
        assert any(str(kept) in t for t in toasts(app))


async def test_the_transcript_is_copied_as_the_export_writes_it(state_dir: Path) -> None:
    app = make_app("Plan a trip", ANSWERS)
    async with app.run_test() as pilot:
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        app.copy_export.copy_transcript()
        assert app.clipboard.startswith("## main\n\n**Task:**\n\nPlan a trip")
        assert "\n\nLisbon, \x1b[2Jthree days, by train." in app.clipboard


async def test_nothing_to_copy_is_said(state_dir: Path) -> None:
    app = make_app()
    async with app.run_test() as pilot:
        await pilot.pause()
        app.copy_export.copy_transcript()
        await settle(pilot, lambda: any("Nothing to copy" in t for t in toasts(app)))
        assert not (state_dir / "copied.txt").exists()


async def test_the_session_exports_as_markdown_into_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    sessions = tmp_path / "sessions"
    app = AgentUIApp(
        lambda: recorded_runtime(sessions, script=ANSWERS),
        initial_task="Plan a trip",
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )
    async with app.run_test() as pilot:
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        assert "Export the session as Markdown" in palette_titles(app)
        app.copy_export.export_markdown()
        await settle(pilot, lambda: any("Exported the session" in t for t in toasts(app)))
        (exported,) = tmp_path.glob("*.md")
        assert exported.stem == next(sessions.glob("*.jsonl")).stem
        assert "Lisbon" in exported.read_text()


async def test_an_export_with_no_session_says_so() -> None:
    app = make_app("Plan a trip", ANSWERS)
    async with app.run_test() as pilot:
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        app.copy_export.export_markdown()
        await settle(pilot, lambda: any("No session is being recorded" in t for t in toasts(app)))


async def test_the_copied_transcript_holds_the_person_s_answers(state_dir: Path) -> None:
    asks = Script.for_all(
        Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which?"})]),
        Turn(text="Lisbon it is."),
    )
    app = make_app("Plan a trip", asks)
    async with app.run_test() as pilot:
        await settle(pilot, lambda: bool(app.main.model.open_queries))
        assert app.host.runtime is not None
        app.host.runtime.answer(next(iter(app.main.model.open_queries)), "Lisbon, by train")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        app.copy_export.copy_transcript()
        assert "**Question (question):** Which?\n\n**Answer:** Lisbon, by train" in app.clipboard
