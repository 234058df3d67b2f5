"""While a workflow decision streams unseen, the transcript pane says what is being decided."""

from __future__ import annotations

import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import DecisionMade, DecisionStarted, LLMFailed
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.state import RunState
from agentui.core.support.clock import FrozenClock
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.decision_progress import deciding_line, fit_line

from .helpers import settle

pytestmark = pytest.mark.anyio

# The clarify decision's JSON starts streaming and never ends: what a slow model looks like.
SLOW_CLARIFY = Script(
    agents={"*": [Turn(text="done")]},
    decisions={"*": {"clarify": [Turn(text='{"ambiguous": false}', hang_after_chunks=1)]}},
)


# Clear at once; then the longest decision's JSON starts streaming and never ends.
SLOW_QUESTIONS = Script(
    agents={"*": [Turn(text="done")]},
    decisions={
        "*": {
            "clarify": [Turn(text='{"ambiguous": false}')],
            "questions": [Turn(text='{"questions": []}', hang_after_chunks=1)],
        }
    },
)


def six_step_app(clock: FrozenClock, script: Script = SLOW_CLARIFY) -> AgentUIApp:
    def runtime() -> Runtime:
        return Runtime(ScriptedProvider(script), clock=clock, workflow="six-step")

    return AgentUIApp(
        runtime,
        initial_task="Plan a launch",
        clock=clock,
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )


async def test_the_pane_says_what_is_decided_and_for_how_long() -> None:
    clock = FrozenClock()
    app = six_step_app(clock)
    async with app.run_test(size=(120, 30)) as pilot:
        await settle(pilot, lambda: "a1" in app.main.model.deciding)
        pane = app.main.transcript_view
        assert str(pane.border_subtitle) == "deciding whether the task is clear… 0s"
        assert [e.kind for e in app.main.model.agents["a1"].entries] == ["task"], (
            "nothing else shows"
        )
        clock.advance(12)
        app.main.tick()  # the app's once-a-second clock: no event came, the time moves
        assert str(pane.border_subtitle) == "deciding whether the task is clear… 12s"
        app.main.tree_view.focus()
        await pilot.press("a")  # every agent's transcript names who decides
        assert str(pane.border_subtitle) == "main is deciding whether the task is clear… 12s"
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)
        assert not pane.border_subtitle, "it ended: nothing is being decided"


async def test_a_long_decision_fits_the_pane_in_fewer_words_and_keeps_its_seconds() -> None:
    clock = FrozenClock()
    app = six_step_app(clock, SLOW_QUESTIONS)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot, lambda: app.main.model.deciding.get("a1", ("",))[0] == "questions")
        clock.advance(12)
        app.main.tick()
        pane = app.main.transcript_view
        assert str(pane.border_subtitle) == "deciding what is missing… 12s", "not '……', no 12s"
        await pilot.resize_terminal(200, 40)
        await pilot.pause()
        assert str(pane.border_subtitle) == "deciding whether anything critical is missing… 12s"
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        shown = str(pane.border_subtitle)
        assert shown.endswith("… 12s") and "……" not in shown
        assert app.host.runtime is not None
        app.host.runtime.cancel("a1")
        await settle(pilot, lambda: app.main.model.agents["a1"].status is S.CANCELLED)


@pytest.mark.parametrize(
    ("width", "shown"),
    [
        (80, "main is deciding whether anything critical is missing (attempt 2)… 12s"),
        (60, "main is deciding what is missing (attempt 2)… 12s"),
        (30, "main is deciding… 12s"),
        (16, "deciding… 12s"),
        (5, "12s"),
        (2, ""),
    ],
)
def test_a_deciding_line_shortens_its_words_never_its_seconds(width: int, shown: str) -> None:
    from agentui.core.protocol.events import AgentSpawned, StatusChanged

    state = RunState()
    state.apply(AgentSpawned(seq=1, ts=0.0, agent_id="a1", parent_id=None, name="main", task="t"))
    state.apply(
        StatusChanged(seq=2, ts=0.0, agent_id="a1", old="pending", new="running", reason="")
    )
    state.apply(DecisionStarted(seq=3, ts=10.0, agent_id="a1", decision="questions", attempt=2))
    line = deciding_line(state, None, 22.0, lambda agent_id: "main")
    assert fit_line(line, width) == shown


def test_the_fold_knows_who_decides_from_the_first_attempt_to_a_valid_answer() -> None:
    from agentui.core.protocol.events import AgentSpawned

    state = RunState()
    state.apply(AgentSpawned(seq=1, ts=10.0, agent_id="a1", parent_id=None, name="main", task="t"))

    def decide(seq: int, ts: float, attempt: int) -> None:
        event = DecisionStarted(
            seq=seq, ts=ts, agent_id="a1", decision="subquestions", attempt=attempt
        )
        state.apply(event)

    decide(2, 11.0, 1)
    state.apply(
        DecisionMade(seq=3, ts=14.0, agent_id="a1", decision="subquestions", attempt=1, ok=False)
    )
    decide(4, 14.0, 2)
    assert state.deciding["a1"] == ("subquestions", 2, 11.0), "a retry counts from the first"
    state.apply(
        DecisionMade(seq=5, ts=16.0, agent_id="a1", decision="subquestions", attempt=2, ok=True)
    )
    assert "a1" not in state.deciding
    decide(6, 17.0, 1)
    state.apply(LLMFailed(seq=7, ts=18.0, agent_id="a1", iteration=0, error="x", retryable=True))
    assert "a1" in state.deciding, "a retried call is still deciding"
    state.apply(LLMFailed(seq=8, ts=19.0, agent_id="a1", iteration=0, error="x", retryable=False))
    assert "a1" not in state.deciding, "given up: the neutral answer goes on"
