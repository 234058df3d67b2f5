"""Words typed while your task runs go to that task: the prompt addresses the live root of the
selected agent (its label says so), enter queues the words as a steer for it, and a second task
is started only on purpose (ctrl+t, n, the palette) or once every root has ended."""

from __future__ import annotations

import threading

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.tui.cli.app_run import unsent_words

from .helpers import app_when, has_status, kinds, make_app, settle, toasts
from .test_typing_is_sacred import RUNNING_AND_ASKING, has_status_a1

pytestmark = pytest.mark.anyio

HOLD = Turn(text="one two three four five six seven", hang_after_chunks=2)
ASK = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "Which city?"})])


def label(app: object) -> str:
    return str(app.main.prompt_bar.label.render())  # type: ignore[attr-defined]


def steers(app: object, agent_id: str) -> list[str]:
    agent = app.main.model.agents.get(agent_id)  # type: ignore[attr-defined]
    return [e.text for e in agent.entries if e.kind == "steer"] if agent is not None else []


async def test_a_sentence_and_enter_while_main_runs_steer_main_and_start_nothing() -> None:
    async with app_when(has_status_a1(S.RUNNING), "Plan a launch", RUNNING_AND_ASKING) as (
        app,
        pilot,
    ):
        app.main.prompt_view.focus()
        await pilot.pause()
        assert label(app) == "main ›", "the prompt says whose words they are"
        await pilot.press(*"Focus on small teams.", "enter")
        await settle(pilot, lambda: "steer" in kinds(app, "a1"))
        assert list(app.main.model.agents) == ["a1"], "no second root (no second paid task)"
        assert steers(app, "a1") == ["Focus on small teams."]
        assert app.main.prompt_view.text == "" and app.focused is app.main.prompt_view
        assert label(app) == "main ›"


async def test_once_every_root_has_ended_the_prompt_starts_a_new_task() -> None:
    script = Script.for_all(Turn(text="done"))
    async with app_when(has_status_a1(S.COMPLETED), "first", script) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.pause()
        assert label(app) == "task ›"
        await pilot.press(*"second", "enter")
        await settle(pilot, lambda: "a2" in app.main.model.agents)
        assert (
            app.main.model.agents["a2"].task == "second"
            and app.main.model.agents["a2"].parent_id is None
        )


async def test_ctrl_t_starts_a_task_beside_the_running_one_and_esc_goes_back() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press(*"half a thought")
        await pilot.press("ctrl+t")
        assert label(app) == "new task ›"
        assert app.main.prompt_view.text == "half a thought", "the words stay, for the new task"
        await pilot.press("escape")
        assert label(app) == "main ›" and app.main.prompt_view.text == "half a thought"
        assert app.focused is app.main.prompt_view
        await pilot.press("ctrl+t", *" about pricing", "enter")
        await settle(pilot, lambda: "a2" in app.main.model.agents)
        assert app.main.model.agents["a2"].task == "half a thought about pricing"
        await settle(pilot, lambda: label(app) == "main-2 ›")  # words next are for the new task


async def test_n_on_the_tree_asks_for_a_new_task_too() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        assert app.focused is app.main.tree_view
        await pilot.press("n")
        assert app.focused is app.main.prompt_view and label(app) == "new task ›"


async def test_the_prompt_follows_the_root_of_the_selected_agent() -> None:
    def two_roots(app: object) -> bool:
        runtime = app.host.runtime  # type: ignore[attr-defined]
        agents = app.main.model.agents  # type: ignore[attr-defined]
        if runtime is not None and "a1" in agents and "a2" not in agents:
            runtime.start("second task")
            runtime.start("a helper", parent_id="a2")
        return all(has_status(app, a, S.RUNNING)() for a in ("a1", "a2", "a3"))  # type: ignore[arg-type]

    script = Script(agents={"*": [HOLD]})
    async with app_when(two_roots, "first task", script) as (app, pilot):
        app.main.select("a3")  # main-2's subagent
        await pilot.pause()
        assert label(app) == "main-2 ›"
        app.main.select("a1")
        await pilot.pause()
        assert label(app) == "main ›"
        await pilot.press("escape")  # the tree's keys are not the prompt's
        app.main.prompt_view.focus()
        await pilot.press(*"keep it short", "enter")
        await settle(pilot, lambda: "steer" in kinds(app, "a1"))
        assert steers(app, "a2") == [] and steers(app, "a3") == []


