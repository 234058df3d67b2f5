"""Rewind and fork inside a directed scene's round (issue #32).

A character's agent rewound while its model streams, or once its run ended but before its round
recorded the turn (the round paused), is resumed: the round records the next run's line, not
the one set aside, and the scene goes on to its next round; once the round has recorded the
turn, a rewind is refused in words (the round keeps the line); the events, folded again
(RunState), are the runtime's agents. A fork from a character's step is a new root beside the
scene, which plays on undisturbed. The scene's own agents (its root, a round) have no steps:
a rewind or a fork of them is refused by the `allowed` table, in its words.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import anyio
import pytest

from agentui.core.agent.steps import steps_in
from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command
from agentui.core.protocol.events import Event, QueryRaised
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.runtime import Runtime
from agentui.core.scene.scene_run import start_scene
from agentui.core.scene.scene_state import SceneState
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.state import RunState
from agentui.core.support.errors import CommandRefusedError

from .scene_helpers import SAFETY_NET_S, acting, decision, harbour, of, scene_runtime
from .session_helpers import recorded_runtime

pytestmark = pytest.mark.anyio

# Answers to the scene's questions: round 1 from the person's words, round 2 goes on by
# itself, then the scene ends.
TWO_ROUNDS = ["Tomas, sell me a fish.", "", None]


def two_rounds(**turns: list[Turn]) -> Script:
    """Round 1: Tomas then Mara act; round 2: Mara alone; `turns` by agent name."""
    return Script(
        agents={
            "round-1.director": [Turn(text=decision(acting_characters=acting("Tomas", "Mara")))],
            "round-2.director": [Turn(text=decision(acting_characters=acting("Mara")))],
            "round-2.director-2": [Turn(text=decision())],
            "*": [Turn(text="*They nod.*")],
            **turns,
        }
    )


class PlayedScene:
    """The harbour scene started on a runtime: its events read (and kept) as the test goes,
    the scene's questions answered in order as they come."""

    def __init__(self, runtime: Runtime, answers: list[str | None]) -> None:
        self.runtime = runtime
        self._events = runtime.subscribe(maxsize=None)
        self.seen: list[Event] = []
        self._answers = list(answers)
        self.root = start_scene(runtime, harbour())

    async def until(self, predicate: Callable[[Any], bool]) -> Any:
        """Read until an event matches (bounded by the safety net); that event."""
        with anyio.fail_after(SAFETY_NET_S):
            async for event in self._events:
                self.seen.append(event)
                if isinstance(event, QueryRaised) and event.agent_id == self.root:
                    self.runtime.answer(event.query_id, self._answers.pop(0))
                if predicate(event):
                    return event
        raise AssertionError("the event stream ended first")

    def read_pending(self) -> None:
        """Keep the events already published (once every task is blocked: all of them)."""
        pending = self._events.drain()
        assert not of(pending, "query:raised"), "no question is left unanswered here"
        self.seen.extend(pending)

    async def turn_of(self, name: str, round_number: int = 1) -> Any:
        """The character's `character:start` in the round."""
        return await self.until(
            lambda e: e.type == "character:start" and (e.name, e.round) == (name, round_number)
        )

    async def until_status(self, agent_id: str, new: AgentStatus) -> None:
        await self.until(status_is(agent_id, new))

    async def to_the_end(self) -> None:
        """Until the scene's root has completed (read already, or still to come)."""
        ended = status_is(self.root, AgentStatus.COMPLETED)
        if not any(ended(e) for e in self.seen):
            await self.until(ended)

    def lines(self, round_number: int) -> list[tuple[str, str]]:
        """(speaker, text) of the round's recorded turns, from its events."""
        return [
            (e.name, e.text) for e in of(self.seen, "character:complete") if e.round == round_number
        ]

    def check_the_fold(self, live: dict[str, dict[str, Any]]) -> RunState:
        """The events folded again are the runtime's agents (`live`: each agent's
        `with_history`, read before the runtime closed); the fold."""
        state = RunState()
        state.apply_all(self.seen)
        assert set(state.agents) == set(live)
        for agent_id, agent in live.items():
            assert state.agents[agent_id].with_history() == agent, agent["name"]
        return state


def status_is(agent_id: str, new: AgentStatus) -> Callable[[Any], bool]:
    return lambda e: e.type == "agent:status" and e.agent_id == agent_id and e.new == new


def every_agent(runtime: Runtime) -> dict[str, dict[str, Any]]:
    return {node.id: runtime.agent(node.id) for node in runtime.nodes()}


def closed_rounds(scene: PlayedScene) -> list[tuple[int, str]]:
    return [(e.round, e.ended) for e in of(scene.seen, "round:complete")]


