"""Time travel in the app: each step of the selected agent marked in the transcript (`#`), one
picked (`w` on the panes, or the palette) in a window of its steps, then a rewind (asked first)
or a fork (with new instructions, if typed). Letters typed in that window, in its box or after
a click, act on nothing. On the zero-delay scripted model, with a frozen clock."""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.style import Style
from textual.pilot import Pilot
from textual.widgets import Button, OptionList, TextArea

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.tool import Tool, tool
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.time_travel import TimeTravelChoice, TimeTravelScreen
from agentui.tui.app.widgets.agent_tree import agent_label

from ..core.session_helpers import resumed_runtime
from ..remote.server_fixture import served_runtime
from ..remote.test_attach import attached_app, status, until
from .helpers import app_when, has_status, runtime_of, settle, toasts
from .test_screen_states import _session_cut_mid_answer

TALLY = Turn(text="Counting.", tool_calls=[ScriptedToolCall(name="tally", arguments={"n": 1})])
# main counts once, answers, and (continued after a rewind) answers again.
SCRIPT = Script.for_all(TALLY, Turn(text="First answer."), Turn(text="Second answer."))
pytestmark = pytest.mark.anyio

SENTENCE = "please pause, cancel, delete, modify? yes, my dear"


@tool
async def tally(n: int) -> str:
    """Count."""
    return f"tallied {n}"


TOOLS: list[Tool] = [tally]


def _done(app: AgentUIApp) -> bool:
    return has_status(app, "a1", S.COMPLETED)()


def a1_running(app: AgentUIApp) -> bool:
    return has_status(app, "a1", S.RUNNING)()


def _row(app: AgentUIApp, agent_id: str) -> str:
    """The agent's row on the tree, as drawn now."""
    tree = app.main.tree_view
    node = next(n for n in tree.root.children if n.data == agent_id)
    return tree.render_label(node, Style(), Style()).plain


async def _open_window(app: AgentUIApp, pilot: Pilot[int]) -> TimeTravelScreen:
    app.main.tree_view.focus()
    await pilot.press("w")
    await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))
    assert isinstance(app.screen, TimeTravelScreen)
    return app.screen


async def _pick(pilot: Pilot[int], window: TimeTravelScreen, step: int) -> None:
    numbers = [int(option.id or "") for option in window.query_one(OptionList).options]
    window.query_one(OptionList).highlighted = numbers.index(step)
    await pilot.pause()


async def _press(pilot: Pilot[int], window: TimeTravelScreen, button: str) -> None:
    """A button pressed with the keyboard: focused (as tab would), then enter."""
    window.query_one(f"#{button}", Button).focus()
    await pilot.press("enter")


async def test_the_steps_on_screen_are_the_runtimes_and_hash_marks_each_in_the_transcript() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        runtime = await runtime_of(pilot)
        book = app.main.steps.steps("a1")
        assert [(s.number, s.kind) for s in book] == [
            (s.number, s.kind) for s in runtime.steps("a1")
        ]
        assert [(s.number, s.kind) for s in book] == [
            (0, "task"),
            (1, "model"),
            (2, "tool"),
            (3, "model"),
        ]
        blocks = app.main.transcript_view.mounted_blocks()
        assert all(block.step_mark is None for block in blocks), "off until # is pressed"

        await pilot.press("number_sign")

        marks = [block.step_mark for block in blocks if block.step_mark is not None]
        assert marks == ["#0", "#1", "#2", "#3"]
        assert all(block.has_class("step-end") == bool(block.step_mark) for block in blocks)
        await pilot.press("number_sign")
        assert all(block.step_mark is None for block in blocks)


async def test_k_opens_the_steps_with_the_clicked_blocks_step_highlighted() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        tool_block = next(
            b for b in app.main.transcript_view.mounted_blocks() if b.entry.kind == "tool"
        )
        await pilot.click(tool_block)
        assert app.main.transcript_view.selected_block() is tool_block
        await pilot.press("w")  # after a click, a letter is no command
        assert not isinstance(app.screen, TimeTravelScreen)
        await pilot.press("escape")  # the keys act again

        window = await _open_window(app, pilot)

        assert window.picked() == 2, "the tool's results are step 2"
        rows = [str(option.prompt) for option in window.query_one(OptionList).options]
        assert rows[0].startswith("#0") and "task" in rows[0]
        assert "tally → tallied 1" in rows[2]


async def test_the_palette_opens_it_on_the_latest_step() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        await pilot.press("ctrl+p")
        await pilot.press(*"Rewind or fork")
        await pilot.pause()
        await pilot.press("enter")
        await settle(pilot, lambda: isinstance(app.screen, TimeTravelScreen))
        assert isinstance(app.screen, TimeTravelScreen)
        assert app.screen.picked() == 3


