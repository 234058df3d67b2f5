"""The palette's "Compare runs…" (run_comparison.py, screens/runs_diff.py): `agentui diff A B`
in the app. Two saved runs picked one after the other when the app has no session of its own,
or a saved run beside this one; agents matched as `agentui diff` matches them, each agent's
steps aligned with the first divergence marked `▶`, ← → between agents, scenes round by
round; a log that cannot be read said once. Sessions are made by the scripted model at pace 0
(tests/tui/saved_runs.py)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.widgets import Static

from agentui.core.agent.tree import AgentStatus
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.session.run_outline import RunOutline
from agentui.tui.app import run_comparison
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.run_comparison import (
    COMPARE_RUNS,
    COMPARE_RUNS_HELP,
    COMPARE_SAVED_HELP,
    TWO_SAVED,
)
from agentui.tui.app.screens.runs_diff import RunsComparisonScreen
from agentui.tui.app.widgets.round_pairs import RoundPairs
from agentui.tui.app.widgets.step_pairs import StepPairs

from .helpers import has_status, make_app, settle
from .saved_runs import (
    LEFT,
    NEW,
    OLD,
    RIGHT,
    echo,
    saved_answered_run,
    saved_run,
    saved_scene,
    sessions_folder,
)
from .test_provider_switch import choose
from .test_run_diff_view import recording_app

pytestmark = pytest.mark.anyio


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    return sessions_folder(tmp_path, monkeypatch)


def compared(app: AgentUIApp) -> bool:
    screen = app.screen
    return isinstance(screen, RunsComparisonScreen) and screen.result is not None


def shown(screen: RunsComparisonScreen, widget: str) -> str:
    return str(screen.query_one(widget, Static).render())


def drawn(screen: RunsComparisonScreen, widget: str) -> str:
    """What a widget draws, line by line (a table's render is not its text)."""
    view = screen.query_one(widget, Static)
    return "\n".join(
        "".join(segment.text for segment in view.render_line(y)) for y in range(view.size.height)
    )


def listed(app: AgentUIApp) -> list[str]:
    commands = app.screen.query_one(CommandList)
    return [str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)]


async def pick_two(app: AgentUIApp, pilot: object, first: str, second: str) -> None:
    """The palette's Compare runs…, then the two sessions, A then B."""
    app.action_command_palette()
    await choose(pilot, COMPARE_RUNS.rstrip("…"))  # type: ignore[arg-type]
    await choose(pilot, first)  # type: ignore[arg-type]
    await choose(pilot, second, opens_another=False)  # type: ignore[arg-type]
    await settle(pilot, lambda: compared(app))  # type: ignore[arg-type]


async def test_two_saved_runs_picked_from_the_palette_are_compared_per_agent(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    readers: list[int] = []  # the threads the logs are read in
    outline = run_comparison.saved_outline

    def watched(path: Path) -> tuple[RunOutline, str]:
        readers.append(threading.get_ident())
        return outline(path)

    monkeypatch.setattr(run_comparison, "saved_outline", watched)
    await saved_run(folder, OLD, LEFT)
    await saved_run(folder, NEW, RIGHT)
    app = make_app()  # no session of its own: two saved runs are picked
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        offered = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert offered[COMPARE_RUNS] == COMPARE_SAVED_HELP, "no run of its own here"
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        assert len(readers) == 2 and threading.get_ident() not in readers, "off the loop"

        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        assert OLD in shown(screen, "#runs") and NEW in shown(screen, "#runs")
        assert shown(screen, "#overall") == "First divergence: main@3 and main@3 differ"
        assert "Agent 1 of 1: main" in shown(screen, "#page")
        figures = drawn(screen, "#figures")
        assert figures.count("completed") == 2 and "tok" in figures
        assert shown(screen, "#verdict") == "▶ main@3 and main@3 differ"
        pairs = screen.query_one(StepPairs)
        assert pairs.highlighted == 3, "the first divergence, highlighted"
        assert 'A main@3 model: Echoing. · echo {"text": "left"}' in shown(screen, "#detail")
        assert 'B main@3 model: Echoing. · echo {"text": "right"}' in shown(screen, "#detail")

        await pilot.press("x", "q")  # letters act on nothing here
        assert app.screen is screen
        await pilot.press("escape")
        assert not isinstance(app.screen, RunsComparisonScreen)


async def test_this_run_is_compared_with_a_saved_one_or_two_saved_ones(folder: Path) -> None:
    await saved_run(folder, OLD, LEFT)
    await saved_run(folder, NEW, RIGHT)
    app = recording_app(LEFT, folder)  # this run saves its session into the same folder
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, has_status(app, "a1", AgentStatus.COMPLETED))
        offered = {c.title: c.help for c in app.get_system_commands(app.screen)}
        assert offered[COMPARE_RUNS] == COMPARE_RUNS_HELP
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await settle(pilot, lambda: len(listed(app)) == 3)
        rows = listed(app)
        assert rows[0] == TWO_SAVED, "two saved runs instead, offered first"
        assert [row.split(" · ")[0] for row in rows[1:]] == [NEW, OLD], "not this run's own"
        await choose(pilot, OLD[-4:], opens_another=False)
        await settle(pilot, lambda: compared(app))
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        assert shown(screen, "#runs").endswith("(this run)"), "this run is B"
        # The same script, another task: they part at the task, step 0.
        assert shown(screen, "#overall") == "First divergence: main@0 and main@0 differ"

        await pilot.press("escape")
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await choose(pilot, "instead")
        await choose(pilot, OLD[-4:])
        await choose(pilot, NEW[-4:], opens_another=False)
        await settle(pilot, lambda: compared(app))
        assert shown(app.screen, "#overall") == "First divergence: main@3 and main@3 differ"  # type: ignore[arg-type]


