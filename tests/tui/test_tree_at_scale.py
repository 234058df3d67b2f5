"""The agent tree, status bar and GC policy keep per-change and per-tick work to what is on screen."""

from __future__ import annotations

import gc
import platform
from collections.abc import Callable

import pytest
from textual.app import App, ComposeResult
from textual.geometry import Region

from agentui.core.agent.tree import AgentStatus
from agentui.core.state import AgentState, RunState
from agentui.tui.app.heap_release import RELEASE_AFTER_EVENTS, HeapRelease
from agentui.tui.app.widgets.agent_tree import AgentTree
from agentui.tui.app.widgets.status_bar import StatusBar
from agentui.tui.cli import gc_policy
from agentui.tui.cli.gc_policy import BURST, CollectorPolicy

pytestmark = pytest.mark.anyio

ROWS = 10  # the tree's height on screen


class CountingTree(AgentTree):
    """Notes which agents' rows were drawn."""

    def __init__(self) -> None:
        super().__init__(clock=lambda: 100.0)
        self.drawn: list[str] = []

    def render_label(self, node, base_style, style):  # type: ignore[no-untyped-def]
        if node.data is not None:
            self.drawn.append(node.data)
        return super().render_label(node, base_style, style)


class TreeApp(App[None]):
    CSS = f"CountingTree {{ height: {ROWS}; }}"

    def compose(self) -> ComposeResult:
        yield CountingTree()
        yield StatusBar()


def agents(count: int) -> list[AgentState]:
    return [
        AgentState(
            id=f"a{i}",
            name=f"agent-{i}",
            task=f"task {i}",
            status=AgentStatus.RUNNING,
            created_at=0.0,
            first_started_at=40.0,
        )
        for i in range(count)
    ]


def screen_text(tree: AgentTree) -> str:
    strips = tree.render_lines(Region(0, 0, tree.size.width, tree.size.height))
    return "\n".join(strip.text for strip in strips)


async def test_a_changed_agent_shows_its_new_label_without_a_tick() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 20)) as pilot:
        tree = app.query_one(CountingTree)
        (agent,) = agents(1)
        tree.add_agents([agent])
        await pilot.pause()
        assert "● agent-0" in screen_text(tree)
        agent.status = AgentStatus.PAUSED
        tree.relabel([agent])
        await pilot.pause()
        assert "‖ agent-0" in screen_text(tree)
        assert "‖ agent-0" in str(tree._agent_nodes["a0"].label)  # what readers of a node see


@pytest.mark.painted
async def test_a_row_off_screen_is_not_drawn_until_it_is_shown_and_then_is_fresh() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 20)) as pilot:
        tree = app.query_one(CountingTree)
        many = agents(100)
        tree.add_agents(many)
        await pilot.pause()
        last = many[-1]
        tree.drawn.clear()
        last.status = AgentStatus.PAUSED
        tree.relabel([last])
        await pilot.pause()
        assert last.id not in tree.drawn
        tree.scroll_end(animate=False)
        await pilot.pause()
        assert last.id in tree.drawn
        assert "‖ agent-99" in screen_text(tree)


@pytest.mark.painted
async def test_a_tick_draws_only_the_visible_rows_and_adding_draws_no_label() -> None:
    app = TreeApp()
    async with app.run_test(size=(60, 20)) as pilot:
        tree = app.query_one(CountingTree)
        tree.drawn.clear()
        tree.add_agents(agents(1000))
        await pilot.pause()
        assert len(set(tree.drawn)) <= ROWS  # widths come from the last drawing, not a render
        tree.drawn.clear()
        tree.tick()
        await pilot.pause()
        assert 0 < len(tree.drawn) <= ROWS
        assert "1m00s" in screen_text(tree)  # started at 40, the clock says 100


async def test_the_status_bar_tick_moves_only_the_clock() -> None:
    app = TreeApp()
    async with app.run_test(size=(120, 20)) as pilot:
        bar = app.query_one(StatusBar)
        model = RunState()
        for agent in agents(3):
            model.agents[agent.id] = agent
        model.agents["a2"].status = AgentStatus.PAUSED
        bar.show(model, "prov", "m1", now=45.0)
        await pilot.pause()
        assert "running 2  paused 1" in str(bar.render())
        assert "│ 5s" in str(bar.render())
        model.agents["a0"].status = AgentStatus.COMPLETED  # not counted again by a tick
        bar.tick(now=100.0)  # first start 40
        await pilot.pause()
        assert "│ 1m00s" in str(bar.render())
        assert "running 2  paused 1" in str(bar.render())


