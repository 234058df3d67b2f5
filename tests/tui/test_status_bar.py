"""The status line: what it counts, and what it keeps when the terminal is narrow."""

from __future__ import annotations

import pytest
from rich.cells import cell_len
from rich.text import Text
from textual.app import App, ComposeResult

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.usage import Usage
from agentui.core.state import AgentState, RunState
from agentui.tui.app.widgets.fitted_line import Piece, fit_line
from agentui.tui.app.widgets.status_bar import RunCounts, StatusBar

pytestmark = pytest.mark.anyio


class BarApp(App[None]):
    def compose(self) -> ComposeResult:
        yield StatusBar()


def run_of(*statuses: AgentStatus) -> RunState:
    model = RunState()
    for i, status in enumerate(statuses):
        agent = AgentState(id=f"a{i}", name=f"agent-{i}", task="t", status=status, created_at=0.0)
        model.agents[agent.id] = agent
    return model


S = AgentStatus
ENDINGS = (S.COMPLETED,) * 3 + (S.CANCELLED,) * 2 + (S.ERROR, S.DELETED, S.RUNNING)


def test_done_counts_only_what_completed() -> None:
    counts = RunCounts.of(run_of(*ENDINGS))

    assert (counts.done, counts.cancelled, counts.failed, counts.deleted) == (3, 2, 1, 1)


