"""Director -> Characters -> Director rounds on the scripted model: the events, the tree, the
envelope each agent gets, passes, entries and exits, JSON that fails, and the person's hand."""

from __future__ import annotations

from typing import Any

import anyio
import anyio.lowlevel
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.monologue import MonologueConfig, attach_monologue
from agentui.core.protocol.events import Event, QueryRaised
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.scene.scene_loading import load_scene
from agentui.core.scene.scene_run import start_scene, unfinished_scene
from agentui.core.state import RunState
from agentui.core.support.errors import CommandRefusedError

from .scene_helpers import SAFETY_NET_S, acting, decision, harbour, of, play, scene_runtime
from .test_monologue_fakes import FakeNarrator

pytestmark = pytest.mark.anyio

SCENE_TYPES = (
    "scene:start",
    "round:start",
    "director:start",
    "director:complete",
    "character:start",
    "character:complete",
    "character:activated",
    "character:deactivated",
    "round:complete",
)


def story(events: list[Event]) -> list[tuple[Any, ...]]:
    """The scene's events (state updates apart), each as (type, what it is about)."""
    out: list[tuple[Any, ...]] = []
    for event in of(events, *SCENE_TYPES):
        about = getattr(event, "name", None) or getattr(event, "director_pass", None)
        out.append((event.type, about) if about is not None else (event.type,))
    return out


def folded(events: list[Event]) -> RunState:
    state = RunState()
    state.apply_all(events)
    return state


async def test_a_round_from_the_persons_input_with_a_reconciling_second_pass() -> None:
    runtime = scene_runtime()
    async with runtime:
        root, events = await play(runtime, harbour(), ["Tomas, sell me a fish.", None])
        tree = {node.name: node for node in runtime.subtree(root)}
        requests = runtime.provider.requests  # type: ignore[attr-defined]

    # Tomas was named, so he acts first; the demo leaves Mara for the second pass in odd rounds.
    assert story(events) == [
        ("scene:start",),
        ("round:start",),
        ("director:start", 1),
        ("director:complete", 1),
        ("character:start", "Tomas"),
        ("character:complete", "Tomas"),
        ("director:start", 2),
        ("director:complete", 2),
        ("character:start", "Mara"),
        ("character:complete", "Mara"),
        ("round:complete",),
    ]
    assert set(tree) == {
        "harbour",
        "round-1",
        "round-1.director",
        "round-1.Tomas",
        "round-1.director-2",
        "round-1.Mara",
    }
    assert (tree["harbour"].driver, tree["round-1"].driver) == ("scene", "round")
    assert tree["round-1"].parent_id == root
    for name in ("round-1.director", "round-1.Tomas", "round-1.director-2", "round-1.Mara"):
        assert tree[name].parent_id == tree["round-1"].id, "agents live under their round"
        assert tree[name].status is S.COMPLETED
    assert (tree["round-1.director"].profile, tree["round-1.Mara"].profile) == (
        "director",
        "character",
    )
    (started,) = of(events, "round:start")
    assert (started.request, started.text, started.agent_id) == (
        "user_input",
        "Tomas, sell me a fish.",
        tree["round-1"].id,
    )
    checks = of(events, "answer:validated")
    assert [(e.agent_id, e.ok) for e in checks] == [
        (tree["round-1.director"].id, True),
        (tree["round-1.director-2"].id, True),
    ]

    # Each character's call: its directive first, then the envelope, and the same as data.
    tomas = next(r for r in requests if r.agent_name == "round-1.Tomas")
    task = tomas.messages[0].text
    first = of(events, "director:complete")[0]
    directive = first.turns[0].guidance.directive
    assert task.startswith(f"Tomas, round 1: {directive}\n\n# Scene: Harbour\nYou are: Tomas\n")
    assert "## Persona\nTomas: A fisherman." in task
    assert f"## The director's guidance for you\nTomas, now: {directive}" in task
    assert "Request: The person says: Tomas, sell me a fish." in task
    assert tomas.scene is not None
    assert (tomas.scene.role, tomas.scene.speaker, tomas.scene.directive) == (
        "character",
        "Tomas",
        directive,
    )
    mara = next(r for r in requests if r.agent_name == "round-1.Mara")
    assert "Acted this round: Tomas" in mara.messages[0].text
    assert mara.scene is not None and mara.scene.last_line is not None
    assert mara.scene.last_line[0] == "Tomas"
    reconcile = next(r for r in requests if r.agent_name == "round-1.director-2")
    assert reconcile.messages[0].text.startswith("Round 1, pass 2 (reconciliation)")
    assert reconcile.scene is not None and reconcile.scene.director_pass == 2

    (closed,) = of(events, "round:complete")
    assert (closed.ended, closed.director_passes, closed.acted) == ("closed", 2, ["Tomas", "Mara"])
    assert closed.running_summary.startswith("Round 1: The person: Tomas, sell me a fish; Tomas: ")

    scene = folded(events).scenes[root]
    record = scene.record
    assert [m.speaker for m in record.rounds[0].messages] == ["Tomas", "Mara"]
    assert record.rounds[0].closed and record.running_summary == closed.running_summary
    flags = scene.rounds[0].flags("Mara")
    assert (flags.has_acted_this_round, flags.entered_this_round) == (True, False)
    texts = [e.text for e in of(events, "character:complete")]
    assert all(text.strip() for text in texts), "every turn said something"
    # The scene's own transcript is the play: each line in order, as the round's has it.
    lines = [(e.title, e.text) for e in folded(events).agents[root].entries if e.kind == "line"]
    assert lines == [("Tomas", texts[0].strip()), ("Mara", texts[1].strip())]


