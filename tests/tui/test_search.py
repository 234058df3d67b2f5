"""The transcript search (`/`): incremental, next and previous round and round, matches marked
in place, folded blocks unfolded to show one, old entries mounted to reach one, esc closes it;
and `/` is a pane's key: never while a text box waits for words, nor after a click."""

from __future__ import annotations

import pytest
from textual.pilot import Pilot

from agentui.core.protocol.events import (
    AgentSpawned,
    Event,
    ToolCallInfo,
    ToolCompleted,
    ToolStarted,
)
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.widgets.blocks import AnswerBlock, EntryBlock, FoldBlock
from agentui.tui.app.widgets.search_highlight import CURRENT, MATCH, Highlighted
from agentui.tui.app.widgets.transcript import MAX_BLOCKS

from .helpers import app_when, settle, write

pytestmark = pytest.mark.anyio

SCRIPT = Script.for_all(
    Turn(thinking="Zebras first, then the rest.", text="A zebra is striped.\n\nZEBRA again.")
)


def done(app: AgentUIApp) -> bool:
    agent = app.main.model.agents.get("a1")
    return agent is not None and agent.status.value == "completed"


def counted(app: AgentUIApp) -> str:
    return str(app.main.search.bar.count.render())


def marked(app: AgentUIApp) -> dict[str, int | None]:
    """Each mounted block's kind -> which of its matches is the current one (None: none)."""
    return {
        block.entry.kind: block.highlight.current
        for block in app.main.transcript_view.mounted_blocks()
        if block.highlight is not None
    }


async def test_typing_searches_and_enter_and_shift_enter_go_round_the_matches() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash")
        search = app.main.search
        assert search.is_open and app.focused is search.bar.box
        await write(pilot, "zebra")
        # The task, the thinking and the answer's two: the newest is where it goes first.
        assert counted(app).strip() == "4/4"
        assert marked(app) == {"task": None, "thinking": None, "text": 1}
        answer = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, AnswerBlock)
        )
        assert answer.current_match_widget() is not answer  # the part that holds it
        await pilot.press("enter")  # next: round to the oldest
        assert counted(app).strip() == "1/4"
        assert marked(app)["task"] == 0
        await pilot.press("shift+enter")  # previous: round to the newest again
        assert counted(app).strip() == "4/4"
        await pilot.press("up", "up")
        assert counted(app).strip() == "2/4"
        thinking = next(
            b for b in app.main.transcript_view.mounted_blocks() if isinstance(b, FoldBlock)
        )
        assert not thinking.folded, "the folded thinking unfolds to show its match"
        await write(pilot, "s first")  # "zebras first": narrower
        assert counted(app).strip() == "1/1"
        await pilot.press("escape")
        assert not search.is_open
        assert app.focused is app.main.tree_view, "the keys go back where they were"
        assert thinking.folded, "what it unfolded folds again"
        assert marked(app) == {}


async def test_nothing_found_is_said_and_enter_does_nothing() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash")
        await write(pilot, "okapi")
        assert counted(app).strip() == "no match"
        await pilot.press("enter")
        assert app.main.search.is_open and counted(app).strip() == "no match"


async def test_slash_is_words_in_a_text_box_and_after_a_click() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        main = app.main
        main.prompt_view.focus()
        await pilot.press("slash")
        assert main.prompt_view.text == "/" and not main.search.is_open
        main.prompt_view.clear()
        await pilot.click("#transcript")  # a click: letters are words, not commands
        await pilot.press("slash")
        assert not main.search.is_open
        assert main.prompt_view.text == "/"


async def test_the_search_follows_the_all_agents_view_and_says_where_it_searches() -> None:
    async with app_when(done, "Tell me about zebras", SCRIPT, size=(100, 30)) as (app, pilot):
        await pilot.press("slash")
        await write(pilot, "zebra")
        assert "search main" in str(app.main.search.bar.scope.render())
        app.main.tree_view.focus()
        await pilot.press("a")
        assert "search all agents" in str(app.main.search.bar.scope.render())
        assert counted(app).strip() == "4/4"  # the same entries there: its place is kept
        app.main.select("a1")  # (already selected: nothing changes)
        await pilot.press("a")  # back to the agent's own
        assert counted(app).strip() == "4/4"


def _many_tool_calls(count: int, needle_at: int) -> list[Event]:
    """A recording of one agent that ran `count` tools; the result at `needle_at` says okapi."""
    events: list[Event] = [
        AgentSpawned(seq=1, ts=1.0, agent_id="a1", parent_id=None, name="main", task="look")
    ]
    for n in range(count):
        call = ToolCallInfo(id=f"c{n}", name="read", arguments={"n": n})
        seq = len(events) + 1
        events.append(ToolStarted(seq=seq, ts=1.0 + n, agent_id="a1", iteration=1, call=call))
        result = "an okapi here" if n == needle_at else f"result {n}"
        events.append(
            ToolCompleted(
                seq=seq + 1, ts=1.0 + n, agent_id="a1", iteration=1, call_id=f"c{n}",
                name="read", result=result,
            )
        )  # fmt: skip
    return events


async def test_a_match_in_an_old_unmounted_entry_is_mounted_and_unfolded() -> None:
    recorded = _many_tool_calls(MAX_BLOCKS + 50, needle_at=2)
    app = AgentUIApp(
        replay=ReplayFeed(recorded, speed=1000.0), clock=FrozenClock(), remember_theme=False
    )
    async with app.run_test(size=(100, 30)) as pilot:
        transcript = app.main.transcript_view
        # The oldest are not mounted, once the last batch is drawn and the view follows it.
        await settle(
            pilot,
            lambda: app.host.done and len(transcript.mounted_blocks()) == MAX_BLOCKS,
        )
        await pilot.press("slash")  # a replay's search: nothing else is typed there
        await write(pilot, "okapi")
        assert counted(app).strip() == "1/1"
        block = _block_holding(transcript.mounted_blocks(), "an okapi here")
        assert isinstance(block, FoldBlock) and not block.folded
        assert block.highlight is not None and block.highlight.current == 0
        await _scrolled(pilot)
        assert transcript.scroll_y <= block.region.y + block.region.height


def _block_holding(blocks: list[EntryBlock], detail: str) -> EntryBlock:
    return next(b for b in blocks if b.entry.detail == detail)


async def _scrolled(pilot: Pilot[int]) -> None:
    await pilot.pause()
    await pilot.pause()


def test_a_rendered_line_marks_every_match_and_the_current_one_apart() -> None:
    from rich.console import Console
    from rich.markdown import Markdown

    from agentui.tui.app.widgets.search_highlight import Highlight, search_pattern

    pattern = search_pattern("zebra")
    assert pattern is not None
    console = Console(width=40, color_system="truecolor")
    drawn = Highlighted(Markdown("A **zebra** and a Zebra."), Highlight(pattern, current=1))
    segments = list(console.render(drawn))
    styles = {s.text: s.style for s in segments if s.text.lower() == "zebra"}
    assert styles["zebra"] is not None and styles["zebra"].bgcolor == MATCH.bgcolor
    assert styles["Zebra"] is not None and styles["Zebra"].bgcolor == CURRENT.bgcolor
    assert "".join(s.text for s in segments).startswith("A zebra and a Zebra.")
    assert sum(s.text.count("\n") for s in segments) == 1  # as tall as the Markdown alone
