"""A long streamed answer (issue 33): its finished chunks are one widget that draws only what is
on screen, yet every part of it shows where it is scrolled to, a search reaches a match far up,
a resize keeps the line at the top, and a copy gives the whole text."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from agentui.core.providers.scripted.script import Script, Turn
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets.blocks import PARAGRAPHS_PER_CHUNK, AnswerBlock
from agentui.tui.app.widgets.frozen_chunks import FrozenChunks

from .helpers import app_when, write

pytestmark = pytest.mark.anyio

PARAGRAPHS = PARAGRAPHS_PER_CHUNK * 10 + 5
# Long enough to wrap, at a different place at each width.
LONG = "\n\n".join(
    f"Paragraph {n} says {'needle-in-the-haystack ' if n == 7 else ''}"
    + " ".join(f"word{(n * 7 + k) % 97}" for k in range(14))
    for n in range(PARAGRAPHS)
)
SCRIPT = Script.for_all(Turn(text=LONG))
NUMBER = re.compile(r"Paragraph (\d+) ")


def done(app: AgentUIApp) -> bool:
    agent = app.main.model.agents.get("a1")
    return agent is not None and agent.status.value == "completed"


def answer_of(app: AgentUIApp) -> AnswerBlock:
    return next(b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, AnswerBlock))


def screen_text(app: AgentUIApp) -> str:
    """The screenshot's text runs, spaces as typed."""
    return html.unescape(app.export_screenshot()).replace("\xa0", " ")


def paragraphs_on_screen(app: AgentUIApp) -> list[int]:
    """The numbers of the paragraphs whose first line is on screen, top to bottom."""
    return [int(n) for n in NUMBER.findall(screen_text(app))]


async def test_the_chunks_are_one_widget_and_every_part_shows_when_scrolled_to() -> None:
    async with app_when(done, "Write a long answer", SCRIPT, size=(100, 30)) as (app, pilot):
        block = answer_of(app)
        frozen = block.frozen_chunks
        assert len(frozen.chunks) >= 10
        # Its label (none here), the frozen chunks and the tail: not a widget per chunk.
        widgets = [*block.head.walk_children(), *block.walk_children()]
        assert len(widgets) <= 3
        assert [w for w in widgets if isinstance(w, FrozenChunks)] == [frozen]
        assert paragraphs_on_screen(app)[-1] == PARAGRAPHS - 1, "it follows the end"

        transcript = app.main.transcript_view
        transcript.scroll_to(y=transcript.max_scroll_y // 2, animate=False)
        await pilot.pause()
        shown = paragraphs_on_screen(app)
        assert len(shown) >= 3
        assert shown == list(range(shown[0], shown[0] + len(shown))), "in order, none missing"
        assert PARAGRAPHS // 4 < shown[0] < PARAGRAPHS * 3 // 4, "the middle of the answer"

        # A narrower pane wraps every paragraph anew: the one at the top stays at the top.
        top = shown[0]
        await pilot.resize_terminal(70, 30)
        await pilot.pause()
        await pilot.pause()
        after = paragraphs_on_screen(app)
        assert after and abs(after[0] - top) <= 1, (top, after)
        assert after == list(range(after[0], after[0] + len(after)))


async def test_a_search_shows_a_match_far_up_and_the_copy_is_the_whole_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTUI_STATE_DIR", str(tmp_path / "state"))
    async with app_when(done, "Write a long answer", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash")
        await write(pilot, "needle-in")
        await pilot.pause()
        block = answer_of(app)
        assert block.current_match_widget() is block.frozen_chunks  # in the first chunk
        assert 7 in paragraphs_on_screen(app), "scrolled up to the match"
        # The match is marked: drawn apart from the rest of its word.
        assert ">needle-in<" in screen_text(app) and "-the-haystack" in screen_text(app)
        await pilot.press("escape")
        assert app.main.transcript_view.selected_block() is block
        writing = app.copy_export.copy_block()
        assert writing is not None
        await writing.wait()
        assert app.clipboard == LONG, "every chunk's text, drawn or not"