def frozen(objects: list[list[object]]) -> list[bool]:
    """Whether each object is in the collector's permanent generation. Asked of the objects
    themselves: the frozen count also falls whenever a frozen object is freed (another
    thread's, a test's before), which made a count compared before and after flaky."""
    collected = {id(o) for o in gc.get_objects()}  # every generation but the permanent one
    return [id(o) not in collected for o in objects]


def test_the_gc_policy_freezes_a_burst_and_gives_everything_back(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(gc_policy, "POLICY_ON", True)  # the suite runs apps without it
    thresholds, collecting = gc.get_threshold(), gc.isenabled()
    policy = CollectorPolicy()
    policy.install()
    try:
        assert gc.get_threshold() != thresholds
        # The suite keeps its heap frozen (tests/conftest.py): what counts is whether these
        # objects, made since, are moved there. No collection meanwhile: a slow one would
        # freeze them too (the policy's own rule, not the burst's).
        gc.disable()
        made_since = [[] for _ in range(100)]
        policy.after_batch(agents_added=BURST - 1, events=10)
        assert policy.freezes == 0 and not any(frozen(made_since))
        policy.after_batch(agents_added=BURST, events=10)
        assert policy.freezes == 1 and all(frozen(made_since))
    finally:
        if collecting:
            gc.enable()
        policy.close()
    assert gc.get_freeze_count() == 0
    assert gc.get_threshold() == thresholds
    assert policy._observe not in gc.callbacks


def test_freed_memory_goes_back_after_enough_events() -> None:
    trims: list[int] = []
    heap = HeapRelease(malloc_trim=lambda pad: trims.append(pad) or 1)
    heap.folded(RELEASE_AFTER_EVENTS - 1)
    heap.every_second()
    assert trims == [], "too few events to have freed much"
    heap.folded(1)
    heap.every_second()
    assert trims == [0]
    heap.every_second()
    assert trims == [0], "nothing new since"


def test_malloc_trim_is_looked_up_at_the_first_release_without_a_subprocess(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Not at start-up (ctypes is not needed for the first frame), and not by searching for the
    C library (find_library runs ldconfig): the process's own symbols have it."""
    import subprocess

    import agentui.tui.app.heap_release as heap_release

    def no_subprocess(*args: object, **kwargs: object) -> None:
        raise AssertionError("malloc_trim is found without running a program")

    monkeypatch.setattr(subprocess, "Popen", no_subprocess)
    found = heap_release._find_malloc_trim()
    if platform.libc_ver()[0] == "glibc":
        assert found is not None
    looked_up: list[bool] = []
    trims: list[int] = []

    def find() -> Callable[[int], int]:
        looked_up.append(True)
        return lambda pad: trims.append(pad) or 1

    monkeypatch.setattr(heap_release, "_find_malloc_trim", find)
    heap = HeapRelease()
    heap.folded(RELEASE_AFTER_EVENTS - 1)
    heap.every_second()
    assert looked_up == []
    heap.folded(1)
    heap.every_second()
    heap.folded(RELEASE_AFTER_EVENTS)
    heap.every_second()
    assert (looked_up, trims) == ([True], [0, 0])


def test_each_agent_is_in_one_count_so_the_counts_add_up() -> None:
    """A paused agent that waits for an answer is counted once (it was paused and waiting)."""
    from agentui.tui.app.widgets.status_bar import RunCounts

    model = RunState()
    waiting, running, paused, done = agents(4)
    waiting.status = AgentStatus.PAUSED
    waiting.open_queries = ["q1", "q2"]  # two questions: still one agent
    paused.status = AgentStatus.PAUSED
    done.status = AgentStatus.COMPLETED
    model.agents = {a.id: a for a in (waiting, running, paused, done)}

    counts = RunCounts.of(model)

    assert (counts.waiting, counts.running, counts.paused, counts.done) == (1, 1, 1, 1)
