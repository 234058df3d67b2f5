"""Going to an entry far from the transcript's window (a search, a question far up) draws it in
one frame: the frames drawn while the moved window mounts are held, and the first one shows
the entry's top at the top of the pane, already measured (the frame after moves nothing); a
search that goes there in the real app lands on its match."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import pytest
from rich.console import RenderableType
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.pilot import Pilot
from textual.screen import Screen

from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.state import TranscriptItem as Entry
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.widgets import transcript as transcript_module
from agentui.tui.app.widgets.blocks import AnswerBlock, NoteBlock
from agentui.tui.app.widgets.transcript import Transcript

from .helpers import app_when, settle, write

pytestmark = [
    pytest.mark.anyio,
    pytest.mark.painted,
]  # frames are drawn: what they show is the subject

AGENTS = 40


def long_answer(agent: int) -> str:
    """About 600 lines of Markdown (two of them make more than a window), lists and code
    among the paragraphs: drawn, its chunks take other heights than estimated."""
    parts = [
        f"Agent {agent} says paragraph {n} of its long answer."
        if n % 3
        else f"- item {n}\n- another\n\n```\ncode {n}\n```"
        for n in range(300)
    ]
    return "\n\n".join(parts)


def every_agents_entries() -> list[Entry]:
    entries = [Entry(f"a{n}", "task", f"part {n} of the job") for n in range(AGENTS)]
    return entries + [Entry(f"a{n}", "text", long_answer(n)) for n in range(AGENTS)]


class FramesApp(App[None]):
    """A transcript alone; each frame drawn calls `on_frame`. Textual has no public hook for
    a frame: every one goes through `_display` (as in tests/bench/ui_bench.py's RenderingApp),
    and the test is `painted` (tests/conftest.py paints no frame otherwise)."""

    def __init__(self) -> None:
        super().__init__()
        self.on_frame: list[object] = []

    def compose(self) -> ComposeResult:
        yield Transcript()

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        if renderable is not None:
            for note in self.on_frame:
                note()  # type: ignore[operator]
        super()._display(screen, renderable)


@asynccontextmanager
async def every_agent_view(
    monkeypatch: pytest.MonkeyPatch,
) -> AsyncIterator[tuple[FramesApp, Pilot[None], Transcript, list[Entry]]]:
    # However slow the machine, the repaints are held until the window is mounted.
    monkeypatch.setattr(transcript_module, "LANDING_WAIT_S", 60.0)
    entries = every_agents_entries()
    app = FramesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("*", entries, lambda entry: entry.agent_id)
        await pilot.pause()
        await pilot.pause()
        yield app, pilot, transcript, entries


def top_row(transcript: Transcript) -> int:
    return transcript.scrollable_content_region.y


async def test_an_answer_far_up_is_first_drawn_with_its_top_at_the_top_of_the_pane(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (app, pilot, transcript, _entries):
        far = AGENTS + 3  # agent 3's answer: dozens of long answers above the window
        block = transcript.reveal(far)
        assert isinstance(block, AnswerBlock)
        head = block.parts()[0]
        drawn: list[Region | None] = []  # where the answer's top was, at each frame
        laid: list[tuple[Region, Region]] = []  # its head and its tail, at each frame
        app.on_frame.append(lambda: drawn.append(head.region if head.is_mounted else None))
        app.on_frame.append(lambda: laid.append((head.region, block.region)))
        await pilot.pause()
        await pilot.pause()
        # No frame of the window half mounted, nor of it at the old scroll position: the
        # first frame (and any after it) has the answer's label on the pane's top row.
        assert drawn, "the moved window was drawn"
        assert all(region is not None and region.y == top_row(transcript) for region in drawn)
        # Its first screen was measured before that frame: drawing it moved nothing.
        await pilot.pause()
        assert len(set(laid)) == 1, "the frames after the first laid it out as the first"


async def test_an_entry_among_earlier_ones_mounted_with_it_lands_at_the_top_too(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (app, pilot, transcript, entries):
        transcript.reveal(AGENTS + 3)  # the window moves up to an answer
        await pilot.pause()
        # Then a task a few entries above it: a page of the short ones is mounted above.
        block = transcript.reveal(AGENTS - 5)
        assert isinstance(block, NoteBlock) and block.entry is entries[AGENTS - 5]
        drawn: list[int | None] = []
        app.on_frame.append(lambda: drawn.append(block.region.y if block.is_mounted else None))
        await pilot.pause()
        await pilot.pause()
        assert drawn and all(y == top_row(transcript) for y in drawn)


async def test_a_block_already_mounted_off_the_pane_is_drawn_at_the_top_in_the_next_frame(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (app, pilot, transcript, entries):
        block = transcript.mounted_blocks()[0]  # the window's first answer, far above the end
        assert not block.parts()[0].region.overlaps(transcript.region)
        assert transcript.reveal(entries.index(block.entry)) is block
        drawn: list[int] = []
        app.on_frame.append(lambda: drawn.append(block.parts()[0].region.y))
        await pilot.pause()
        await pilot.pause()
        assert drawn and all(y == top_row(transcript) for y in drawn), "no frame before it"


async def test_the_caller_s_scroll_to_the_block_after_the_refresh_finds_it_there(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (_app, pilot, transcript, _entries):
        block = transcript.reveal(AGENTS + 3)
        assert block is not None
        transcript.call_after_refresh(transcript.show_block, block)
        await pilot.pause()
        await pilot.pause()
        assert block.parts()[0].region.y == top_row(transcript)
        assert not transcript.is_anchored or transcript.scroll_y < transcript.max_scroll_y


async def test_the_tail_comes_back_drawn_as_before_after_landing_far_up(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (_app, pilot, transcript, entries):
        transcript.reveal(AGENTS + 3)
        await pilot.pause()
        transcript.follow()  # as after the person answers a question
        await pilot.pause()
        await pilot.pause()
        assert transcript.mounted_blocks()[-1].entry is entries[-1]
        assert transcript.scroll_y == transcript.max_scroll_y, "the tail is shown and followed"


# -- in the app: a search lands on its match -------------------------------------------------

NEEDLE = "okapi"


def answer_with_a_needle() -> str:
    """Many short paragraphs (few characters to stream, ~2,000 lines to the window), the
    needle in the middle of them: deep in the frozen chunks."""
    paragraphs = [f"p{n}" for n in range(1000)]
    paragraphs[500] = f"the {NEEDLE} of p500"
    return "\n\n".join(paragraphs)


def current_match_row(app: AgentUIApp) -> tuple[int, Region] | None:
    """The screen row of the match the search is at, in an answer's frozen chunks, and the
    transcript's region (None: it is not in a mounted answer's frozen chunks)."""
    transcript = app.main.transcript_view
    for block in transcript.mounted_blocks():
        if isinstance(block, AnswerBlock) and block.highlight is not None:
            line = block.frozen_chunks.current_match_line()
            if line is not None:
                return block.frozen_chunks.region.y + line, transcript.scrollable_content_region
    return None


async def test_in_the_app_a_search_going_to_a_match_far_up_lands_on_it() -> None:
    script = Script.for_all(Turn(text=answer_with_a_needle()))

    def written(app: AgentUIApp) -> bool:
        agents = app.main.model.agents
        return len(agents) == 3 and all(a.status.value == "completed" for a in agents.values())

    async with app_when(lambda app: bool(app.main.model.agents), "write", script, (100, 30)) as (
        app,
        pilot,
    ):
        runtime = app.host.runtime
        assert runtime is not None
        for n in range(2):
            runtime.start(f"write part {n}")
        await settle(pilot, lambda: written(app))
        app.main.action_toggle_all()
        await pilot.pause()
        transcript = app.main.transcript_view
        first_answer = next(i for i, e in enumerate(transcript.entries) if e.kind == "text")
        assert transcript.entries[first_answer].uid not in {
            b.entry.uid for b in transcript.mounted_blocks()
        }, "the first answer is far above the window"
        app.main.tree_view.focus()
        await pilot.press("slash")
        await write(pilot, NEEDLE)
        # The newest match first; enter goes round to the oldest: the first answer's, far up.
        await pilot.press("enter")
        await settle(pilot, lambda: current_match_row(app) is not None)
        await pilot.pause()
        found = current_match_row(app)
        assert found is not None
        row, pane = found
        assert pane.y <= row < pane.bottom, "the match is on the pane"


async def test_a_second_jump_before_the_moved_window_mounted_lands_and_the_screen_draws_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Enter twice in a search, faster than the window mounts: the second jump (to a block of
    the window just made) lands in the same frame, and the screen's repaints are let go."""
    async with every_agent_view(monkeypatch) as (app, pilot, transcript, _entries):
        assert transcript.reveal(AGENTS + 3) is not None  # moves the window
        second = transcript.reveal(AGENTS + 4)  # in that window, not mounted yet
        assert isinstance(second, AnswerBlock)
        frames: list[int] = []
        app.on_frame.append(lambda: frames.append(second.parts()[0].region.y))
        await pilot.pause()
        await pilot.pause()
        assert frames, "no frame was drawn: the repaints stayed held"
        assert all(y == top_row(transcript) for y in frames)