async def test_a_continuation_round_brings_a_character_in_with_its_entry() -> None:
    runtime = scene_runtime()
    async with runtime:
        root, events = await play(runtime, harbour(), ["Good evening.", "", None])
        result = runtime.node(root).result or ""

    second = [e for e in events if getattr(e, "round", None) == 2]
    (started,) = of(second, "round:start")
    assert (started.request, started.text) == ("continuation", "")
    (entered,) = of(second, "character:activated")
    assert entered.name == "Ines" and entered.entry_guidance
    ines_turn = next(e for e in of(second, "character:start") if e.name == "Ines")
    assert ines_turn.guidance.entry == entered.entry_guidance
    assert entered.seq < ines_turn.seq, "entries apply before anyone acts"
    (closed,) = of(second, "round:complete")
    assert closed.entered == ["Ines"] and sorted(closed.acted) == ["Ines", "Mara", "Tomas"]
    assert closed.director_passes == 1, "everyone acted: no reconciliation"
    scene = folded(events).scenes[root]
    ines = scene.record.character("Ines")
    assert ines is not None and ines.active
    assert scene.rounds[1].flags("Ines").entered_this_round
    # The root's result is the scene as it was played.
    assert result.startswith("# Harbour\n\n## Round 1\n\nYou: Good evening.\n\n")
    assert "## Round 2\n\n(the scene went on by itself)" in result


def scripted_director(*passes: str, characters: str = "*They nod.*") -> Script:
    agents: dict[str, list[Turn]] = {"*": [Turn(text=characters)]}
    for number, text in enumerate(passes, start=1):
        name = "round-1.director" if number == 1 else f"round-1.director-{number}"
        agents[name] = [Turn(text=text)]
    return Script(agents=agents)


async def test_pass_two_can_call_another_character_and_bring_one_in() -> None:
    script = scripted_director(
        decision(
            acting_characters=acting("Mara"), state_updates=[{"name": "Mara", "mood": "wary"}]
        ),
        decision(
            acting_characters=acting("Tomas"),
            activations=[{"name": "Ines", "entry_guidance": "Step off the bus."}],
            state_updates=[{"name": "Mara", "mood": "relieved"}],
        ),
    )
    runtime = scene_runtime(script)
    async with runtime:
        root, events = await play(runtime, harbour(), ["Close up.", None])
    assert story(events)[2:] == [
        ("director:start", 1),
        ("director:complete", 1),
        ("character:start", "Mara"),
        ("character:complete", "Mara"),
        ("director:start", 2),
        ("director:complete", 2),
        ("character:activated", "Ines"),
        ("character:start", "Tomas"),
        ("character:complete", "Tomas"),
        ("character:start", "Ines"),
        ("character:complete", "Ines"),
        ("round:complete",),
    ]
    updates = [(e.character, e.changes, e.source) for e in of(events, "state:updated")]
    assert updates == [
        ("Mara", {"mood": "wary"}, "director"),
        ("Mara", {"mood": "relieved"}, "director"),
    ], "the second pass overrides; '*They nod.*' infers nothing"
    mara = folded(events).scenes[root].record.character("Mara")
    assert mara is not None and mara.mood == "relieved"


