"""The app shows a saved session: as history before a resumed run, or as a read-only replay."""

from __future__ import annotations

import pytest
from rich.style import Style
from textual.widgets import Button

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.events import Event, QueryRaised
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.widgets.composer import Composer
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.query_blocks import UNANSWERED_IN_REPLAY, ApprovalBlock, QuestionBlock

from .helpers import make_app, settle, toasts

pytestmark = pytest.mark.anyio

SCRIPT = Script.for_all(Turn(thinking="Plan.", text="The answer is 42."))


async def _recorded_run() -> list[Event]:
    runtime = Runtime(ScriptedProvider(SCRIPT), clock=FrozenClock())
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = runtime.start("What is the answer?")
        runtime.start("Check the maths", parent_id=root)
        await runtime.wait(root)
        await runtime.wait("a2")
    return events.drain()


async def test_a_replay_shows_the_recorded_run_and_refuses_to_steer() -> None:
    recorded = await _recorded_run()
    app = AgentUIApp(
        replay=ReplayFeed(recorded, speed=1000.0), clock=FrozenClock(), remember_theme=False
    )
    async with app.run_test() as pilot:
        await settle(pilot, lambda: app.host.done)
        app.main.flush_events()
        assert [a.status for a in app.main.model.agents.values()] == [S.COMPLETED, S.COMPLETED]
        assert app.main.model.agents["a2"].parent_id == "a1"
        assert app.main.model.agents["a1"].entries[-1].text == "The answer is 42."
        for action in ("pause", "cancel", "delete", "modify", "new_task"):
            assert app.check_action(action, ()) is False, "a replay never steers: not offered"
        assert not app.main.prompt_bar.display
        await pilot.pause()
        assert app.query(KeyFooter), "the footer says what works in a replay"
        shown = {k for k, b in app.screen.active_bindings.items() if b.binding.show and b.enabled}
        assert {"question_mark", "q"} <= shown


async def test_history_is_shown_before_new_work() -> None:
    recorded = await _recorded_run()
    state = RunState()
    state.apply_all(recorded)
    app = make_app(state=state)
    async with app.run_test() as pilot:
        await settle(pilot, lambda: "a1" in app.main.model.agents)
        assert app.main.model.agents["a1"].entries[-1].text == "The answer is 42."
        assert app.main.selected_id == "a1"


def test_replay_speed_must_be_positive() -> None:
    with pytest.raises(ValueError):
        ReplayFeed([], speed=0)


def _replay_ending_on_an_approval(recorded: list[Event], query_id: str) -> AgentUIApp:
    """The app replaying `recorded`, then a python approval still open at its end."""
    approval = QueryRaised(
        seq=recorded[-1].seq + 1,
        ts=recorded[-1].ts,
        agent_id="a1",
        query_id=query_id,
        prompt="Allow python to run?\nprint(1)",
        kind="approval",
        tool="python",
    )
    return AgentUIApp(
        replay=ReplayFeed([*recorded, approval], speed=1000.0),
        clock=FrozenClock(),
        remember_theme=False,
    )


async def test_a_replayed_question_asks_nobody_and_takes_no_keys() -> None:
    app = _replay_ending_on_an_approval(await _recorded_run(), "q1")
    async with app.run_test() as pilot:
        await settle(pilot, lambda: app.host.done)
        app.main.flush_events()
        await pilot.pause()
        assert "q1" in app.main.model.open_queries
        assert not toasts(app), "no bell, no 'approval needed' over a replay"
        assert not isinstance(app.focused, ApprovalBlock)


async def _run_that_asked() -> list[Event]:
    """A run whose agent asked the person twice: answered "trains", then not answered."""
    ask = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "How?"})])
    again = Turn(tool_calls=[ScriptedToolCall(name="ask_user", arguments={"question": "When?"})])
    runtime = Runtime(ScriptedProvider(Script.for_all(ask, again)), clock=FrozenClock())
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        runtime.start("Plan a trip")
        recorded: list[Event] = []
        while len([e for e in recorded if isinstance(e, QueryRaised)]) < 2:
            event = await events.get()
            recorded.append(event)
            if isinstance(event, QueryRaised) and event.prompt == "How?":
                runtime.answer(event.query_id, "trains")
        runtime.cancel("a1")  # the recording ends with "When?" open
    return recorded


async def test_a_replayed_question_shows_its_answer_and_no_box_to_answer_in() -> None:
    app = _replay_ending_on_an_approval(await _run_that_asked(), "q9")
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: app.host.done)
        await pilot.pause()
        transcript = app.main.transcript_view
        assert not transcript.query(Composer), "no box to answer in"
        answered, unanswered = transcript.query(QuestionBlock)
        assert "answer: trains" in str(answered.query_one(".question-answer").render())
        for block in (unanswered, transcript.query_one(ApprovalBlock)):
            assert UNANSWERED_IN_REPLAY in str(block.query_one(".question-answer").render())
            assert block.focus_target() is None and not block.focusable
        assert not transcript.query(Button).filter(".approval-buttons Button")
        assert app.check_action("next_question", ()) is False, "no 'Waiting' to go to"
        await pilot.press("tab", "tab", "tab", "tab", "1")
        assert "q9" in app.main.model.open_queries and not toasts(app)


def _row(app: AgentUIApp, agent_id: str) -> str:
    tree = app.main.tree_view
    node = next(n for n in tree.root.children if n.data == agent_id)
    return tree.render_label(node, Style(), Style()).plain


async def test_a_replayed_agent_s_elapsed_time_is_the_recording_s_not_the_wall_clock_s() -> None:
    """A replay watched an hour after its run: a running agent's row counts from its start to
    the recording's moment, not to now."""
    recorded = await _recorded_run()
    started = next(i for i, e in enumerate(recorded) if type(e).__name__ == "TextDelta")
    an_hour_later = FrozenClock(start=recorded[0].ts + 3600)
    app = AgentUIApp(
        replay=ReplayFeed(recorded[: started + 1], speed=1000.0),
        clock=an_hour_later,
        remember_theme=False,
    )
    async with app.run_test() as pilot:
        await settle(pilot, lambda: app.host.done)
        app.main.flush_events()
        assert app.main.model.agents["a1"].status is S.RUNNING
        row = _row(app, "a1")
        assert "0s" in row and "1h" not in row, row
