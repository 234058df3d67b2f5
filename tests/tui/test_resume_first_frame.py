"""`agentui --resume`: the session is read before the screen opens (a bad one is said there),
while the settings the first frame does not need are validated after it, as for a new run
(tui/cli/app_command.py); one bad then closes the screen and leaves the session as it was."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import anyio
import pytest

from agentui.core.session.checkpoint_keeping import keep_checkpoint

from ..core.test_session_checkpoint import _quit_while_asking
from .saved_runs import LEFT, saved_run
from .test_start_loads_little import (
    HEADLESS_APP,
    NOT_FOR_A_RESUMED_FIRST_FRAME,
    RESUMED_FIRST_FRAME_PROBE,
    _probe,
    _scratch_env,
)

SESSION = "20260101T000000Z-aaaa"


def _saved(home: Path) -> Path:
    folder = home / "data" / "sessions"
    folder.mkdir(parents=True)
    anyio.run(saved_run, folder, SESSION, LEFT)
    return folder / f"{SESSION}.jsonl"


def test_a_resumed_first_frame_validates_the_settings_after_it(tmp_path: Path) -> None:
    _saved(tmp_path)
    loaded = set(_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.core.session.resume" in loaded  # the session: read before the screen
    assert "agentui.core.config.settings" not in loaded


def _resumed_headless(tmp_path: Path) -> subprocess.CompletedProcess[str]:
    """`agentui --resume SESSION` run headless in a fresh interpreter, to its end."""
    return subprocess.run(
        [sys.executable, "-c", HEADLESS_APP, "--resume", SESSION],
        capture_output=True,
        text=True,
        timeout=120,
        env=_scratch_env(tmp_path),
        cwd=tmp_path,
    )


def test_a_bad_setting_closes_the_resumed_screen_and_the_session_stays_as_it_was(
    tmp_path: Path,
) -> None:
    session = _saved(tmp_path)
    before = session.read_bytes()
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "config.toml").write_text('[limits]\nmax_iterations = "many"\n')
    out = _resumed_headless(tmp_path)
    assert out.returncode == 2, out.stderr
    assert "the screen opened" in out.stdout
    lines = out.stderr.strip().splitlines()
    assert lines[0].startswith("agentui: config file "), out.stderr
    assert lines[0].endswith("limits.max_iterations: Input should be a valid integer, unable to "
                             "parse string as an integer (got 'many')")  # fmt: skip
    assert session.read_bytes() == before  # nothing of a run that never started is written


def test_a_bad_session_is_said_before_the_screen_opens(tmp_path: Path) -> None:
    session = _saved(tmp_path)
    session.write_bytes(b"not a session\n")
    out = _resumed_headless(tmp_path)
    assert out.returncode == 2, out.stderr
    assert "the screen opened" not in out.stdout
    assert out.stderr.startswith("agentui: ") and "not a session file" in out.stderr


def test_a_resume_from_its_checkpoint_folds_nothing_before_the_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The checkpoint its writer kept stands in for the log: what reading and folding a log
    takes (the closing rules, each agent's steps) is not even loaded for the first frame."""
    session = _saved(tmp_path)
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))  # the command's key
    assert keep_checkpoint(session, from_bytes=0)
    loaded = set(_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.core.session.resume_plan" in loaded
    folding = [
        "agentui.core.session.session_end",
        "agentui.core.session.saved_steps",
        "agentui.core.agent.steps",  # nor the screen's steps, which start with the first event
    ]
    assert [name for name in folding if name in loaded] == []
    # Nor, as from the log, the runtime and what it brings: they load after the first frame.
    assert [name for name in NOT_FOR_A_RESUMED_FIRST_FRAME if name in loaded] == []
    # `last` reads each session's header alone (session_lines), not the reader's events.
    assert "agentui.core.protocol.events" not in loaded


def test_a_resume_without_a_checkpoint_folds_the_log(tmp_path: Path) -> None:
    _saved(tmp_path)
    loaded = set(_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.core.session.session_end" in loaded


@pytest.mark.anyio
async def test_a_resumed_session_s_agents_are_in_the_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Drawn as the screen mounts, not at the first tick of the screen's flush timer (a frame
    later, ~50 ms)."""
    from textual.screen import Screen

    from agentui.tui.app.screens.main import MainScreen

    from .test_resume_workflow_question import _quit_while_it_asks, resumed_app

    plan = await _quit_while_it_asks(tmp_path)
    app = resumed_app(plan)
    refresh = Screen._compositor_refresh
    in_the_first_frame: list[list[str]] = []

    def noting_the_first_frame(screen: Screen[object]) -> None:
        if isinstance(screen, MainScreen) and not in_the_first_frame:
            in_the_first_frame.append(sorted(screen.tree_view._agent_nodes))
        refresh(screen)

    monkeypatch.setattr(Screen, "_compositor_refresh", noting_the_first_frame)
    async with app.run_test(size=(80, 24)) as pilot:
        while not in_the_first_frame:
            await pilot.pause()
    assert in_the_first_frame == [sorted(plan.state.agents)]


# The session named by its id, as a person resuming a listed one does (`last` reads each
# session's header: a validation, which builds its model's schema).
BUILT_MODELS_PROBE = RESUMED_FIRST_FRAME_PROBE.replace('"last"', f'"{SESSION}"').replace(
    "print(json.dumps(sorted(sys.modules)))",
    """from pydantic import BaseModel
    ours = ("agentui.core.protocol.", "agentui.core.state.", "agentui.core.session.", "agentui.core.agent.")
    print(json.dumps(sorted(
        f"{name}.{value.__name__}"
        for name, module in list(sys.modules.items()) if name.startswith(ours)
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, BaseModel)
        and value.__module__ == name and value.__pydantic_complete__
    )))""",
)


def test_a_resume_from_its_checkpoint_builds_no_model_s_schema_before_the_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Unpickling the plan validates nothing: the schemas of the conversation's, the events'
    and the fold's models (~10 ms, and pydantic's plugin scan with the first) are built at
    their first validation, after the first frame (defer_build)."""
    session = _saved(tmp_path)
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))  # the command's key
    assert keep_checkpoint(session, from_bytes=0)
    assert '"last"' in RESUMED_FIRST_FRAME_PROBE
    assert "print(json.dumps(sorted(sys.modules)))" in RESUMED_FIRST_FRAME_PROBE
    assert _probe(BUILT_MODELS_PROBE, tmp_path) == []


