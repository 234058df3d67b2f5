"""Re-run, continued (test_rerun.py has the rest): the roots the person started after the first
start again at the step the run had made then, with their own steers; a steer a six-step
workflow's decision read is given again before that decision."""

from __future__ import annotations

import json

import anyio
import pytest

from agentui.core.protocol.events import LLMRequested, QueryRaised
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.runtime import Runtime
from agentui.core.session.rerun_plan import Moment, rerun_plan
from agentui.core.session.rerun_player import RerunPlayer
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type, scripted_runtime
from .session_helpers import gate_tool

pytestmark = pytest.mark.anyio

GATED = Turn(text="Waiting.", tool_calls=[ScriptedToolCall(name="gate")])


def _script() -> Script:
    return Script(
        agents={"main": [GATED, Turn(text="First done.")], "main-2": [Turn(text="Second done.")]}
    )


async def _two_roots() -> list:
    """main waits at its gate (after its step 1) when the person types a second task, main-2,
    and steers it; then main goes on."""
    release = anyio.Event()
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    async with scripted_runtime(script=_script(), tools=tools) as runtime:
        recorder = Recorder(runtime)
        first = runtime.start("plan a trip")
        await recorder.wait_for(is_type("tool:start", first))
        second = runtime.start("book the hotel")
        runtime.steer(second, "near the station")
        await runtime.wait(second)
        release.set()
        await runtime.wait(first)
        recorder.sync()
        return recorder.events


async def test_a_root_typed_later_starts_again_at_the_step_it_was_typed_at() -> None:
    plan = rerun_plan(await _two_roots(), "s1")
    assert plan.not_replayed == []
    (later,) = plan.roots
    assert (later.name, later.task, later.moment) == ("main-2", "book the hotel", Moment("main", 1))
    (steer,) = plan.interventions
    assert (steer.kind, steer.text, steer.moment) == (
        "steer",
        "near the station",
        Moment("main-2", 0),
    )

    release = anyio.Event()
    release.set()  # the new run's gate is open: only steps can place the second root
    tools = ToolRegistry([ASK_USER, gate_tool(release)])
    async with scripted_runtime(script=_script(), tools=tools) as runtime:
        recorder = Recorder(runtime)
        player = RerunPlayer(runtime, plan)
        player.attach()
        first = player.start()
        await runtime.wait(first)
        (second,) = player.roots[1:]
        await runtime.wait(second)
        recorder.sync()
        assert (
            runtime.node(second).name == "main-2" and runtime.node(second).result == "Second done."
        )
        # Like an intervention, it started at main's first model call once main had its step 1:
        # the one after step 2 (its gate's result), before that call's answer, step 3.
        spawned = next(
            e for e in recorder.events if e.type == "agent:spawned" and e.agent_id == second
        )
        main_steps = [
            e for e in recorder.events if e.type == "conversation:changed" and e.agent_id == first
        ]
        assert main_steps[2].seq < spawned.seq < main_steps[3].seq
        # Its steer reached its model, as in the old run.
        request = next(
            e for e in recorder.events if isinstance(e, LLMRequested) and e.agent_id == second
        )
        assert request is not None
        assert "near the station" in " ".join(
            m.text for m in runtime.node(second).conversation.messages
        )
        assert player.started == [
            "root main-2 ('book the hotel') after main@1: started when main had step 2"
        ]
        assert [p.describe() for p in player.played] == [
            "steer 'near the station' after main-2@0: given at main-2's model call after step 0"
        ]
        assert player.unplayed({"main": first, "main-2": second}) == []


async def test_a_root_whose_moment_never_comes_is_said_not_started() -> None:
    plan = rerun_plan(await _two_roots(), "s1")
    plan.roots[0] = type(plan.roots[0])("main-2", "book the hotel", Moment("main", 9))
    async with scripted_runtime(
        script=_script(), tools=ToolRegistry([ASK_USER, gate_tool(_open())])
    ) as runtime:
        player = RerunPlayer(runtime, plan)
        player.attach()
        first = player.start()
        await runtime.wait(first)
        assert player.roots == [first] and player.roots_to_come
        lines = player.unplayed({"main": first})
    assert lines[0] == (
        "root main-2 ('book the hotel') after main@9: not started: main never had step 9 "
        "(its last step: 3)"
    )
    assert "steer 'near the station' after main-2@0: not given: no agent main-2" in lines[1]


def _open() -> anyio.Event:
    event = anyio.Event()
    event.set()
    return event


def _decide(**value: object) -> Turn:
    return Turn(text=json.dumps(value))


SIX_STEP = Script(
    agents={"main": [Turn(text="Done.")]},
    decisions={"main": {"clarify": [_decide(ambiguous=True, question="Which city?")]}},
)


def _six_step_runtime() -> tuple[Runtime, ScriptedProvider]:
    provider = ScriptedProvider(SIX_STEP)
    runtime = Runtime(
        provider, tools=ToolRegistry([ASK_USER]), clock=FrozenClock(), workflow="six-step"
    )
    return runtime, provider


def _questions_request(provider: ScriptedProvider) -> ProviderRequest:
    (request,) = [r for r in provider.requests if r.decision == "questions"]
    return request


async def test_a_steer_a_six_step_decision_read_is_given_again_before_that_decision() -> None:
    """The person steers while the clarifying question waits: the questions decision after the
    answer reads it. The re-run gives it there again, not at the agent's first loop turn."""
    runtime, provider = _six_step_runtime()
    async with runtime:
        recorder = Recorder(runtime)
        root = runtime.start("plan a trip")
        (query,) = await recorder.wait_for(is_type("query:raised", root))
        assert isinstance(query, QueryRaised)
        runtime.steer(root, "by train")
        runtime.answer(query.query_id, "Lisbon")
        await runtime.wait(root)
        recorder.sync()
        old_steps = [(s.number, s.kind) for s in runtime.steps(root)]
    assert "by train" in " ".join(m.text for m in _questions_request(provider).messages)
    plan = rerun_plan(recorder.events, "s1")
    (steer,) = plan.interventions
    assert steer.moment == Moment("main", 1)

    runtime, provider = _six_step_runtime()
    async with runtime:
        recorder = Recorder(runtime)
        player = RerunPlayer(runtime, plan)
        player.attach()
        root = player.start()
        (query,) = await recorder.wait_for(is_type("query:raised", root))
        assert isinstance(query, QueryRaised)
        assert player.answer(query, "main") is not None
        await runtime.wait(root)
        assert [(s.number, s.kind) for s in runtime.steps(root)] == old_steps
    assert "by train" in " ".join(m.text for m in _questions_request(provider).messages)
    assert [p.describe() for p in player.played] == [
        "steer 'by train' after main@1: given at main's model call after step 1"
    ]