async def test_an_agent_only_one_run_has_is_where_they_part_and_arrows_turn_pages(
    folder: Path,
) -> None:
    await saved_run(folder, OLD, LEFT)
    await saved_run(folder, NEW, LEFT, roots=2)  # the same main, and a second root
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        assert shown(screen, "#overall") == "First divergence: main-2 is only in B"
        assert "Agent 2 of 2: main-2" in shown(screen, "#page"), "opened where they part"
        assert shown(screen, "#verdict") == "▶ main-2 is only in B"
        assert "(not in A)" in drawn(screen, "#figures")
        assert "A (no such step)" in shown(screen, "#detail")

        await pilot.press("right")  # round and round: the first agent again
        assert "Agent 1 of 2: main" in shown(screen, "#page")
        assert shown(screen, "#verdict") == "The same work: no step differs."
        await pilot.press("left")
        assert "Agent 2 of 2: main-2" in shown(screen, "#page")


async def test_scenes_open_on_their_rounds_and_mark_the_first_that_differs(
    folder: Path,
) -> None:
    await saved_scene(folder, OLD, ["Good evening.", "The fog lifts.", None])
    await saved_scene(folder, NEW, ["Good evening.", "A ship comes in.", None])
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        assert shown(screen, "#page").startswith("◀ Rounds ▶")
        assert shown(screen, "#verdict") == "▶ round 2 differs"
        rounds = screen.query_one(RoundPairs)
        assert rounds.display and not screen.query_one(StepPairs).display
        assert rounds.highlighted == 1
        detail = shown(screen, "#detail")
        assert "A round 2 closed: The fog lifts. · Tomas (completed):" in detail
        assert "B round 2 closed: A ship comes in." in detail

        await pilot.press("right")  # the scene's first agent
        assert "Agent 1 of" in shown(screen, "#page") and "harbour" in shown(screen, "#page")
        assert screen.query_one(StepPairs).display and not rounds.display
        await pilot.press("left", "left")  # round and round: the last agent
        assert "Agent" in shown(screen, "#page")
        await pilot.press("right")
        assert shown(screen, "#page").startswith("◀ Rounds ▶")


async def test_a_log_that_cannot_be_read_is_said_once(folder: Path) -> None:
    await saved_run(folder, OLD, LEFT)
    (folder / f"{NEW}.jsonl").write_bytes(b"")  # no header: not a session file
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await choose(pilot, OLD[-4:])
        await choose(pilot, NEW[-4:], opens_another=False)
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        await settle(pilot, lambda: "Cannot compare" in shown(screen, "#overall"))
        said = shown(screen, "#overall")
        assert said.startswith(f"Cannot compare: run B ({NEW}): ") and "not a session file" in said
        assert said.count("Cannot") == 1 and screen.result is None


async def test_damaged_lines_are_said_beside_the_comparison(folder: Path) -> None:
    await saved_run(folder, OLD, LEFT)
    path = await saved_run(folder, NEW, LEFT)
    header, *events = path.read_bytes().splitlines(keepends=True)
    damaged = [b'{"type": "agent:spawned", "seq": \xff\n', b"not json\n"]
    path.write_bytes(b"".join([header, *damaged, *events]))
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        assert f"B: {NEW}: 2 damaged lines skipped" in shown(screen, "#overall")