def test_a_resumed_first_frame_loads_no_emoji_table(tmp_path: Path) -> None:
    """Nothing drawn in it is markup with emoji codes: the tree's title is given as a Text
    (Textual reads a str as markup, and rich's emoji table costs ~3 ms to load)."""
    _saved(tmp_path)
    loaded = set(_probe(RESUMED_FIRST_FRAME_PROBE, tmp_path))
    assert "agentui.tui.app.widgets.agent_tree" in loaded
    assert "rich._emoji_codes" not in loaded


HELD_CONVERSATIONS_PROBE = (
    BUILT_MODELS_PROBE.split("LocalHost.start = ")[0].replace(
        "def loaded_at_the_first_frame(self):",
        """def loaded_at_the_first_frame(self):
    agents = self.app.main.model.agents.values()
    print(json.dumps(sorted({type(a.__dict__["conversation"]).__name__ for a in agents})))
    self.app.exit()

def unused(self):""",
    )
    + "LocalHost.start = "
    + BUILT_MODELS_PROBE.split("LocalHost.start = ")[1]
)


def test_a_resume_from_its_checkpoint_reads_no_conversation_before_the_first_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The agents' conversations (a third of the plan's objects) stay unread in the checkpoint
    until the runtime adopts the plan, after the first frame (kept_conversations.py)."""
    session = _saved(tmp_path)
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))  # the command's key
    assert keep_checkpoint(session, from_bytes=0)
    assert _probe(HELD_CONVERSATIONS_PROBE, tmp_path) == ["ConversationToCome"]


def test_a_session_quit_while_asking_resumes_by_id_with_no_reader_nor_event_before_its_frame(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The plan's log is a SessionLog of its own module: no line of the log is read, so the
    reader's parsing and repairs load after the first frame. Nor do the events' sixty models
    (~25-30 ms) or the agent's run: the fold names events in its functions only, an agent's
    fork origin and budget stop have modules of their own, so has how an agent waiting on the
    person goes on (Reopening), and the plan's closing events are kept apart, read when the
    resumed writer writes them."""
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))  # the command's key
    session, _root = anyio.run(_quit_while_asking, folder)
    assert keep_checkpoint(session, from_bytes=0)
    by_id = RESUMED_FIRST_FRAME_PROBE.replace('"last"', f'"{session.stem}"')
    loaded = set(_probe(by_id, tmp_path))
    assert "agentui.core.agent.reopening" in loaded  # it waits on its question again
    assert "agentui.core.session.session_log" in loaded
    assert "agentui.core.session.reader" not in loaded
    assert "agentui.core.state.run_state" in loaded
    assert "agentui.core.protocol.events" not in loaded
    assert "agentui.core.agent.agent_run" not in loaded