async def test_a_finished_agent_rewound_waits_paused_and_goes_on_when_continued() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        window = await _open_window(app, pilot)
        await _pick(pilot, window, 2)
        await _press(pilot, window, "rewind")
        assert isinstance(app.screen, ConfirmScreen), "a rewind asks first"
        question = str(app.screen.query_one("#question").render())
        assert "Rewind main to step #2?" in question and "set aside" in question
        await pilot.press("tab", "enter")  # the risky answer takes its own button

        await settle(pilot, has_status(app, "a1", S.PAUSED))
        assert app.screen is app.main
        entries = app.main.model.agents["a1"].entries
        assert entries[-1].title == "rewound" and "back to step 2" in entries[-1].text
        assert [s.set_aside for s in app.main.steps.steps("a1")] == [False, False, False, True]
        assert "main ⟲#2" in _row(app, "a1"), "the tree says where it waits"

        window = await _open_window(app, pilot)
        await _pick(pilot, window, 3)
        assert window.query_one("#rewind", Button).disabled, (
            "set aside: forked from, not rewound to"
        )
        assert not window.query_one("#fork", Button).disabled
        await _pick(pilot, window, 1)
        assert not window.query_one("#rewind", Button).disabled
        await pilot.press("escape")
        assert app.screen is app.main

        app.main.tree_view.focus()
        await pilot.press("r")
        await settle(pilot, has_status(app, "a1", S.COMPLETED))
        texts = [e.text for e in app.main.model.agents["a1"].entries if e.kind == "text"]
        assert texts[-1] == "Second answer."
        assert "⟲" not in _row(app, "a1"), "it ran on from there"


async def test_keep_in_the_confirmation_rewinds_nothing() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        window = await _open_window(app, pilot)
        await _press(pilot, window, "rewind")
        await pilot.press("enter")  # the safe answer has the focus
        assert app.screen is window
        assert app.main.model.agents["a1"].status is S.COMPLETED


async def test_a_fork_starts_beside_its_origin_with_new_instructions() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        window = await _open_window(app, pilot)
        await _pick(pilot, window, 1)
        window.query_one(TextArea).focus()
        await pilot.press(*"Be brief.")
        await _press(pilot, window, "fork")

        await settle(pilot, lambda: "a2" in app.main.model.agents)
        fork = app.main.model.agents["a2"]
        assert fork.name == "main~1" and fork.parent_id is None
        assert fork.forked_from is not None and fork.forked_from.origin == "main@1"
        await settle(pilot, lambda: app.main.selected_id == "a2")
        roots = [node.data for node in app.main.tree_view.root.children]
        assert roots == ["a1", "a2"], "both roots, the fork beside its origin"
        label = agent_label(fork, 0.0, {}).plain
        assert label.startswith("● main~1 ⑂ main@1") or "main~1 ⑂ main@1" in label
        runtime = await runtime_of(pilot)
        assert runtime.node("a2").conversation.instructions == "Be brief."
        assert app.main.model.agents["a1"].status is S.COMPLETED, "the origin is untouched"


async def test_a_sentence_typed_in_the_windows_box_acts_on_nothing() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        window = await _open_window(app, pilot)
        await pilot.press("tab")  # from the list to the box
        assert isinstance(app.focused, TextArea)

        await pilot.press(*SENTENCE)

        assert app.screen is window
        assert window.query_one(TextArea).text == SENTENCE
        assert app.main.model.agents["a1"].status is S.COMPLETED
        assert list(app.main.model.agents) == ["a1"], "no fork"


async def test_a_click_in_the_window_then_letters_act_on_nothing() -> None:
    async with app_when(_done, "count", SCRIPT, tools=TOOLS) as (app, pilot):
        window = await _open_window(app, pilot)
        steps = window.query_one(OptionList)
        await pilot.click(steps, offset=(4, 1))
        picked = window.picked()

        await pilot.press(*"pcdmywrq")

        assert app.screen is window
        assert window.picked() == picked
        assert app.main.model.agents["a1"].status is S.COMPLETED
        assert list(app.main.model.agents) == ["a1"]
        assert window.query_one(TextArea).text == ""
        assert not toasts(app)


class _Play:
    """A driver: agentui's own code runs the agent (as a scene does), so it has no steps."""

    kind = "scene"

    async def drive(self, run: object) -> str:
        return "the play is over"


