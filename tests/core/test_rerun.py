"""Re-run: a saved run's steers, modifies and answers are given again at the same moments,
counted in steps (core/session/rerun_plan.py), on the scripted model with no delays."""

from __future__ import annotations

import anyio
import pytest

from agentui.core.agent.steps import ForkOrigin
from agentui.core.protocol.events import (
    AgentForked,
    AgentSpawned,
    ConversationChanged,
    LLMRequested,
    QueryRaised,
)
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.errors import SessionError
from agentui.core.session.rerun_plan import Moment, rerun_plan
from agentui.core.session.rerun_player import RerunPlayer
from agentui.core.session.run_diff import diff_runs
from agentui.core.session.run_outline import run_outline
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type, scripted_runtime
from .scene_helpers import harbour, play, scene_runtime
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


async def test_a_modify_is_given_again_at_its_step_and_pauses_are_said_not_replayed() -> None:
    new_task = "plan a trip by train"
    release = anyio.Event()
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    script = Script.for_all(GATED, Turn(text="Done."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("plan a trip")
        await recorder.wait_for(is_type("tool:start", root))
        runtime.pause(root)
        runtime.modify(root, content=new_task)
        runtime.resume(root)
        release.set()
        await runtime.wait(root)
        recorder.sync()
    plan = rerun_plan(recorder.events, "s1")
    (modify,) = plan.interventions
    assert (modify.kind, modify.content, modify.moment) == ("modify", new_task, Moment("main", 2))
    assert plan.not_replayed == [
        "pause of main: it changes nothing a model reads",
        "resume of main: it changes nothing a model reads",
    ]

    release.set()  # the new run's gate is open from the start
    async with scripted_runtime(script=script, tools=tools) as runtime:
        player = RerunPlayer(runtime, plan)
        player.attach()
        root = player.start()
        await runtime.wait(root)
        assert runtime.node(root).task == new_task
        assert [(s.number, s.kind) for s in runtime.steps(root)][2:5] == [
            (2, "tool"), (3, "steer"), (4, "model"),
        ], "the modify's note is read in the model call after step 2, as before"  # fmt: skip
        assert [p.at_step for p in player.played] == [2]


async def test_a_fork_is_run_again_as_a_fork_under_its_own_name() -> None:
    tools = ToolRegistry([ASK_USER, echo_tool()])
    script = Script.for_all(ECHO, Turn(text="Done."))
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("say it back")
        await runtime.wait(root)
        instructions = runtime.node(root).conversation.instructions
        messages = runtime.node(root).conversation.messages[:3]  # as at main@2
        origin = ForkOrigin(root, "main", 2, session="old")
        # A session `agentui fork` made: its first root is the fork.
        async with scripted_runtime(script=script, tools=tools) as forked_runtime:
            forked_events = Recorder(forked_runtime)
            fork = forked_runtime.start_from("say it back", instructions, messages, origin=origin)
            await forked_runtime.wait(fork)
            forked_events.sync()
    plan = rerun_plan(forked_events.events, "forked")
    assert plan.root == "main~1" and plan.forked is not None and plan.forked.step == 2
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        again = RerunPlayer(runtime, plan).start()
        await runtime.wait(again)
        recorder.sync()
        assert runtime.node(again).name == "main~1"
        assert runtime.node(again).conversation.messages[:3] == messages
    (spawned,) = [e for e in recorder.events if isinstance(e, AgentForked)]
    assert (spawned.origin_name, spawned.step, spawned.session) == ("main", 2, "old")


def test_a_scene_it_cannot_play_again_or_an_empty_session_is_refused_in_words() -> None:
    spawned = AgentSpawned(seq=1, ts=0.0, agent_id="a1", parent_id=None, name="scene",
                           task="the heist", driver="scene")  # fmt: skip
    with pytest.raises(SessionError, match="a scene an earlier session began: play it again"):
        rerun_plan([spawned], "s1")  # no scene:start of its own: a resumed session's
    with pytest.raises(SessionError, match="no task to run again"):
        rerun_plan([], "s1")


async def test_a_follow_up_to_an_ended_agent_is_sent_when_it_ends_again() -> None:
    script = Script.for_all(ECHO, Turn(text="Done."), Turn(text="Encore."))
    tools = ToolRegistry([ASK_USER, echo_tool()])
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("say it back")
        await runtime.wait(root)
        runtime.send(root, "once more, in French")
        await runtime.wait(root)
        recorder.sync()
        before = [(s.number, s.kind) for s in runtime.steps(root)]
    plan = rerun_plan(recorder.events, "s1")
    (follow_up,) = plan.interventions
    assert (follow_up.kind, follow_up.text) == ("follow-up", "once more, in French")
    assert follow_up.moment == Moment("main", 3)

    async with scripted_runtime(script=script, tools=tools) as runtime:
        player = RerunPlayer(runtime, plan)
        player.attach()
        root = player.start()
        await runtime.wait(root)
        assert player.ended(root), "it runs again on the person's words"
        await runtime.wait(root)
        assert not player.ended(root), "once"
        assert [(s.number, s.kind) for s in runtime.steps(root)] == before
        assert [p.describe() for p in player.played] == [
            "follow-up 'once more, in French' after main@3: sent when main ended at step 3"
        ]


async def test_a_scene_is_played_again_round_by_round_with_the_same_inputs() -> None:
    async with scene_runtime() as runtime:
        recorder = Recorder(runtime)
        await play(runtime, harbour(), ["The fog lifts.", "A bell rings.", None])
        recorder.sync()
    plan = rerun_plan(recorder.events, "old")
    assert plan.scene is not None and plan.root == "harbour"
    assert [a.text for a in plan.answers] == ["The fog lifts.", "A bell rings.", None]

    async with scene_runtime() as runtime:
        again = Recorder(runtime)
        player = RerunPlayer(runtime, plan)
        root = player.start()
        for count in (1, 2, 3):  # two rounds, then the question the person declined
            asked = await again.wait_for(
                lambda e: isinstance(e, QueryRaised) and e.agent_id == root, count=count
            )
            query = asked[-1]
            assert isinstance(query, QueryRaised)
            assert player.answer(query, "harbour") is not None
        await runtime.wait(root)
        again.sync()
    old, new = run_outline(recorder.events, "old"), run_outline(again.events, "new")
    assert [r.text for r in new.rounds] == ["The fog lifts.", "A bell rings."]
    result = diff_runs(old, new)
    assert [pair.same for pair in result.rounds] == [True, True] and not result.diverged
    assert player.unplayed({}) == []