async def test_the_line_shows_cancelled_failed_and_deleted_apart_from_done() -> None:
    app = BarApp()
    async with app.run_test(size=(160, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(run_of(*ENDINGS), "prov", "m1", now=None)
        await pilot.pause()
        line = str(bar.render())
        assert "done 3  cancelled 2  failed 1  deleted 1" in line
        bar.show(run_of(S.COMPLETED), "prov", "m1", now=None)
        await pilot.pause()
        assert "cancelled" not in str(bar.render()), "only the endings there are"


NOTICE = "offline scripted model (no API key)"


def busy_run() -> RunState:
    """One agent running, two done, a narrator that spoke: the line at its longest."""
    model = run_of(S.RUNNING, S.COMPLETED, S.COMPLETED)
    model.agents["a0"].usage = Usage(input_tokens=2_000, output_tokens=1_029)
    model.agents["a0"].first_started_at = 10.0
    model.narrator_usage = Usage(input_tokens=1_000, output_tokens=570)
    return model


async def shown_at(width: int, model: RunState, **show: object) -> str:
    app = BarApp()
    async with app.run_test(size=(width, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(model, "scripted", "scripted-1", 100.0, NOTICE, **show)  # type: ignore[arg-type]
        await pilot.pause()
        line = str(bar.render())
    assert cell_len(line) <= width
    return line


async def test_the_provider_and_why_it_runs_stay_on_a_narrow_line() -> None:
    """The narrator's count gives way first; the tokens and the clock never do: the notice
    takes a shorter wording for them."""
    wide = await shown_at(140, busy_run())
    assert "running 1  waiting for you 0  done 2" in wide and "(+1,570 narrator)" in wide
    assert "1m30s" in wide and f"scripted scripted-1  {NOTICE}" in wide

    at_120 = await shown_at(120, busy_run())
    assert NOTICE in at_120 and "scripted-1" in at_120 and "1m30s" in at_120
    assert "3,029 tok" in at_120
    assert "narrator" not in at_120, "the least useful part went first"

    at_80 = await shown_at(80, busy_run())
    assert at_80 == " running 1  done 2  │ 3,029 tok  │ 1m30s  │ scripted  offline (no API key)"

    asking = busy_run()
    asking.agents["a0"].open_queries = ["q1"]
    at_80 = await shown_at(80, asking)
    assert "waiting for you 1  done 2  │ 3,029 tok  │ 1m30s" in at_80
    assert at_80.endswith("│ scripted  offline"), "scripted-1 went first"


async def test_a_lost_connection_stays_whole_on_a_narrow_line() -> None:
    alarm = "lost the connection to 10.0.0.7:8765"
    line = await shown_at(90, busy_run(), alarm=alarm)
    # The counts as the tree's glyphs outrank nothing else kept here; why the provider runs
    # goes; the tokens and the clock stay.
    assert line == f" ●1 ✓2  │ ⚠ {alarm}  │ 3,029 tok  │ 1m30s  │ scripted"
    at_80 = await shown_at(80, busy_run(), alarm=alarm)
    assert " ●1 ✓2  │ ⚠ lost the connection to…  │ " in at_80, "cut at a word's end, last"
    assert "│ 3,029 tok  │ 1m30s  │ scripted" in at_80, "what it cost is never dropped"


def many_endings_with_python_allowed() -> RunState:
    """The hands-on line: one running, one paused, five done, one cancelled, one deleted, and
    python always allowed."""
    model = run_of(S.RUNNING, S.PAUSED, *(S.COMPLETED,) * 5, S.CANCELLED, S.DELETED)
    model.agents["a0"].usage = Usage(input_tokens=20_000, output_tokens=4_321)
    model.agents["a0"].first_started_at = 10.0
    model.always_allowed = ["python"]
    return model


def answering() -> RunState:
    model = run_of(S.RUNNING, S.RUNNING, S.COMPLETED, S.COMPLETED)
    model.agents["a1"].open_queries = ["q1"]
    model.agents["a0"].usage = Usage(input_tokens=2_000, output_tokens=1_029)
    model.agents["a0"].first_started_at = 10.0
    return model


@pytest.mark.parametrize("width", [120, 80])
@pytest.mark.parametrize("run", [many_endings_with_python_allowed, answering])
async def test_why_the_provider_runs_is_never_cut_in_its_middle(width: int, run: object) -> None:
    """It gives way in whole wordings ('offline (no API key)', 'offline'); the tokens and
    the clock stay whole beside it."""
    line = await shown_at(width, run())  # type: ignore[operator]
    assert "…" not in line
    assert line.endswith((f"  {NOTICE}", "  offline (no API key)", "  offline")), line
    assert "running 1" in line or line.startswith(" ●1 "), "the counts stay, in words or glyphs"
    assert (" 24,321 tok  │ 1m30s" in line) or (" 3,029 tok  │ 1m30s" in line), line


async def test_the_tools_always_allowed_give_way_before_the_reason() -> None:
    at_120 = await shown_at(120, many_endings_with_python_allowed())
    assert at_120 == (
        " running 1  paused 1  done 5  cancelled 1  deleted 1  always allowed: python"
        "  │ 24,321 tok  │ 1m30s  │ scripted  offline"
    ), "the reason gives way to its tersest wording before the tokens or the clock go"
    # Five kinds of count in words do not fit 80 columns beside the provider: they are the
    # tree's glyphs, and the rest of the line keeps its longest wordings.
    at_80 = await shown_at(80, many_endings_with_python_allowed())
    assert at_80 == (" ●1 ‖1 ✓5 ⊘1 ⌫1  always: python  │ 24,321 tok  │ 1m30s  │ scripted  offline")
    answering_80 = await shown_at(80, answering())
    assert answering_80 == (
        " running 1  waiting for you 1  done 2  │ 3,029 tok  │ 1m30s  │ scripted  offline"
    )


def test_fitting_drops_whole_pieces_by_rank_and_cuts_only_what_is_kept() -> None:
    kept = Piece.kept(Text("counts 1 2 3"), Text("c123"), gives_way=(5,))
    early = Piece.dropped_at(Text(" | clock 12s"), gives_way=(1,))
    late = Piece.dropped_at(Text(" | provider why"), Text(" | provider"), gives_way=(2, 9))
    pieces = [kept, early, late]
    for width in range(1, 45):
        line = fit_line(pieces, width).plain
        assert len(line) <= width
        if len(line) < width - 1 or "…" not in line:
            # Each piece shows one of its forms whole, or not at all.
            assert line in {
                a + b + c
                for a in ("counts 1 2 3", "c123")
                for b in (" | clock 12s", "")
                for c in (" | provider why", " | provider", "")
            }
    assert fit_line(pieces, 44).plain == "counts 1 2 3 | clock 12s | provider why"
    assert fit_line(pieces, 30).plain == "counts 1 2 3 | provider why", "the clock went first"
    assert fit_line(pieces, 24).plain == "counts 1 2 3 | provider"
    assert fit_line(pieces, 12).plain == "counts 1 2 3"
    assert fit_line(pieces, 3).plain == "c1…", "only what is always kept is cut, at the end"


RESUMED = "resumed 20261124T101010Z-ab12: 2 interrupted agents"


@pytest.mark.parametrize("width", [160, 120, 80])
async def test_a_resumed_session_s_notice_is_whole_where_it_fits_and_never_cut_mid_id(
    width: int,
) -> None:
    app = BarApp()
    async with app.run_test(size=(width, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(run_of(S.COMPLETED), "scripted", "scripted-1", 20.0, f"{NOTICE} · {RESUMED}")
        await pilot.pause()
        line = str(bar.render())
    if width == 160:
        assert line.endswith(f"{NOTICE} · {RESUMED}")
    if width == 80:
        assert "resumed: 2 interrupted agents" in line, "what the resume found outlasts the id"
    assert "20261124T101010Z-ab12" in line or "2026" not in line, "the id whole or not at all"


async def test_the_clock_stops_when_no_agent_is_live() -> None:
    """It says how long the run took; a session resumed with nothing live does not count the
    time it was closed, and nothing ticks on."""
    from agentui.core.providers.scripted.script import Script, Turn

    from .helpers import make_app, settle

    app = make_app("Say hi", Script.for_all(Turn(text="hi")))
    async with app.run_test(size=(160, 30)) as pilot:
        await settle(pilot, lambda: any(a.status.is_final for a in app.main.model.agents.values()))
        app.main.refresh_status()
        before = str(app.main.status_view.render())
        app.clock.advance(3600)  # type: ignore[attr-defined]
        app.main.tick()  # the once-a-second tick
        await pilot.pause()
        assert str(app.main.status_view.render()) == before
        app.main.refresh_status()  # a flush
        assert str(app.main.status_view.render()) == before
        assert "1h" not in before


LONG_NOTICE = (
    "ANTHROPIC_API_KEY from the environment · resumed 20261124T101010Z-ab12: 2 interrupted agents"
)


def costly_run() -> RunState:
    """The hands-on line that lost its tokens and clock: running 2, done 2, cancelled 1,
    deleted 1, python always allowed, and a run that cost money."""
    model = run_of(S.RUNNING, S.RUNNING, S.COMPLETED, S.COMPLETED, S.CANCELLED, S.DELETED)
    model.agents["a0"].usage = Usage(input_tokens=1_000_000, output_tokens=234_567)
    model.agents["a0"].cost_usd = 12.34
    model.agents["a0"].first_started_at = 10.0
    model.always_allowed = ["python"]
    return model


@pytest.mark.parametrize("width", [80, 100, 120, 160])
async def test_what_the_run_cost_and_its_clock_are_always_whole(width: int) -> None:
    app = BarApp()
    async with app.run_test(size=(width, 5)) as pilot:
        bar = app.query_one(StatusBar)
        bar.show(costly_run(), "anthropic", "claude-sonnet-4-5", 100.0, LONG_NOTICE)
        await pilot.pause()
        line = str(bar.render())
    assert cell_len(line) <= width
    assert "  │ 1,234,567 tok $12.34  │ 1m30s  │ anthropic" in line, line
    assert "…" not in line or line.index("…") > line.index("anthropic"), "only words are cut"


async def test_a_session_that_stopped_saving_stays_beside_what_the_run_cost() -> None:
    from agentui.core.protocol.events import SessionLogFailed

    model = costly_run()
    model.session_log_failed = SessionLogFailed(
        seq=9,
        ts=50.0,
        agent_id="",
        path="/home/me/.local/share/agentui/sessions/x.jsonl",
        error="cannot write /home/me/.local/share/agentui/sessions/x.jsonl: Read-only file system",
        reason="Read-only file system",
    )
    at_300 = await shown_at(300, model)
    assert (
        "│ ⚠ not saving the session: cannot write /home/me/.local/share/agentui/sessions/"
        "x.jsonl: Read-only file system · the run goes on" in at_300
    )
    at_120 = await shown_at(120, model)
    assert "│ ⚠ not saving" in at_120 and "│ 1,234,567 tok $12.34  │ 1m30s" in at_120
    at_80 = await shown_at(80, model)
    assert "│ ⚠ not saving" in at_80 and "│ 1.2M tok $12.34  │ 1m30s" in at_80, "rounded, not cut"