async def test_a_driver_agent_is_refused_in_the_tables_and_the_runtimes_words() -> None:
    async with app_when(lambda app: app.host.started, None, SCRIPT, tools=TOOLS) as (app, pilot):
        runtime = await runtime_of(pilot)
        play = runtime.start("Stage the play", driver=_Play())  # type: ignore[arg-type]
        await settle(pilot, has_status(app, play, S.COMPLETED))
        app.main.select(play)
        app.main.tree_view.focus()
        await pilot.press("w")
        assert app.screen is app.main, "no window: it has no steps"
        assert any("it has no steps to go back to" in words for words in toasts(app))

        app.clear_notifications()
        app.rewind_fork.apply(play, TimeTravelChoice("fork", 0))  # as if the window had opened
        await pilot.pause()
        assert any("is a scene that agentui runs: it has no steps" in t for t in toasts(app))
        assert list(app.main.model.agents) == [play], "no fork"


async def test_an_attached_screen_rewinds_and_forks_on_the_server() -> None:
    async with served_runtime(script=SCRIPT) as server:
        app = attached_app(server)
        async with app.run_test(size=(120, 40)) as pilot:
            await until([pilot], lambda: app.host.started and app.host.runtime.connected)  # type: ignore[union-attr]
            assert app.host.runtime is not None
            app.host.runtime.start("count")
            await until([pilot], lambda: status(app, "a1") is S.COMPLETED)
            assert [s.kind for s in app.main.steps.steps("a1")] == [
                s.kind for s in server.runtime.steps("a1")
            ]

            app.rewind_fork.apply("a1", TimeTravelChoice("rewind", 1))
            await until([pilot], lambda: status(app, "a1") is S.PAUSED)
            assert server.runtime.node("a1").status is S.PAUSED

            app.rewind_fork.apply("a1", TimeTravelChoice("fork", 1, "Be brief."))
            await until([pilot], lambda: app.main.selected_id == "a2")
            assert app.main.model.agents["a2"].forked_from is not None
            assert server.runtime.node("a2").name == "main~1"


async def test_a_rewind_says_which_subagents_it_sets_aside_and_the_tree_marks_them() -> None:
    hold = Turn(text="Working through the plan.", hang_after_chunks=2)
    script = Script(agents={"*": [hold], "main.2": [Turn(text="Budget done.")]})
    async with app_when(a1_running, "Plan a launch", script) as (app, pilot):
        runtime = await runtime_of(pilot)
        for task in ("Find venues", "Draft the budget"):
            runtime.start(task, parent_id="a1")
        await settle(pilot, has_status(app, "a3", S.COMPLETED))
        app.main.select("a1")
        window = await _open_window(app, pilot)
        await _pick(pilot, window, 0)
        await _press(pilot, window, "rewind")
        assert isinstance(app.screen, ConfirmScreen)
        question = str(app.screen.query_one("#question").render())
        assert "Its run stops first." in question
        assert "2 subagents started after it are cancelled and set aside (main.1, main.2)" in (
            " ".join(question.split())
        )
        await pilot.press("tab", "enter")

        await settle(pilot, has_status(app, "a1", S.PAUSED))
        await settle(pilot, has_status(app, "a2", S.CANCELLED))
        for child in ("a2", "a3"):
            agent = app.main.model.agents[child]
            assert agent.set_aside
            label = agent_label(agent, 0.0, {})
            assert "↶" in label.plain and "set aside" in label.plain
            name = label.plain.index(agent.name)
            assert any(
                span.style.strike  # type: ignore[union-attr]
                for span in label.spans
                if span.start <= name < span.end and not isinstance(span.style, str)
            ), "struck through"
        assert app.main.model.agents["a2"].status_reason.startswith("rewound: main went back")


async def test_a_resumed_sessions_agent_is_rewound_from_the_steps_its_runtime_recalled(
    tmp_path: Path,
) -> None:
    plan = plan_resume(read_session(await _session_cut_mid_answer(tmp_path)))
    app = AgentUIApp(
        lambda: resumed_runtime(plan, None),  # as `agentui --resume` builds it
        state=plan.state,
        clock=FrozenClock(),
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )
    async with app.run_test(size=(120, 40)) as pilot:
        runtime = await runtime_of(pilot)
        await settle(pilot, lambda: app.main.selected_id == "a1")
        recalled = [(s.number, s.kind) for s in runtime.steps("a1")]
        assert recalled, "the resumed runtime recalled main's steps"

        window = await _open_window(app, pilot)
        shown = [int(option.id or "") for option in window.query_one(OptionList).options]
        assert shown == [number for number, _ in recalled]
        await _pick(pilot, window, 0)
        await _press(pilot, window, "rewind")
        await pilot.press("tab", "enter")

        await settle(pilot, has_status(app, "a1", S.PAUSED))
        assert not app.main.steps.knows("a1"), "a log begun midway would number from 0 again"
        assert [s.number for s in runtime.steps("a1")][: len(recalled)] == [n for n, _ in recalled]
