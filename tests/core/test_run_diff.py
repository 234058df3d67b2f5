"""Two runs compared (core/session/run_diff.py): agents matched by name or fork origin, steps
aligned by what they did, the first divergence marked, scenes round by round."""

from __future__ import annotations

import pytest

from agentui.core.protocol import events as ev
from agentui.core.providers.scripted.script import Script, ScriptedToolCall, Turn
from agentui.core.session.run_diff import diff_agents, diff_runs
from agentui.core.session.run_outline import RunOutline, run_outline
from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, scripted_runtime
from .session_helpers import echo_tool

pytestmark = pytest.mark.anyio


def _echo(text: str) -> Turn:
    return Turn(text="Echoing.", tool_calls=[ScriptedToolCall(name="echo",
                                                              arguments={"text": text})])  # fmt: skip


async def _run(session: str, *turns: Turn, roots: int = 1) -> RunOutline:
    """A finished run of `turns` (each root plays them), outlined."""
    tools = ToolRegistry([ASK_USER, echo_tool()])
    async with scripted_runtime(script=Script.for_all(*turns), tools=tools) as runtime:
        recorder = Recorder(runtime)
        started = [runtime.start("say it back") for _ in range(roots)]
        for agent_id in started:
            await runtime.wait(agent_id)
        recorder.sync()
    return run_outline(recorder.events, session)


async def test_two_runs_that_did_the_same_work_do_not_diverge() -> None:
    turns = (_echo("a"), _echo("b"), Turn(text="Done."))
    result = diff_runs(await _run("A", *turns), await _run("B", *turns))
    assert not result.diverged and result.first is None
    (main,) = result.agents
    assert [(p.a.number, p.b.number) for p in main.pairs if p.a and p.b] == [
        (n, n) for n in range(6)
    ]
    assert all(pair.same for pair in main.pairs)
    assert main.a is not None and main.a.tokens > 0 and main.a.tokens == main.b.tokens  # type: ignore[union-attr]


async def test_different_tool_arguments_at_a_step_diverge_at_that_step() -> None:
    a = await _run("A", _echo("a"), _echo("left"), Turn(text="Done."))
    b = await _run("B", _echo("a"), _echo("right"), Turn(text="Done."))
    result = diff_runs(a, b)
    first = result.first
    assert first is not None and first.name == "main"
    assert first.diverges_at is not None
    pair = first.pairs[first.diverges_at]
    assert pair.a is not None and pair.b is not None
    assert (pair.a.number, pair.b.number, pair.a.kind) == (3, 3, "model")
    assert [str(c) for c in pair.a.calls] == ['echo {"text": "left"}']
    assert [str(c) for c in pair.b.calls] == ['echo {"text": "right"}']
    assert first.divergence() == "main@3 and main@3 differ"
    assert all(p.same for p in first.pairs[: first.diverges_at]), "steps 0 to 2 are the same"


async def test_an_agent_only_one_run_has_is_a_divergence_of_its_own() -> None:
    turns = (_echo("a"), Turn(text="Done."))
    result = diff_runs(await _run("A", *turns), await _run("B", *turns, roots=2))
    assert [agent.name for agent in result.agents] == ["main", "main-2"]
    main, extra = result.agents
    assert not main.diverged
    assert extra.a is None and extra.divergence() == "main-2 is only in B"
    assert result.first is extra


async def test_a_steer_only_one_run_had_stands_alone_and_the_rest_aligns() -> None:
    a = await _run("A", _echo("a"), Turn(text="Done."))
    b = await _run("B", _echo("a"), Turn(text="Done."))
    (task, *rest) = b.agents["main"].steps
    steer = type(task)(1, "steer", "be brief", "be brief")
    b.agents["main"].steps = [task, steer, *(type(s)(s.number + 1, s.kind, s.summary, s.text,
                                                     s.calls, s.results) for s in rest)]  # fmt: skip
    main = diff_agents(a.agents["main"], b.agents["main"])
    assert main.divergence() == "B has main@1 (steer), A has no such step"
    after = main.pairs[(main.diverges_at or 0) + 1 :]
    assert [(p.a.number, p.b.number) for p in after if p.a and p.b] == [(1, 2), (2, 3), (3, 4)]
    assert all(p.same for p in after)


async def test_a_fork_is_compared_with_its_origin_from_the_fork_step_on() -> None:
    tools = ToolRegistry([ASK_USER, echo_tool()])
    # The fork goes on as main went on after its step 2, but for the words it echoes.
    script = Script(agents={"main": [_echo("a"), _echo("b"), Turn(text="Done.")],
                            "main~1": [_echo("c"), Turn(text="Done.")]})  # fmt: skip
    async with scripted_runtime(script=script, tools=tools) as runtime:
        recorder = Recorder(runtime)
        root = runtime.start("say it back")
        await runtime.wait(root)
        fork = runtime.fork_from(root, 2)
        await runtime.wait(fork)
        recorder.sync()
    outline = run_outline(recorder.events, "S")
    assert list(outline.agents) == ["main", "main~1"]
    whole = diff_runs(outline, outline)
    assert not whole.diverged, "a run against itself"
    compared = diff_agents(outline.agents["main~1"], outline.agents["main"])
    assert compared.fork_point == (0, 2), "the fork's copy is main's step 2"
    assert [(p.a.number, p.b.number) for p in compared.pairs if p.a and p.b] == [
        (1, 3), (2, 4), (3, 5),
    ], "the fork's own steps against main's after step 2"  # fmt: skip
    assert compared.divergence() == "main~1@1 and main@3 differ"
    assert [p.same for p in compared.pairs] == [False, False, True]


def _round(number: int, said: str, seq: int) -> list[ev.Event]:
    return [
        ev.RoundStarted(seq=seq, ts=0.0, agent_id="s1", round=number, request="user_input",
                        text=f"round {number}"),
        ev.CharacterCompleted(seq=seq + 1, ts=0.0, agent_id="c1", round=number, director_pass=1,
                              name="alice", character_id="c1", ended="completed", text=said),
        ev.RoundCompleted(seq=seq + 2, ts=0.0, agent_id="s1", round=number, ended="closed",
                          director_passes=2, acted=["alice"]),
    ]  # fmt: skip


def test_scenes_compare_round_by_round() -> None:
    a = run_outline([*_round(1, "Hello.", 1), *_round(2, "I stay.", 4)], "A")
    b = run_outline([*_round(1, "Hello.", 1), *_round(2, "I leave.", 4)], "B")
    result = diff_runs(a, b)
    assert [pair.same for pair in result.rounds] == [True, False]
    assert result.round_diverges_at == 1 and result.diverged
    assert result.first is None, "no agent's steps differ: the rounds do"
    assert not diff_runs(a, a).diverged