async def test_words_streamed_while_a_jump_lands_do_not_pull_the_view_back_to_the_tail(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with every_agent_view(monkeypatch) as (_app, pilot, transcript, entries):
        block = transcript.reveal(transcript._start - 1)  # a page above: mounted above
        assert block is not None
        transcript.call_after_refresh(transcript.show_block, block)  # as a search's jump does
        entries[-1].append_text("\n\nmore words streamed")  # an agent writes meanwhile
        transcript.sync({entries[-1].uid})
        for _ in range(3):
            await pilot.pause()
        assert block.parts()[0].region.y == top_row(transcript)


async def test_a_neighbour_that_changed_off_screen_is_drawn_anew_when_a_jump_lands_by_it() -> None:
    entries = [Entry(f"a{n}", "text", f"short answer {n}") for n in range(150)]
    app = FramesApp()
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = app.query_one(Transcript)
        transcript.show("*", entries, lambda entry: entry.agent_id)
        await pilot.pause()
        below = transcript.block_of(entries[51].uid)
        assert isinstance(below, AnswerBlock)
        entries[51].append_text(" CHANGED")  # far from the view: its redraw waits
        transcript.sync({entries[51].uid})
        await pilot.pause()
        assert "CHANGED" not in below.tail_text
        transcript.reveal(50)
        await pilot.pause()
        await pilot.pause()
        assert any(part.region.overlaps(transcript.region) for part in below.parts())
        assert "CHANGED" in below.tail_text