async def test_a_character_rewound_mid_stream_gives_its_round_its_next_run_s_line(
    tmp_path: Path,
) -> None:
    tomas_turns = [Turn(text="Fresh", hang_after_chunks=1), Turn(text="Fresh fish, cheap.")]
    runtime = recorded_runtime(tmp_path, script=two_rounds(**{"round-1.Tomas": tomas_turns}))
    async with runtime:
        scene = PlayedScene(runtime, TWO_ROUNDS)
        started = await scene.turn_of("Tomas")
        tomas, round_id = started.character_id, started.agent_id
        await scene.until(lambda e: e.type == "text:delta" and e.agent_id == tomas)

        runtime.rewind(tomas, 0)  # its task: the stream is cut, the round waits on
        await scene.until_status(tomas, AgentStatus.PAUSED)
        await anyio.wait_all_tasks_blocked()
        scene.read_pending()
        assert of(scene.seen, "character:complete") == [], "the round holds for its next run"
        assert runtime.node(round_id).status is AgentStatus.RUNNING
        runtime.resume(tomas)
        await scene.to_the_end()

        assert runtime.node(tomas).result == "Fresh fish, cheap."
        live = every_agent(runtime)
        tomas_steps = runtime.steps(tomas)

    assert scene.lines(1) == [("Tomas", "Fresh fish, cheap."), ("Mara", "*They nod.*")]
    assert scene.lines(2) == [("Mara", "*They nod.*")], "the scene went on to its next round"
    assert closed_rounds(scene) == [(1, "closed"), (2, "closed")]
    scene.check_the_fold(live)
    # The session's log, folded again, is the runtime too: the run the rewind cut and all.
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    state = fold_session(log)
    for agent_id, agent in live.items():
        assert state.agents[agent_id].with_history() == agent, agent["name"]
    assert steps_in(log.events, tomas, "round-1.Tomas").steps == tomas_steps
    assert [s.kind for s in tomas_steps] == ["task", "model"], "the cut stream is no step"
    folded_scene = state.scenes[scene.root]
    assert isinstance(folded_scene, SceneState)
    assert [(m.speaker, m.text) for m in folded_scene.record.rounds[0].messages] == scene.lines(1)


@pytest.mark.parametrize("who", ["character", "director"])
async def test_an_agent_rewound_after_its_run_ended_while_its_round_was_paused(who: str) -> None:
    """The round waited at its pause gate to record the turn: on resuming it records what the
    agent's next run gave, not what the rewind set aside (a regression: it took the old)."""
    script = two_rounds(
        **{
            "round-1.Tomas": [Turn(text="First line."), Turn(text="Second line.")],
            "round-1.director": [
                Turn(text=decision(acting_characters=acting("Tomas", "Mara"))),
                Turn(text=decision(acting_characters=acting("Mara", "Tomas"))),
            ],
        }
    )
    runtime = scene_runtime(script)
    async with runtime:
        scene = PlayedScene(runtime, TWO_ROUNDS)
        if who == "character":
            started = await scene.turn_of("Tomas")
            agent_id, round_id = started.character_id, started.agent_id
        else:
            started = await scene.until(lambda e: e.type == "director:start")
            agent_id, round_id = started.director_id, started.agent_id
        runtime.pause(round_id)
        await scene.until_status(agent_id, AgentStatus.COMPLETED)
        # Every task blocked: the round is at its gate, past its wait on the agent.
        await anyio.wait_all_tasks_blocked()

        runtime.rewind(agent_id, 0)
        await scene.until_status(agent_id, AgentStatus.PAUSED)
        runtime.resume(agent_id)
        await scene.until_status(agent_id, AgentStatus.COMPLETED)
        runtime.resume(round_id)
        await scene.to_the_end()
        live = every_agent(runtime)

    if who == "character":
        assert scene.lines(1) == [("Tomas", "Second line."), ("Mara", "*They nod.*")]
    else:  # the second decision: Mara first
        (decided, *_) = of(scene.seen, "director:complete")
        assert [turn.name for turn in decided.turns] == ["Mara", "Tomas"]
        assert scene.lines(1) == [("Mara", "*They nod.*"), ("Tomas", "First line.")]
    assert closed_rounds(scene) == [(1, "closed"), (2, "closed")]
    scene.check_the_fold(live)