async def test_the_pass_cap_holds() -> None:
    # Pass 2 calls no one although Tomas has not acted: there is no third pass.
    script = scripted_director(decision(acting_characters=acting("Mara")), decision())
    runtime = scene_runtime(script)
    async with runtime:
        _, events = await play(runtime, harbour(), ["Close up.", None])
    (closed,) = of(events, "round:complete")
    assert (closed.director_passes, closed.acted) == (2, ["Mara"])
    # One pass only: the scene says so.
    script = scripted_director(decision(acting_characters=acting("Mara")))
    runtime = scene_runtime(script)
    async with runtime:
        _, events = await play(
            runtime, harbour("\n[options]\nmax_director_passes = 1\n"), ["Close up.", None]
        )
    (closed,) = of(events, "round:complete")
    assert (closed.director_passes, closed.acted) == (1, ["Mara"])
    assert [e.director_pass for e in of(events, "director:start")] == [1]


async def test_an_invalid_answer_goes_back_with_its_errors_and_the_retry_holds() -> None:
    script = Script(
        agents={
            "round-1.director": [
                Turn(text="Mara speaks first."),
                Turn(text=decision(acting_characters=acting("Mara", "Tomas"))),
            ],
            "*": [Turn(text="*They nod.*")],
        }
    )
    runtime = scene_runtime(script)
    async with runtime:
        _, events = await play(runtime, harbour(), ["Close up.", None])
        director = next(n for n in runtime.subtree("a1") if n.name == "round-1.director")
        conversation = runtime.agent(director.id)["conversation"]["messages"]
    checks = of(events, "answer:validated")
    assert [(e.attempt, e.ok) for e in checks] == [(1, False), (2, True)]
    assert checks[0].errors[0].startswith("$: the answer is not JSON")
    assert "does not hold to the required JSON format" in str(conversation[-2])
    (closed,) = of(events, "round:complete")
    assert (closed.ended, closed.acted) == ("closed", ["Mara", "Tomas"])


async def test_a_director_that_never_answers_right_fails_its_node_and_the_round() -> None:
    script = Script(agents={"round-1.director": [Turn(text="no")] * 3, "*": [Turn(text="*Hm.*")]})
    runtime = scene_runtime(script)
    questions: list[str] = []
    async with runtime:
        root, events = await play(
            runtime,
            harbour(),
            ["Close up.", None],
            react=lambda e: questions.append(e.prompt) if e.type == "query:raised" else None,
        )
        tree = {node.name: node for node in runtime.subtree(root)}
    director, round_node = tree["round-1.director"], tree["round-1"]
    assert director.status is S.ERROR
    assert director.error is not None
    assert director.error.startswith("the answer is not valid for profile 'director'")
    (failed,) = of(events, "director:complete")
    assert failed.decision is None and failed.error == f"the director failed: {director.error}"
    (closed,) = of(events, "round:complete")
    assert (closed.ended, closed.acted) == ("failed", [])
    assert round_node.status is S.ERROR
    assert round_node.error == f"round 1: director pass 1: {failed.error}"
    # The scene goes on: the person is asked for round 2, and ends it.
    assert [q.split(":")[0] for q in questions] == ["Round 1 of Harbour", "Round 2 of Harbour"]
    assert tree["harbour"].status is S.COMPLETED