async def test_with_no_saved_run_the_palette_says_where_they_would_be(folder: Path) -> None:
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        palette = app.screen
        assert isinstance(palette, CommandPalette)
        await settle(pilot, lambda: bool(listed(app)))
        assert listed(app)[0].startswith("No other saved run (they are kept in ")


async def test_long_steps_are_cut_and_the_keys_hint_stays_whole_at_80x24(folder: Path) -> None:
    long = "fog " * 80  # far wider than the window: cut with …, never wrapped
    await saved_run(folder, OLD, Script.for_all(echo(long + "left"), Turn(text="Done.")))
    await saved_run(folder, NEW, Script.for_all(echo(long + "right"), Turn(text="Done.")))
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        detail = [line.rstrip() for line in drawn(screen, "#detail").splitlines() if line.strip()]
        assert [line[:16] for line in detail] == ["A main@1 model: ", "B main@1 model: "]
        assert all(line.endswith("…") for line in detail), "one line each, cut"
        keys = drawn(screen, "#keys")
        assert keys.strip() == "↑↓ steps · ←→ agents · esc closes · letters do nothing"
        dialog = screen.query_one("#dialog").region
        assert screen.query_one("#keys").region.bottom <= dialog.bottom - 1, "inside the frame"


async def test_each_side_says_what_the_person_answered(folder: Path) -> None:
    await saved_answered_run(folder, OLD, "Lisbon")
    await saved_answered_run(folder, NEW, "Porto")
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pick_two(app, pilot, OLD[-4:], NEW[-4:])
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        figures = drawn(screen, "#figures")
        assert "answered: Lisbon" in figures and "answered: Porto" in figures
        assert shown(screen, "#verdict").startswith("▶ main@")


async def test_a_hostile_task_is_shown_as_typed_with_its_controls_visible(folder: Path) -> None:
    hostile = "Say \x1b[2J[bold red]it[/bold red]"
    await saved_run(folder, OLD, LEFT, task=hostile)
    await saved_run(folder, NEW, RIGHT, task=hostile)
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await settle(pilot, lambda: len(listed(app)) == 2)
        shown_rows = [row.split("\n")[0] for row in listed(app)]  # a row, then its help
        assert all(row.endswith(" · Say ␛[2J[bold red]it[/bold red]") for row in shown_rows)
        await choose(pilot, OLD[-4:])
        await choose(pilot, NEW[-4:], opens_another=False)
        await settle(pilot, lambda: compared(app))
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        pairs = screen.query_one(StepPairs)
        first = "".join(segment.text for segment in pairs.render_line(0))
        assert "Say ␛[2J[bold red]it[/bold red]" in first


async def test_a_log_gone_since_it_was_listed_is_said_once(folder: Path) -> None:
    await saved_run(folder, OLD, LEFT)
    gone = await saved_run(folder, NEW, RIGHT)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await choose(pilot, OLD[-4:])
        # The second palette lists the sessions in a thread: listed first, then removed.
        await settle(pilot, lambda: any(NEW[-4:] in row for row in listed(app)))
        gone.unlink()  # before it is read
        await choose(pilot, NEW[-4:], opens_another=False)
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        await settle(pilot, lambda: "Cannot compare" in shown(screen, "#overall"))
        said = shown(screen, "#overall")
        assert said.startswith(f"Cannot compare: run B ({NEW}): no session file at ")
        assert said.count("Cannot") == 1 and screen.result is None


async def test_a_fault_in_the_comparison_is_said_and_the_app_goes_on(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from agentui.core.session import run_diff

    def faulty(a: object, b: object) -> object:
        raise ValueError("an outline nobody expected")

    monkeypatch.setattr(run_diff, "diff_runs", faulty)
    await saved_run(folder, OLD, LEFT)
    await saved_run(folder, NEW, RIGHT)
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        app.action_command_palette()
        await choose(pilot, COMPARE_RUNS.rstrip("…"))
        await choose(pilot, OLD[-4:])
        await choose(pilot, NEW[-4:], opens_another=False)
        screen = app.screen
        assert isinstance(screen, RunsComparisonScreen)
        await settle(pilot, lambda: "could not be compared" in shown(screen, "#overall"))
        assert shown(screen, "#overall") == (
            "The runs could not be compared: ValueError: an outline nobody expected"
        )
        assert app.is_running and screen.result is None
