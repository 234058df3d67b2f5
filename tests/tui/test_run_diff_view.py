"""Two agents side by side in the app (screens/run_diff.py): reached from the palette's
"Compare with…" (a fork's origin offered first) and from a fork's steps window, their steps
aligned as `agentui diff` aligns them, the first divergence marked and scrolled to; two agents
that did the same work say so; letters typed in the window act on nothing. The session is
saved to a temporary directory (the window reads its log); the scripted model at pace 0 and a
frozen clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, Static

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.run_diff import diff_agents
from agentui.core.session.run_outline import AgentOutline, StepContent
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry
from agentui.tui.app.agent_comparison import COMPARE_WITH, open_comparison
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.run_diff import NO_DIFFERENCE, ComparisonScreen
from agentui.tui.app.screens.time_travel import TimeTravelScreen
from agentui.tui.app.widgets.step_pairs import MAX_ROWS, StepPairs, rows_of

from .helpers import has_status, make_app, runtime_of, settle, toasts
from .test_provider_switch import choose
from .test_time_travel import SENTENCE, TOOLS

pytestmark = pytest.mark.anyio

COUNTS = 8  # tally calls before the answer: the divergence is below the first screenful


def _tally(n: int) -> Turn:
    return Turn(text=f"Counting table {n}.", tool_calls=[ScriptedToolCall(name="tally",
                arguments={"n": n})])  # fmt: skip


# main counts every table then answers; its fork from step 1 (after the first count's call)
# counts the rest as main did, then answers otherwise: the two part at the last answer.
FORKED = Script(
    agents={
        "main": [*(_tally(n) for n in range(1, COUNTS + 1)), Turn(text="42 guests.")],
        "main~1": [*(_tally(n) for n in range(2, COUNTS + 1)), Turn(text="41 guests.")],
    }
)
SAME_TWICE = Script.for_all(_tally(1), Turn(text="42 guests."))


def recording_app(script: Script, sessions: Path) -> AgentUIApp:
    """The app on the zero-delay scripted model, its session saved under `sessions`."""
    clock = FrozenClock()

    def runtime() -> Runtime:
        writer = SessionWriter(NewSession("scripted", "scripted-1", directory=sessions))
        tools = ToolRegistry([ASK_USER, *TOOLS])
        provider = ScriptedProvider(script, pace_s=0)
        return RecordingRuntime(provider, session=writer, tools=tools, clock=clock)

    return AgentUIApp(
        runtime,  # type: ignore[arg-type]
        initial_task="Count the guests",
        clock=clock,
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )


async def forked(pilot: Pilot[int]) -> tuple[AgentUIApp, str]:
    """main done, then forked from its step 1 and the fork done too, the fork selected."""
    app = pilot.app
    assert isinstance(app, AgentUIApp)
    runtime = await runtime_of(pilot)
    await settle(pilot, has_status(app, "a1", S.COMPLETED))
    fork = runtime.fork_from("a1", 1)
    app.main.select_when_shown(fork)
    await settle(pilot, has_status(app, fork, S.COMPLETED))
    await settle(pilot, lambda: app.main.selected_id == fork)
    app.main.tree_view.focus()
    await pilot.pause()
    return app, fork


def compared(app: AgentUIApp) -> bool:
    """The comparison window is up and has drawn its steps."""
    screen = app.screen
    return isinstance(screen, ComparisonScreen) and screen.diff is not None


def said(screen: ComparisonScreen) -> str:
    return str(screen.query_one("#verdict", Static).render())


def marked(row: str, mark: str, words: str) -> bool:
    return row.lstrip().startswith(mark) and words in row


def rows(screen: ComparisonScreen) -> list[str]:
    pairs = screen.query_one(StepPairs)
    return [
        "".join(segment.text for segment in pairs.render_line(y))
        for y in range(pairs.scrollable_content_region.height)
    ]


async def test_compare_from_the_palette_after_a_fork_marks_where_they_part(
    tmp_path: Path,
) -> None:
    app = recording_app(FORKED, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app, _ = await forked(pilot)
        titles = [command.title for command in app.commands.palette([])]
        assert COMPARE_WITH in titles

        app.action_command_palette()
        await choose(pilot, "Compare with")
        offered = await choose(pilot, "main", opens_another=False)
        assert offered[0].startswith("main\nits origin (main@1)"), "the origin, said so"
        await settle(pilot, lambda: compared(app))

        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        diff = screen.diff
        assert diff is not None and diff.a is not None and diff.b is not None
        assert (diff.a.name, diff.b.name) == ("main", "main~1"), "the origin on the left"
        assert diff.fork_point == (1, 0)
        first = diff.diverges_at
        assert first == len(diff.pairs) - 1 > 10, "the counts are the same, the answers not"
        assert "▶ main@" in said(screen) and "differ" in said(screen)
        pairs = screen.query_one(StepPairs)
        assert pairs.highlighted == first
        # Scrolled down to it: the window shows the end of the list, not its beginning.
        await settle(pilot, lambda: any(marked(row, "▶", "42 guests.") for row in rows(screen)))
        assert pairs.scroll_offset.y > 0
        assert all("▶" not in row for row in rows(screen) if "Counting" in row)
        detail = str(screen.query_one("#detail", Static).render())
        assert detail == "A main@17 model: 42 guests.\nB main~1@16 model: 41 guests."

        await pilot.press("up", "up")  # main@15: a count, its call's arguments under the list
        detail = str(screen.query_one("#detail", Static).render())
        assert 'A main@15 model: Counting table 8. · tally {"n": 8}' in detail
        assert 'B main~1@14 model: Counting table 8. · tally {"n": 8}' in detail

        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is app.main)


async def test_a_forks_steps_window_compares_it_with_its_origin(tmp_path: Path) -> None:
    app = recording_app(FORKED, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        app, _ = await forked(pilot)
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))
        steps = app.screen
        button = steps.query_one("#compare", Button)
        button.focus()
        await pilot.press("enter")
        await settle(pilot, lambda: compared(app))
        assert app.screen.diff.diverges_at is not None  # type: ignore[attr-defined]

        await pilot.press("escape")
        await settle(pilot, lambda: app.screen is steps)  # back to the steps


async def test_no_compare_button_for_an_agent_that_is_no_fork(tmp_path: Path) -> None:
    app = recording_app(FORKED, tmp_path)
    async with app.run_test(size=(100, 30)) as pilot:
        await forked(pilot)
        app.main.select("a1")
        await pilot.pause()
        await pilot.press("w")
        await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))
        assert not app.screen.query("#compare")


async def test_two_agents_that_did_the_same_work_say_no_difference(tmp_path: Path) -> None:
    app = recording_app(SAME_TWICE, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        again = runtime.start("Count the guests")
        await settle(pilot, has_status(app, again, S.COMPLETED))
        open_comparison(app, "a1", again)
        await settle(pilot, lambda: compared(app))

        screen = app.screen
        assert isinstance(screen, ComparisonScreen)
        assert screen.diff is not None and screen.diff.diverges_at is None
        assert NO_DIFFERENCE in said(screen)
        assert all("▶" not in row and "≠" not in row for row in rows(screen))


async def test_letters_typed_in_the_window_act_on_nothing(tmp_path: Path) -> None:
    app = recording_app(FORKED, tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        app, fork = await forked(pilot)
        open_comparison(app, fork, "a1")
        await settle(pilot, lambda: compared(app))
        screen = app.screen
        highlighted = screen.query_one(StepPairs).highlighted

        await pilot.press(*"pcdmywrq", *SENTENCE)

        assert app.screen is screen
        assert screen.query_one(StepPairs).highlighted == highlighted
        assert [a.status for a in app.main.model.agents.values()] == [S.COMPLETED, S.COMPLETED]
        assert list(app.main.model.agents) == ["a1", fork], "no fork, no delete"
        assert not toasts(app)


async def test_a_run_that_saves_no_log_says_there_is_nothing_to_compare() -> None:
    app = make_app("Count the guests", SAME_TWICE, tools=TOOLS)
    async with app.run_test(size=(80, 24)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        again = runtime.start("Count the guests")
        await settle(pilot, has_status(app, again, S.COMPLETED))
        open_comparison(app, "a1", again)
        await settle(pilot, lambda: "no session log" in said(app.screen))  # type: ignore[arg-type]
        assert isinstance(app.screen, ComparisonScreen) and app.screen.diff is None


def _outline(name: str, steps: int, parts_at: int, mark: str) -> AgentOutline:
    """An agent of `steps` model steps whose words end in `mark` from step `parts_at` on."""
    agent = AgentOutline(name, name, None, "count")
    agent.steps = [
        StepContent(n, "model", f"step {n}", f"words {n}" + (mark if n >= parts_at else ""))
        for n in range(steps)
    ]
    return agent


def test_a_long_comparison_is_cut_to_a_list_that_fills_at_once() -> None:
    """Past MAX_ROWS pairs, runs of the same work are one row and the list ends with what it
    leaves out; the first divergence keeps its row and its mark."""
    diff = diff_agents(_outline("main", 5_000, 4_000, "!"), _outline("main~1", 5_000, 4_000, "?"))
    shown, first = rows_of(diff)
    assert len(shown) == MAX_ROWS
    assert first == 1, "4,000 steps of the same work are one row before it"
    assert shown[0].left.plain == "#0–3999 the same work (4,000 steps)"
    assert shown[first].mark.plain == "▶" and shown[first].left.plain.startswith("#4000")
    assert shown[2].mark.plain == "≠"
    assert shown[-1].left.plain == "… 702 more steps (agentui diff --json has them all)"

    small = diff_agents(_outline("main", 40, 30, "!"), _outline("main~1", 40, 30, "?"))
    shown, first = rows_of(small)
    assert len(shown) == len(small.pairs) == 40 and first == small.diverges_at == 30