async def test_deleting_a_character_takes_it_out_of_the_scene() -> None:
    script = Script(
        agents={
            "round-1.director": [Turn(text=decision(acting_characters=acting("Tomas", "Mara")))],
            "round-1.Tomas": [Turn(text="Well, I", hang_after_chunks=1)],
            "*": [Turn(text="*Mara shrugs.*")],
        }
    )
    runtime = scene_runtime(script)

    def delete_tomas(event: Event) -> None:
        if event.type == "character:start" and getattr(event, "name", "") == "Tomas":
            runtime.delete(event.character_id)  # type: ignore[attr-defined]

    async with runtime:
        root, events = await play(runtime, harbour(), ["Close up.", None], react=delete_tomas)
    ends = [(e.name, e.ended) for e in of(events, "character:complete")]
    assert ends == [("Tomas", "deleted"), ("Mara", "completed")]
    (gone,) = of(events, "character:deactivated")
    assert (gone.name, gone.by) == ("Tomas", "person")
    scene = folded(events).scenes[root]
    tomas = scene.record.character("Tomas")
    assert tomas is not None and not tomas.active
    assert scene.rounds[0].flags("Tomas").exited_this_round
    (closed,) = of(events, "round:complete")
    assert closed.director_passes == 1, "everyone still in the scene has acted"


async def test_a_director_exit_is_played_then_applied() -> None:
    script = scripted_director(
        decision(
            acting_characters=acting("Mara"),
            deactivations=[{"name": "Tomas", "exit_guidance": "Sail off."}],
        ),
        characters="*He walks to the boat.* “I'll be back at dawn.”",
    )
    runtime = scene_runtime(script)
    async with runtime:
        _, events = await play(runtime, harbour(), ["Close up.", None])
    tomas_turn = next(e for e in of(events, "character:start") if e.name == "Tomas")
    assert tomas_turn.guidance.exit == "Sail off."
    (gone,) = of(events, "character:deactivated")
    assert (gone.name, gone.by, gone.exit_guidance) == ("Tomas", "director", "Sail off.")
    assert tomas_turn.seq < gone.seq, "it leaves after its exit turn"
    inferred = [e.changes for e in of(events, "state:updated") if e.source == "inferred"]
    assert {"location": "the boat", "intentions": "be back at dawn"} in inferred
    (closed,) = of(events, "round:complete")
    assert (closed.exited, closed.director_passes) == (["Tomas"], 1)


async def test_rounds_and_scenes_take_no_steer_modify_or_continue() -> None:
    runtime = scene_runtime()
    async with runtime:
        root, _ = await play(runtime, harbour(), [None])
        with pytest.raises(CommandRefusedError, match="is a scene that agentui runs, not a model"):
            runtime.send(root, "go on")
        assert runtime.node(root).result == "# Harbour\n\n(no round was played)\n"


async def test_the_world_agent_runs_once_a_round_when_the_scene_turns_it_on() -> None:
    runtime = scene_runtime()
    async with runtime:
        root, events = await play(
            runtime, harbour("\n[options]\nworld_agent = true\n"), ["Close up.", None]
        )
        names = [n.name for n in runtime.subtree(root)]
    assert names[-1] == "round-1.world"
    (world,) = [e for e in of(events, "state:updated") if e.source == "world"]
    assert (world.character, world.changes) == (None, {"tension": "high"})
    (closed,) = of(events, "round:complete")
    assert world.seq < closed.seq, "after the director's last pass, before the round closes"
    facts = folded(events).scenes[root].record.world.facts
    assert facts == {"weather": "fog", "tension": "high"}


@pytest.mark.parametrize("name", ["lighthouse", "product_review"])
async def test_the_shipped_scenes_are_a_real_offline_demo(name: str) -> None:
    runtime = scene_runtime()
    scene = load_scene(name, runtime.profiles)
    cast = {c.name for c in scene.file.characters}
    first = scene.file.characters[0].name
    async with runtime:
        root, events = await play(runtime, scene, [f"{first}, what now?", "", "", "", None])
    assert [e.ok for e in of(events, "answer:validated")] == [True] * len(
        of(events, "answer:validated")
    ), "the offline director's JSON holds to the scene's schema at once"
    decisions = of(events, "director:complete")
    assert all(d.decision is not None and d.ignored == [] for d in decisions)
    assert {t.name for d in decisions for t in d.turns} <= cast
    closed = of(events, "round:complete")
    assert [c.ended for c in closed] == ["closed"] * 4
    assert len({tuple(c.acted) for c in closed}) > 1, "rounds differ"
    assert of(events, "character:activated"), "someone waiting is brought in"
    assert of(events, "character:deactivated"), "and someone leaves"
    assert {c.director_passes for c in closed} == {1, 2}
    sources = {e.source for e in of(events, "state:updated")}
    assert sources == {"director", "inferred"}
    first_turn = of(events, "character:complete")[0]
    assert first_turn.name == first, "who the person names acts first"
    assert runtime.node(root).status is S.COMPLETED


