"""Tree labels, narrator lines and the status bar show control characters and markup literally."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.geometry import Region
from textual.widget import Widget

from agentui.core.agent.tree import AgentStatus
from agentui.core.monologue.entry import NarrativeEntry, NarrativeMetadata
from agentui.core.state import AgentState, RunState
from agentui.tui.app.widgets.agent_tree import AgentTree, agent_label
from agentui.tui.app.widgets.monologue import MonologueSidebar, render_narrative
from agentui.tui.app.widgets.status_bar import StatusBar

pytestmark = pytest.mark.anyio

TITLE = "\x1b]0;T\x07"
CLEAR = "\x1b[2J"
MOVE = "\x1b[5;5H"
CLIPBOARD = "\x1b]52;c;aGk=\x07"
LINK = "\x1b]8;;http://x.test/\x1b\\go\x1b]8;;\x1b\\"
FORBIDDEN = {*map(chr, range(0x20)), *map(chr, range(0x7F, 0xA0)), "\u202e"} - {"\n"}


def assert_harmless(shown: str) -> None:
    assert not FORBIDDEN & set(shown), repr(shown)


def data_spans_unstyled(text: Text, literal: str) -> None:
    """`literal` is in the text and no style span starts inside it (markup stayed text)."""
    start = text.plain.index(literal)
    assert not [s for s in text.spans if start < s.start < start + len(literal)]


def hostile_agent() -> AgentState:
    return AgentState(
        id="a1",
        parent_id=None,
        name=f"ev{TITLE}il",
        task=f"{CLEAR}[bold]x\bq\x00",
        status=AgentStatus.RUNNING,
        created_at=0.0,
    )


def narrative() -> NarrativeEntry:
    metadata = NarrativeMetadata(
        event_count=1, history_length=0, is_final=False, model="m", latency_ms=1.0
    )
    return NarrativeEntry(
        timestamp=0.0,
        agent_name=f"nar{MOVE}rator",
        task_id="a1",
        text=f"copied {CLIPBOARD} then {LINK} and [red]red[/red] safe\rOVER \u202edrow",
        metadata=metadata,
    )


def test_tree_label_shows_controls_and_markup_literally() -> None:
    label = agent_label(hostile_agent(), now=0.0, palette={})

    assert_harmless(label.plain)
    assert "ev␛]0;T␇il" in label.plain
    assert "␛[2J[bold]x␈q␀" in label.plain
    data_spans_unstyled(label, "[bold]x")


def test_narrator_line_shows_controls_and_markup_literally() -> None:
    line = render_narrative(narrative())

    assert_harmless(line.plain)
    assert "nar␛[5;5Hrator" in line.plain
    assert "␛]52;c;aGk=␇" in line.plain
    assert "␛]8;;http://x.test/␛\\go␛]8;;␛\\" in line.plain
    assert "safe␍OVER <U+202E>drow" in line.plain
    data_spans_unstyled(line, "[red]red[/red]")


class Widgets(App[None]):
    def compose(self) -> ComposeResult:
        yield AgentTree(clock=lambda: 0.0)
        yield MonologueSidebar()
        yield StatusBar()


def rendered(widget: Widget) -> str:
    strips = widget.render_lines(Region(0, 0, widget.size.width, widget.size.height))
    return "\n".join(strip.text for strip in strips)


async def test_widgets_on_screen_show_no_control_characters() -> None:
    model = RunState()
    model.last_error = (f"a{TITLE}1", f"the model said {MOVE}[blink]boom")
    app = Widgets()
    async with app.run_test(size=(160, 30)) as pilot:
        app.query_one(AgentTree).add_agents([hostile_agent()])
        app.query_one(MonologueSidebar).add([("a1", narrative())])
        app.query_one(StatusBar).show(
            model, f"prov{CLEAR}", "model\x07", now=None, notice=f"{LINK}[b]n"
        )
        await pilot.pause()
        tree = rendered(app.query_one(AgentTree))
        bar = rendered(app.query_one(StatusBar))
        (line,) = app.query_one(MonologueSidebar).query(".narrative")
        monologue = rendered(line)

    assert "ev␛]0;T␇il" in tree and "␛[2J[bold]x␈q␀" in tree
    assert "nar␛[5;5Hrator" in monologue and "␛]52;c;aGk=␇" in monologue
    assert "prov␛[2J" in bar and "model␇" in bar
    assert "␛]8;;http://x.test/␛\\go" in bar
    assert "a␛]0;T␇1: the model said ␛[5;5H[blink]boom" in bar
    for screen_text in (tree, bar, monologue):
        assert_harmless(screen_text.replace("\n", ""))


def test_a_tool_s_progress_leads_the_row_with_its_controls_visible() -> None:
    agent = hostile_agent()
    agent.tool_progress = f"docs__index: 2/3 {CLEAR}step"
    label = agent_label(agent, now=0.0, palette={}, width=200)

    assert_harmless(label.plain)
    assert "docs__index: 2/3 ␛[2Jstep · " in label.plain, "ahead of the task"
    agent.status = AgentStatus.PAUSED
    assert "docs__index" not in agent_label(agent, now=0.0, palette={}, width=200).plain