async def test_a_character_whose_turn_its_round_recorded_is_refused_a_rewind_in_words() -> None:
    """Once the round has recorded a turn it keeps the line: a rewind would run the character
    on outside the round, so it is refused (while its round plays on and after it closed);
    a fork from the step is the way to try the turn again."""
    script = two_rounds(**{"round-1.Tomas": [Turn(text="First line."), Turn(text="Second.")]})
    runtime = scene_runtime(script)
    async with runtime:
        scene = PlayedScene(runtime, TWO_ROUNDS)
        round_id = (await scene.turn_of("Mara")).agent_id
        runtime.pause(round_id)  # mid-way: on Mara's turn, Tomas's recorded
        tomas = next(n.id for n in runtime.nodes() if n.name == "round-1.Tomas")
        refusal = (
            "Tomas's turn is recorded in round 1, which keeps its line: a rewound Tomas would "
            "run on outside the round. Fork from the step instead: it runs beside the scene"
        )
        with pytest.raises(CommandRefusedError) as refused:
            runtime.rewind(tomas, 0)
        assert str(refused.value) == refusal
        assert runtime.node(tomas).status is AgentStatus.COMPLETED, "nothing was disturbed"
        runtime.resume(round_id)
        await scene.until(lambda e: e.type == "round:complete" and e.round == 1)
        with pytest.raises(CommandRefusedError, match="recorded in round 1"):
            runtime.rewind(tomas, 0)
        await scene.to_the_end()
        live = every_agent(runtime)

    assert scene.lines(1) == [("Tomas", "First line."), ("Mara", "*They nod.*")]
    assert closed_rounds(scene) == [(1, "closed"), (2, "closed")]
    scene.check_the_fold(live)


async def test_a_fork_from_a_character_s_step_is_a_new_root_beside_the_scene() -> None:
    tomas_turns = [Turn(text="Fresh fish.")]
    runtime = scene_runtime(two_rounds(**{"round-1.Tomas": tomas_turns}))
    async with runtime:
        scene = PlayedScene(runtime, TWO_ROUNDS)
        round_id = (await scene.turn_of("Mara")).agent_id
        runtime.pause(round_id)  # mid-way: on Mara's turn, Tomas's recorded
        tomas = next(n.id for n in runtime.nodes() if n.name == "round-1.Tomas")
        assert [step.kind for step in runtime.steps(tomas)] == ["task", "model"]

        fork = runtime.fork_from(tomas, 0)
        node = runtime.node(fork)
        assert (node.name, node.parent_id) == ("round-1.Tomas~1", None)
        assert node.conversation.messages == runtime.node(tomas).conversation.messages[:1]
        assert fork not in {n.id for n in runtime.subtree(scene.root)}
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(fork)
        runtime.resume(round_id)
        await scene.to_the_end()
        assert runtime.node(tomas).result == "Fresh fish.", "the origin is as it was"
        assert node.status is AgentStatus.COMPLETED and node.result == "*They nod.*"
        live = every_agent(runtime)

    assert scene.lines(1) == [("Tomas", "Fresh fish."), ("Mara", "*They nod.*")]
    assert closed_rounds(scene) == [(1, "closed"), (2, "closed")]
    (forked,) = of(scene.seen, "agent:forked")
    assert (forked.origin_id, forked.origin_name, forked.step) == (tomas, "round-1.Tomas", 0)
    state = scene.check_the_fold(live)
    assert state.agents[fork].forked_from is not None


async def test_the_scene_and_its_rounds_refuse_a_rewind_or_a_fork_in_words() -> None:
    runtime = scene_runtime(two_rounds(**{"round-1.Tomas": [Turn(text="F", hang_after_chunks=1)]}))
    async with runtime:
        scene = PlayedScene(runtime, TWO_ROUNDS)
        started = await scene.turn_of("Tomas")
        round_id, tomas = started.agent_id, started.character_id
        for driven, name, kind in (
            (scene.root, "harbour", "scene"),
            (round_id, "round-1", "round"),
        ):
            assert not {Command.REWIND, Command.FORK} & runtime.allowed(driven)
            with pytest.raises(CommandRefusedError) as rewind:
                runtime.rewind(driven, 0)
            assert str(rewind.value) == (
                f"{name} is a {kind} that agentui runs, not a model: it has no steps to go "
                "back to; the agents under it can be rewound"
            )
            with pytest.raises(CommandRefusedError) as fork:
                runtime.fork_from(driven, 0)
            assert str(fork.value) == (
                f"{name} is a {kind} that agentui runs: it has no steps to fork from; the "
                "agents under it can be forked from"
            )
        assert {Command.REWIND, Command.FORK} <= runtime.allowed(tomas), "its agents can"
        assert runtime.node(round_id).status is AgentStatus.RUNNING, "nothing was disturbed"
        runtime.cancel(scene.root)
        await scene.until(lambda e: e.type == "round:complete")
    assert closed_rounds(scene) == [(1, "stopped")]