async def test_the_narrator_tells_the_directors_and_characters_not_the_rounds() -> None:
    runtime = scene_runtime()
    async with runtime:
        monologue = attach_monologue(runtime, FakeNarrator(default="I'm on it."), MonologueConfig())
        root, events = await play(runtime, harbour(), ["Close up.", None])
        with anyio.fail_after(SAFETY_NET_S):
            await monologue.wait_idle()
        events += runtime.subscribe(maxsize=None).drain()
        driven = {n.id for n in runtime.subtree(root) if n.driver is not None}
    narrated = {e.agent_id for e in of(events, "monologue")}
    assert narrated, "the round's agents are narrated"
    assert not narrated & driven


async def test_a_round_cut_off_by_shutdown_stays_open_for_a_resume() -> None:
    script = Script(
        agents={
            "round-1.director": [Turn(text=decision(acting_characters=acting("Mara", "Tomas")))],
            "round-1.Mara": [Turn(text="*Mara nods.*")],
            "round-1.Tomas": [Turn(text="Well", hang_after_chunks=1)],
        }
    )
    runtime = scene_runtime(script)
    state = RunState()
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        start_scene(runtime, harbour())
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                state.apply(event)
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, "Close up.")
                if event.type == "character:start" and event.name == "Tomas":  # type: ignore[attr-defined]
                    break
    state.apply_all(events.drain())  # the shutdown's own events
    assert not [e for e in state.scenes.values() for r in e.rounds if r.ended is not None]
    scene = unfinished_scene(state)
    assert scene is not None and scene.round is not None
    assert scene.round.acted == ["Mara"]


async def test_a_paused_round_waits_between_its_agents_until_resumed() -> None:
    runtime = scene_runtime()
    seen: list[Event] = []
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = start_scene(runtime, harbour())
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                seen.append(event)
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, "Close up.")
                if event.type == "director:start":
                    round_id = event.agent_id
                    runtime.pause(round_id)
                director_done = [
                    e
                    for e in seen
                    if e.type == "agent:status" and getattr(e, "new", "") == "completed"
                ]
                if director_done:
                    break
            await anyio.lowlevel.checkpoint()
            held = events.drain()
            assert of(held, "director:complete", "character:start") == [], "it holds"
            runtime.resume(round_id)
            async for event in events:
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, None)
                if event.agent_id == root and getattr(event, "new", "") == "completed":
                    break
        assert runtime.node(round_id).status is S.COMPLETED


async def test_a_world_update_with_an_empty_value_keeps_the_fact() -> None:
    world = '{"world_updates": [{"key": "weather", "value": " "}, {"key": "tide", "value": "low"}]}'
    script = scripted_director(decision(acting_characters=acting("Mara", "Tomas")))
    script.agents["round-1.world"] = [Turn(text=world)]
    runtime = scene_runtime(script)
    async with runtime:
        root, events = await play(
            runtime, harbour("\n[options]\nworld_agent = true\n"), ["Close up.", None]
        )
    (update,) = [e for e in of(events, "state:updated") if e.source == "world"]
    assert update.changes == {"tide": "low"}
    assert folded(events).scenes[root].record.world.facts == {"weather": "fog", "tide": "low"}


def two_rounds_of(*first: str, second: tuple[str, ...], **turns: list[Turn]) -> Script:
    """Round 1's director lets `first` act, round 2's `second`; `turns` by agent name."""
    return Script(
        agents={
            "round-1.director": [Turn(text=decision(acting_characters=acting(*first)))],
            "round-2.director": [Turn(text=decision(acting_characters=acting(*second)))],
            "round-2.director-2": [Turn(text=decision())],
            "*": [Turn(text="*They nod.*")],
            **turns,
        }
    )


