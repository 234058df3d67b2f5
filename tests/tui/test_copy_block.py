"""Copy the selected block (the palette): the block the person clicked last, or the one the
search went to last, as it is shown and in full (a folded one too), with no markup; kept in the
private file as well, written in a thread; a write that fails is said."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.blocks import AnswerBlock, FoldBlock

from .helpers import app_when, settle, toasts, write

pytestmark = pytest.mark.anyio

SCRIPT = Script.for_all(
    Turn(thinking="Zebras first,\x1b[2J then the rest.", text="A **zebra** is striped.")
)
COPY_BLOCK = "Copy the selected block"


def done(app: AgentUIApp) -> bool:
    agent = app.main.model.agents.get("a1")
    return agent is not None and agent.status.value == "completed"


def palette_titles(app: AgentUIApp) -> list[str]:
    return [command.title for command in app.get_system_commands(app.screen)]


@pytest.fixture
def state_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    return tmp_path / "state"


async def test_a_clicked_folded_block_is_copied_whole_as_shown(state_dir: Path) -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        assert COPY_BLOCK not in palette_titles(app), "nothing is selected yet"
        thinking = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, FoldBlock)
        )
        await pilot.click(thinking)
        assert COPY_BLOCK in palette_titles(app)
        writing = app.copy_export.copy_block()
        assert writing is not None
        await writing.wait()
        # The whole thinking (the click unfolded it; folded, it would be copied whole too),
        # its control shown as the pane shows it, no fold mark, no styles.
        assert app.clipboard == "thinking\nZebras first,␛[2J then the rest."
        assert (state_dir / "copied.txt").read_text() == app.clipboard
        await settle(pilot, lambda: any("Copied the thinking" in t for t in toasts(app)))


async def test_the_block_the_search_went_to_is_the_selected_one(state_dir: Path) -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash")
        await write(pilot, "striped")
        selected = app.main.transcript_view.selected_block()
        assert isinstance(selected, AnswerBlock)
        await pilot.press("escape")
        writing = app.copy_export.copy_block()
        assert writing is not None
        await writing.wait()
        assert app.clipboard == "A **zebra** is striped."  # its Markdown, as the block has it


async def test_nothing_selected_is_said() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        assert app.copy_export.copy_block() is None
        await settle(pilot, lambda: any("click a block" in t for t in toasts(app)))
        assert app.clipboard == ""


async def test_a_copy_that_cannot_be_kept_in_the_file_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("")
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(blocker / "state"))
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        writing = app.copy_export.copy_last_answer()
        assert writing is not None
        await writing.wait()
        assert app.clipboard == "A **zebra** is striped."  # the clipboard has it all the same
        await settle(pilot, lambda: any("could not be kept" in t for t in toasts(app)))


async def test_f8_after_a_click_copies_the_clicked_block(state_dir: Path) -> None:
    """A click leaves the letters off; a function key still acts, as the person asked."""
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        answer = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, AnswerBlock)
        )
        await pilot.click(answer)
        await pilot.press("f8")
        copied = state_dir / "copied.txt"  # written in a thread: waited for, like the clipboard
        await settle(pilot, lambda: copied.exists() and copied.read_text() == app.clipboard)
        assert app.clipboard == "A **zebra** is striped."
