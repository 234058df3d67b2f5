"""The palette's "Search all sessions…": the saved sessions' matches of the words typed, one row
`session · agent · time · line` each, newest first; picking one offers the commands that open
it (a running agentui cannot open another session inside itself) and copies the one chosen."""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from rich.text import Text
from textual.command import CommandList, CommandPalette
from textual.content import Content
from textual.widgets import Input

from agentui.core.session.search_index import Match
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.session_search import match_row, replay_command, resume_command

from ..core.test_search_index import Log
from .helpers import make_app, settle, toasts

pytestmark = pytest.mark.anyio

SESSION = "20260101T000000Z-0001"


@pytest.fixture
def sessions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTUI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    folder = tmp_path / "data" / "sessions"
    folder.mkdir(parents=True)
    log = Log(folder, SESSION)
    log.spawn("a1", "main")
    log.spawn("a2", "research", parent="a1")
    log.text("a2", "The por", "t is confi", "gured in settings.toml")
    return folder


def listed(app: AgentUIApp) -> list[str]:
    """The palette's hits (not its "No matches found" or other notes Textual shows)."""
    options = app.screen.query_one(CommandList).options
    return [str(o.prompt.plain) for o in options if isinstance(o.prompt, Text | Content)]


async def test_typed_words_list_the_matches_and_a_pick_copies_the_command(
    sessions: Path,
) -> None:
    app = make_app()
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert "Search all sessions…" in [c.title for c in app.get_system_commands(app.screen)]
        app.commands.open_session_search()
        await settle(pilot, lambda: isinstance(app.screen, CommandPalette))
        # The words at once: typed key by key, each one's search could list first (and the
        # next clear it), which is the palette's business, not this test's.
        app.screen.query_one(Input).value = "port is conf"  # words in order, the last a prefix
        await settle(pilot, lambda: bool(app.screen.query(CommandList)) and bool(listed(app)))
        when = datetime.fromtimestamp(1_790_000_000.0 + 3).strftime("%Y-%m-%d %H:%M")
        [row] = listed(app)
        assert row.startswith(f"{SESSION} · main/research · {when} · The port is configured")
        await pilot.press("enter")  # the second palette: which command
        await settle(pilot, lambda: isinstance(app.screen, CommandPalette) and bool(listed(app)))
        assert [r.split(": ", 1)[1] for r in listed(app)] == [
            f"agentui replay {SESSION} --from 3",
            f"agentui --resume {SESSION}",
        ]
        await pilot.press("enter")  # the first: replay from that point
        await settle(pilot, lambda: app.clipboard.startswith("agentui"))
        assert app.clipboard == f"agentui replay {SESSION} --from 3"
        await settle(pilot, lambda: any("run it in a terminal" in t for t in toasts(app)))


def test_a_long_line_is_cut_around_its_match_with_its_controls_shown() -> None:
    line = "x" * 200 + " the \x1b[2Jport is here " + "y" * 200
    start = line.index("port")
    match = Match(SESSION, "a1", "main", 0.0, 7, "text", line, start, start + 4)
    row = match_row(match, 100)
    assert row.cell_len <= 100
    assert "…" in row.plain and "␛[2Jport is here" in row.plain
    assert replay_command(match) == f"agentui replay {SESSION} --from 7"
    assert resume_command(match) == f"agentui --resume {SESSION}"