async def test_while_main_waits_on_a_question_the_answer_box_has_the_cursor_and_the_prompt_queues() -> (
    None
):
    script = Script(agents={"main": [ASK, Turn(text="thanks")]})
    async with app_when(lambda app: bool(app.main.model.open_queries), "trip", script) as (
        app,
        pilot,
    ):
        assert app.main.focused_query() is not None, "the question took the cursor"
        assert label(app) == "main ›"
        app.main.prompt_view.focus()
        await pilot.press(*"no museums", "enter")
        await settle(pilot, lambda: "steer" in kinds(app, "a1"))
        assert app.main.model.open_queries, "the question still waits for its answer"
        assert app.main.model.agents["a1"].status is S.AWAITING_USER


async def test_words_sent_before_the_runtime_started_steer_the_task_once_it_has() -> None:
    gate = threading.Event()

    def slow_settings() -> None:
        gate.wait(30)  # the settings' check holds the runtime back until the words are sent

    script = Script(agents={"*": [HOLD]})
    app = make_app("Plan a trip", script, prepare_runtime=slow_settings)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert not app.host.started
        assert label(app) == "starting ›"
        await pilot.press(*"Lisbon, small budget", "enter")
        assert app.main.prompt_view.text == ""
        gate.set()
        await settle(pilot, lambda: "steer" in kinds(app, "a1"))
        assert list(app.main.model.agents) == ["a1"]
        assert steers(app, "a1") == ["Lisbon, small budget"]
        assert label(app) == "main ›"


async def test_words_for_main_stay_main_s_when_it_ends_and_enter_offers_to_continue_it() -> None:
    async with app_when(has_status_a1(S.RUNNING), "hold", RUNNING_AND_ASKING) as (app, pilot):
        app.main.prompt_view.focus()
        await pilot.press(*"Focus on small teams.")
        app.host.runtime.cancel("a1")  # type: ignore[union-attr]  # it ends while the words wait
        await settle(pilot, has_status(app, "a1", S.CANCELLED))
        assert label(app) == "main ›", "the words stay addressed to the task they were for"
        await pilot.press("enter")
        await pilot.pause()
        assert list(app.main.model.agents) == ["a1"], "no new paid task from words meant for main"
        assert (
            app.main.prompt_bar.mode.kind == "continue"
            and app.main.prompt_bar.mode.agent_id == "a1"
        )
        assert app.main.prompt_view.text == "Focus on small teams."
        assert any("has ended" in t for t in toasts(app))
        await pilot.press("escape")  # not continued after all: the prompt starts tasks again
        assert label(app) == "task ›"


async def test_an_empty_prompt_follows_the_next_root_when_main_ends() -> None:
    script = Script(agents={"*": [HOLD]})

    def two_roots(app: object) -> bool:
        runtime, agents = app.host.runtime, app.main.model.agents  # type: ignore[attr-defined]
        if runtime is not None and "a1" in agents and "a2" not in agents:
            runtime.start("second task")
        return has_status(app, "a2", S.RUNNING)()  # type: ignore[arg-type]

    async with app_when(two_roots, "first task", script) as (app, pilot):
        app.main.select("a1")
        await pilot.pause()
        assert label(app) == "main ›"
        app.host.runtime.cancel("a1")  # type: ignore[union-attr]
        await settle(pilot, lambda: label(app) == "main-2 ›")


async def test_words_sent_before_a_start_that_fails_are_printed_with_the_error() -> None:
    gate = threading.Event()

    def bad_settings() -> None:
        gate.wait(30)
        from agentui.core.support.errors import AgentUIError

        raise AgentUIError("provider: nope")

    app = make_app("Plan a trip", prepare_runtime=bad_settings)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press(*"Lisbon, small budget", "enter")
        gate.set()
        await settle(pilot, lambda: app.start_failure.why is not None)
        assert "Lisbon, small budget" in unsent_words(app), "said on the shell, not lost"
