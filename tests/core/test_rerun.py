"""Re-run: a saved run's steers, modifies and answers are given again at the same moments,
counted in steps (core/session/rerun_plan.py), on the scripted model with no delays."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.protocol.events import ConversationChanged, LLMRequested, QueryRaised
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.rerun_plan import Moment, rerun_plan
from agentui.core.session.rerun_player import RerunPlayer
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type, scripted_runtime
from .session_helpers import echo_tool, gate_tool

pytestmark = pytest.mark.anyio

GATED = Turn(text="Waiting.", tool_calls=[ScriptedToolCall(name="gate")])
ASKING = Turn(text="", tool_calls=[ScriptedToolCall(name="ask_user",
                                                    arguments={"question": "Which city?"})])  # fmt: skip
ECHO = Turn(text="Echo.", tool_calls=[ScriptedToolCall(name="echo", arguments={"text": "hi"})])
STEER = "prefer trains"


async def _original() -> list:
    """main: task, model (gate), tool (the steer comes while the gate holds), steer, model
    (asks), answer, model."""
    release = anyio.Event()
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    script = Script.for_all(GATED, ASKING, Turn(text="Done."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("plan a trip")
        await recorder.wait_for(is_type("tool:start", root))
        runtime.steer(root, STEER)
        release.set()
        (query,) = await recorder.wait_for(is_type("query:raised", root))
        assert isinstance(query, QueryRaised)
        runtime.answer(query.query_id, "Lisbon")
        await runtime.wait(root)
        recorder.sync()
        return recorder.events


async def test_a_plan_ties_a_steer_to_the_step_its_model_read_it_after() -> None:
    plan = rerun_plan(await _original(), "s1")
    assert plan.task == "plan a trip" and plan.root == "main"
    (steer,) = plan.interventions
    assert (steer.kind, steer.text, steer.moment) == ("steer", STEER, Moment("main", 2))
    (answer,) = plan.answers
    assert (answer.agent, answer.text, answer.approval) == ("main", "Lisbon", False)
    assert plan.not_replayed == []


async def test_a_rerun_gives_the_steer_before_the_model_call_after_the_same_step() -> None:
    plan = rerun_plan(await _original(), "s1")
    # The new run's gate is open from the start: no wall time could place the steer.
    release = anyio.Event()
    release.set()
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    script = Script.for_all(GATED, ASKING, Turn(text="Done."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        player = RerunPlayer(runtime, plan)
        player.attach()
        recorder = Recorder(runtime)
        root = runtime.start(plan.task)
        (query,) = await recorder.wait_for(is_type("query:raised", root))
        assert isinstance(query, QueryRaised)
        assert player.answer(query, "main") is not None, "the recorded answer"
        await runtime.wait(root)
        recorder.sync()
        kinds = [(s.number, s.kind) for s in runtime.steps(root)]
        assert kinds[:5] == [(0, "task"), (1, "model"), (2, "tool"), (3, "steer"), (4, "model")]
        assert runtime.steps(root)[3].summary.endswith(STEER)
        assert runtime.steps(root)[5].summary == "ask_user → Lisbon"
        # The model call after step 2 was sent the steer: the request that follows the steer's
        # conversation change, and none before it.
        changes = [e for e in recorder.events if isinstance(e, ConversationChanged)]
        steered = changes[3]
        requests = [e for e in recorder.events if isinstance(e, LLMRequested)]
        assert [r.seq > steered.seq for r in requests] == [False, True, True]
        assert player.unplayed({"main": root}) == []
        assert [p.at_step for p in player.played] == [2]


async def test_an_intervention_whose_agent_never_appears_is_reported() -> None:
    plan = rerun_plan(await _original(), "s1")
    plan.interventions = [
        *plan.interventions,
        type(plan.interventions[0])("steer", Moment("main.7", 1), "hello"),
    ]
    tools = ToolRegistry([ASK_USER, echo_tool()])
    async with scripted_runtime(script=Script.for_all(ECHO, Turn(text="Done.")),
                                tools=tools) as runtime:  # fmt: skip
        player = RerunPlayer(runtime, plan)
        player.attach()
        root = runtime.start(plan.task)
        await runtime.wait(root)
        lines = player.unplayed({"main": root})
    assert "steer 'hello' after main.7@1: not given: no agent main.7 in the new run" in lines
    assert any(line.startswith("answer 'Lisbon' of main") and "never asked" in line
               for line in lines)  # fmt: skip