async def test_deleting_a_characters_agent_between_rounds_takes_it_out() -> None:
    runtime = scene_runtime(two_rounds_of("Tomas", "Mara", second=("Tomas", "Mara")))
    agents: dict[str, str] = {}

    def delete_tomas_before_round_2(event: Event) -> None:
        if event.type == "character:start":
            agents[f"{event.round}.{event.name}"] = event.character_id  # type: ignore[attr-defined]
        if isinstance(event, QueryRaised) and "Round 2" in event.prompt:
            runtime.delete(agents["1.Tomas"])  # from the tree, long after its turn

    async with runtime:
        root, events = await play(
            runtime, harbour(), ["Close up.", "Go on.", None], react=delete_tomas_before_round_2
        )
    second = [e for e in events if getattr(e, "round", None) == 2]
    assert story(second)[:3] == [
        ("round:start",),
        ("character:deactivated", "Tomas"),
        ("director:start", 1),
    ], "taken out before the round's director pass"
    (gone,) = of(second, "character:deactivated")
    assert (gone.by, gone.director_pass) == ("person", 0)
    (decided,) = of(second, "director:complete")
    assert decided.ignored == [
        "acting_characters[0]: Tomas is not in the scene and is not activated"
    ]
    (closed,) = of(second, "round:complete")
    assert (closed.acted, closed.exited) == (["Mara"], ["Tomas"])
    tomas = folded(events).scenes[root].record.character("Tomas")
    assert tomas is not None and not tomas.active


async def test_a_character_deleted_while_another_acts_loses_its_turn_and_has_not_acted() -> None:
    script = two_rounds_of(
        "Tomas",
        "Mara",
        second=("Mara", "Tomas"),
        **{"round-2.Mara": [Turn(text="W", hang_after_chunks=1)]},
    )
    runtime = scene_runtime(script)
    agents: dict[str, str] = {}

    def delete_tomas_while_mara_speaks(event: Event) -> None:
        if event.type == "character:start":
            agents[f"{event.round}.{event.name}"] = event.character_id  # type: ignore[attr-defined]
            if event.round == 2 and event.name == "Mara":  # type: ignore[attr-defined]
                runtime.delete(agents["1.Tomas"])
                runtime.cancel(event.character_id)  # type: ignore[attr-defined]

    async with runtime:
        root, events = await play(
            runtime, harbour(), ["Close up.", "Go on.", None], react=delete_tomas_while_mara_speaks
        )
    second = [e for e in events if getattr(e, "round", None) == 2]
    assert story(second)[3:] == [
        ("character:start", "Mara"),
        ("character:complete", "Mara"),
        ("character:deactivated", "Tomas"),
        ("character:complete", "Tomas"),
        ("round:complete",),
    ]
    skipped = of(second, "character:complete")[-1]
    assert (skipped.ended, skipped.character_id) == ("skipped", "")
    (closed,) = of(second, "round:complete")
    assert (closed.acted, closed.exited, closed.director_passes) == (["Mara"], ["Tomas"], 1)
    assert not folded(events).scenes[root].rounds[1].flags("Tomas").has_acted_this_round


async def test_deleting_a_round_takes_none_of_its_characters_out() -> None:
    runtime = scene_runtime(two_rounds_of("Tomas", "Mara", second=("Tomas", "Mara")))
    rounds: dict[int, str] = {}

    def delete_round_1(event: Event) -> None:
        if event.type == "round:start":
            rounds[event.round] = event.agent_id  # type: ignore[attr-defined]
        if isinstance(event, QueryRaised) and "Round 2" in event.prompt:
            runtime.delete(rounds[1])  # its characters' agents go with it

    async with runtime:
        _, events = await play(
            runtime, harbour(), ["Close up.", "Go on.", None], react=delete_round_1
        )
    assert of(events, "character:deactivated") == []
    (_, closed) = of(events, "round:complete")
    assert closed.acted == ["Tomas", "Mara"]


async def test_the_scene_keeps_each_agent_calls_context_usage_per_section() -> None:
    runtime = scene_runtime()
    async with runtime:
        root, events = await play(runtime, harbour(), ["Tomas, sell me a fish.", "", None])
    starts = of(events, "director:start", "character:start")
    usage = folded(events).scenes[root].context_usage
    assert [(e.recipient, e.round_number) for e in usage] == [
        (getattr(e, "name", "director"), e.round) for e in starts
    ]
    assert all(e.used[s] <= e.budgets[s] for e in usage for s in e.budgets)
    means = usage.mean_used()
    assert means["history"] > 0, "round 2's calls see round 1 word for word"
    assert usage.mean_budgets()["history"] >= means["history"]
