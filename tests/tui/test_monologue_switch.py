"""The monologue's lines keep their heights per narrative (NarrativeHeights): a switch of the
filter rebinds the lines shown to other narratives without wrapping each again, and lines a
switch left over are hidden for the next one, not removed. A line is as tall as its text at
its width, whatever it showed before, at any width and in any theme."""

from __future__ import annotations

import pytest
from textual.app import App, ComposeResult

from agentui.core.protocol.narrative import NarrativeEntry, NarrativeMetadata
from agentui.tui.app.widgets.monologue import MonologueSidebar, NarrativeHeights, NarrativeLine

pytestmark = pytest.mark.anyio

METADATA = NarrativeMetadata(
    event_count=4, history_length=0, is_final=False, model="scripted", latency_ms=1.0
)


def narrative(agent_id: str, text: str) -> NarrativeEntry:
    return NarrativeEntry(
        timestamp=0.0, agent_name=agent_id, task_id=agent_id, text=text, metadata=METADATA
    )


class MonologueApp(App[None]):
    def compose(self) -> ComposeResult:
        yield MonologueSidebar()


def lines_shown(sidebar: MonologueSidebar) -> list[NarrativeLine]:
    return [line for line in sidebar.query(NarrativeLine) if line.display]


def heights(sidebar: MonologueSidebar) -> list[int]:
    return [line.size.height for line in lines_shown(sidebar)]


async def test_a_line_rebound_to_a_longer_narrative_is_as_tall_as_its_text() -> None:
    short = [("a1", narrative("a1", "short")), ("a2", narrative("a2", "brief"))]
    long = ("a2", narrative("a2", " ".join(["words that wrap"] * 12)))
    app = MonologueApp()
    async with app.run_test(size=(40, 40)) as pilot:
        sidebar = app.query_one(MonologueSidebar)
        sidebar.show([*short, long], None)
        await pilot.pause()
        tall = heights(sidebar)[-1]
        assert tall > 2, "the long narrative wraps"
        sidebar.show(short, None)  # the same lines now show the short ones
        await pilot.pause()
        assert heights(sidebar) == [2, 2]
        sidebar.show([short[0], long], None)  # the second line is given the long one
        await pilot.pause()
        assert heights(sidebar) == [2, tall]


async def test_the_heights_are_measured_again_at_another_width() -> None:
    story = [("a1", narrative("a1", " ".join(["a narrative that wraps"] * 6)))]
    app = MonologueApp()
    async with app.run_test(size=(60, 30)) as pilot:
        sidebar = app.query_one(MonologueSidebar)
        sidebar.show(story, None)
        await pilot.pause()
        wide = heights(sidebar)
        await pilot.resize_terminal(30, 30)
        await pilot.pause()
        narrow = heights(sidebar)
        assert narrow[0] > wide[0], "narrower, the text wraps onto more lines"
        await pilot.resize_terminal(60, 30)
        await pilot.pause()
        assert heights(sidebar) == wide


async def test_a_theme_change_keeps_the_lines_as_tall_as_their_text() -> None:
    story = [("a1", narrative("a1", " ".join(["a narrative that wraps"] * 6)))]
    app = MonologueApp()
    async with app.run_test(size=(40, 30)) as pilot:
        sidebar = app.query_one(MonologueSidebar)
        sidebar.show(story, None)
        await pilot.pause()
        before = heights(sidebar)
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        (line,) = lines_shown(sidebar)
        assert heights(sidebar) == before
        assert line.render_lines(line.region.reset_offset)[0].text.startswith("a1")


async def test_a_switch_to_fewer_lines_hides_the_rest_and_the_switch_back_mounts_none() -> None:
    story = [(f"a{n % 3}", narrative(f"a{n % 3}", f"line {n}")) for n in range(30)]
    app = MonologueApp()
    async with app.run_test(size=(60, 30)) as pilot:
        sidebar = app.query_one(MonologueSidebar)
        sidebar.show(story, None)
        await pilot.pause()
        mounted = set(sidebar.query(NarrativeLine))
        sidebar.show(story, "a1")
        await pilot.pause()
        assert [line.entry.text for line in lines_shown(sidebar)] == [
            e.text for a, e in story if a == "a1"
        ]
        sidebar.show(story, None)
        await pilot.pause()
        assert set(sidebar.query(NarrativeLine)) == mounted, "no line mounted or removed"
        assert [line.entry.text for line in lines_shown(sidebar)] == [e.text for _, e in story]
        # A narrative added under a filter takes a hidden line, in its place below the others.
        sidebar.show(story, "a1")
        late = narrative("a1", "late")
        sidebar.add([("a1", late)])
        await pilot.pause()
        assert lines_shown(sidebar)[-1].entry is late
        assert set(sidebar.query(NarrativeLine)) == mounted


def test_heights_are_kept_per_narrative_and_width_and_the_oldest_go_first() -> None:
    kept = NarrativeHeights(kept=2)
    first, second, third = (narrative("a", t) for t in ("one", "two", "three"))
    kept.put(first, 20, 3)
    kept.put(first, 30, 2)
    kept.put(second, 20, 4)
    assert (kept.get(first, 20), kept.get(first, 30), kept.get(first, 40)) == (3, 2, None)
    kept.put(third, 20, 5)
    assert kept.get(first, 20) is None and kept.get(second, 20) == 4 and len(kept) == 2
