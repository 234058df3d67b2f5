"""A scene in its session: the log is the per-round timeline; a scene cut off mid-round goes on
from its events after a resume; `export --format rounds` writes the timeline."""

from __future__ import annotations

import json
from pathlib import Path

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus as S
from agentui.core.protocol.events import (
    SHUTDOWN_REASON,
    AgentSpawned,
    Event,
    QueryRaised,
    SceneStarted,
    StatusChanged,
)
from agentui.core.providers.scripted.provider import ScriptedProvider
from agentui.core.providers.scripted.script import Script, Turn
from agentui.core.scene.scene_run import continue_scene, start_scene, unfinished_scene
from agentui.core.scene.scene_state import SceneState
from agentui.core.session.export import export_session
from agentui.core.session.fold import fold_session
from agentui.core.session.reader import read_session
from agentui.core.session.recording import RecordingRuntime
from agentui.core.session.resume import plan_resume
from agentui.core.session.writer import NewSession, SessionWriter
from agentui.core.state import INTERRUPTED, RunState
from agentui.core.support.clock import FrozenClock

from .scene_helpers import SAFETY_NET_S, acting, decision, harbour, of, play
from .session_helpers import resumed_runtime

pytestmark = pytest.mark.anyio


def recording(directory: Path, script: Script | None = None) -> RecordingRuntime:
    """A recording runtime on the scripted model (its scene demo without a script)."""
    writer = SessionWriter(NewSession(provider="scripted", model="scripted-1", directory=directory))
    return RecordingRuntime(ScriptedProvider(script), session=writer, clock=FrozenClock())


def cut_at(path: Path, seq: int, into: Path) -> Path:
    """The session file as a crash right after event `seq` was written would leave it."""
    lines = path.read_text("utf-8").splitlines(keepends=True)
    kept = [lines[0]] + [line for line in lines[1:] if json.loads(line).get("seq", 0) <= seq]
    into.mkdir(exist_ok=True)
    crashed = into / path.name
    crashed.write_text("".join(kept), "utf-8")
    return crashed


async def test_a_scene_cut_off_mid_round_goes_on_from_its_events(tmp_path: Path) -> None:
    runtime = recording(tmp_path / "sessions")
    async with runtime:
        old_root, events = await play(runtime, harbour(), ["Good evening.", "", None])
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(events[-1].seq)
    path = runtime.session.path
    assert path is not None
    # Round 2 (a continuation: Ines comes in) is cut off once its first character has acted.
    first_turn = next(e for e in of(events, "character:complete") if e.round == 2)
    crashed = cut_at(path, first_turn.seq, tmp_path / "crashed")

    plan = plan_resume(read_session(crashed))
    scene = unfinished_scene(plan.state)
    assert scene is not None and scene.scene_id == old_root
    progress = scene.round
    assert progress is not None and progress.number == 2
    assert progress.acted == [first_turn.name] and progress.entered == ["Ines"]
    assert [t.name for t in progress.passes[0].remaining()] == [
        t.name for t in progress.passes[0].turns if t.name != first_turn.name
    ]
    assert plan.state.agents[old_root].status is S.CANCELLED

    resumed = resumed_runtime(plan, None)
    async with resumed:
        root, new_events = await play_continued(resumed, scene)
        names = {n.id: n.name for n in resumed.subtree(root)}

    (started,) = of(new_events, "scene:start")
    assert (started.continues, names[root]) == (old_root, "harbour-resumed")
    (round_start,) = of(new_events, "round:start")
    assert (round_start.round, round_start.request, round_start.resumed) == (
        2,
        "continuation",
        True,
    )
    assert of(new_events, "director:start") == [], "pass 1 had answered: it is not asked again"
    others = [t.name for t in progress.passes[0].turns if t.name != first_turn.name]
    assert [e.name for e in of(new_events, "character:start")] == others
    (closed,) = of(new_events, "round:complete")
    assert closed.acted == [first_turn.name, *others] and closed.entered == ["Ines"]

    # The file now tells the whole story: the continued scene holds both rounds, once each.
    state = fold_session(read_session(crashed))
    record = state.scenes[root].record
    assert [r.number for r in record.rounds] == [1, 2] and all(r.closed for r in record.rounds)
    assert [m.speaker for m in record.rounds[1].messages] == [first_turn.name, *others]
    assert unfinished_scene(state) is None, "the person ended it"


async def test_the_session_is_the_round_timeline_and_exports_as_rounds(tmp_path: Path) -> None:
    runtime = recording(tmp_path)
    async with runtime:
        root, events = await play(runtime, harbour(), ["Tomas, sell me a fish.", "", None])
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(events[-1].seq)
    assert runtime.session.path is not None
    log = read_session(runtime.session.path)
    state = fold_session(log)
    scene = state.scenes[root]
    assert [p.number for p in scene.rounds] == [1, 2]
    assert scene.rounds[0].events[0].type == "round:start"
    assert scene.rounds[0].events[-1].type == "round:complete"

    text = export_session(log, "rounds")
    assert text.startswith(
        f"# Rounds of session {log.header.id}\n\n## Scene: Harbour (harbour.toml)"
    )
    assert "### Round 1 · you: Tomas, sell me a fish." in text
    assert "### Round 2 · the scene went on" in text
    assert "- **director, pass 1** (round-1.director): 1. Tomas: " in text
    assert "- **director, pass 2** (round-1.director-2): 1. Mara: " in text
    assert "- **Tomas** (round-1.Tomas): " in text
    assert "- **Ines enters**: " in text
    assert "- **round 1**: closed; acted: Tomas, Mara" in text
    assert "- **running summary**:\n  > Round 1: The person: Tomas, sell me a fish" in text
    assert "### State at the end\n\n- world: weather: fog; tension: " in text
    assert "- Ines (in the scene): location " in text
    calls = len(scene.context_usage)
    assert calls == len(of(events, "director:start", "character:start")) > 0
    assert f"### Context per section\n\nTokens, mean of the last {calls} agent calls:\n" in text
    assert "\n- history: " in text and "\n- character_guidance: " in text
    assert export_session(log, "rounds").count("### Round ") == 2


async def test_a_session_without_a_scene_says_so(tmp_path: Path) -> None:
    runtime = recording(tmp_path, Script.for_all(Turn(text="Hi.")))
    async with runtime:
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.wait(runtime.start("Say hi"))
    assert runtime.session.path is not None
    text = export_session(read_session(runtime.session.path), "rounds")
    assert text.endswith("This session played no scene (agentui --scene NAME).\n")


async def test_a_crash_right_after_the_directors_decision_loses_none_of_it(
    tmp_path: Path,
) -> None:
    script = Script(
        agents={
            "round-1.director": [
                Turn(
                    text=decision(
                        acting_characters=acting("Mara"),
                        activations=[{"name": "Ines", "entry_guidance": "Run in."}],
                        state_updates=[{"name": "Mara", "mood": "wary"}],
                        world_updates=[{"key": "tide", "value": "low"}],
                    )
                )
            ],
            "round-1.director-2": [Turn(text=decision())],
            "*": [Turn(text="*They nod.*")],
        }
    )
    runtime = recording(tmp_path / "sessions", script)
    async with runtime:
        _, events = await play(runtime, harbour(), ["Close up.", None])
        with anyio.fail_after(SAFETY_NET_S):
            await runtime.session.wait_written(events[-1].seq)
    assert runtime.session.path is not None
    (decided,) = [e for e in of(events, "director:complete") if e.director_pass == 1]
    crashed = cut_at(runtime.session.path, decided.seq, tmp_path / "crashed")

    plan = plan_resume(read_session(crashed))
    scene = unfinished_scene(plan.state)
    assert scene is not None and scene.round is not None
    mara = scene.record.character("Mara")
    assert mara is not None and mara.mood == "calm", "decided, not applied yet"

    resumed = resumed_runtime(plan, script)
    async with resumed:
        root, new_events = await play_continued(resumed, scene)

    first_turn = of(new_events, "character:start")[0]
    applied = of(new_events, "state:updated", "character:activated")
    assert [(e.type, e.seq < first_turn.seq) for e in applied] == [
        ("state:updated", True),
        ("state:updated", True),
        ("character:activated", True),
    ], "the director's changes apply again before anyone acts, once each"
    assert [getattr(e, "character", None) for e in applied[:2]] == ["Mara", None]
    state = fold_session(read_session(crashed)).scenes[root]
    mara, ines = state.record.character("Mara"), state.record.character("Ines")
    assert mara is not None and mara.mood == "wary"
    assert ines is not None and ines.active
    assert state.record.world.facts["tide"] == "low"
    (closed,) = of(new_events, "round:complete")
    assert closed.entered == ["Ines"]


async def test_a_scene_the_person_cancelled_is_not_taken_up_again(tmp_path: Path) -> None:
    runtime = recording(tmp_path)
    async with runtime:
        events = runtime.subscribe(maxsize=None)
        root = start_scene(runtime, harbour())
        questions = 0
        with anyio.fail_after(SAFETY_NET_S):
            async for event in events:
                if isinstance(event, QueryRaised):
                    questions += 1
                    if questions == 1:
                        runtime.answer(event.query_id, "Close up.")
                    else:  # asked for round 2: the person cancels the scene instead
                        runtime.cancel(root)
                if event.agent_id == root and getattr(event, "new", "") == "cancelled":
                    break
            await runtime.session.wait_written(event.seq)
    assert runtime.session.path is not None
    plan = plan_resume(read_session(runtime.session.path))
    assert plan.state.agents[root].status is S.CANCELLED
    assert unfinished_scene(plan.state) is None


def root_ending(status: str | None, reason: str = "") -> RunState:
    """A fold of a scene whose root ends with `status` and `reason` (None: still live)."""
    scene = harbour().file.model_dump(mode="json")
    made = [
        AgentSpawned(
            seq=1, ts=0, agent_id="a1", parent_id=None, name="h", task="H", driver="scene"
        ),
        SceneStarted(seq=2, ts=0, agent_id="a1", scene=scene, source="harbour.toml"),
        StatusChanged(seq=3, ts=0, agent_id="a1", old="pending", new="running", reason="started"),
    ]
    if status is not None:
        made.append(
            StatusChanged(seq=4, ts=0, agent_id="a1", old="running", new=status, reason=reason)
        )
    state = RunState()
    state.apply_all(made)
    return state


async def play_continued(resumed: RecordingRuntime, scene: SceneState) -> tuple[str, list[Event]]:
    """Continue the scene a resumed session left unfinished, ending it at its next question;
    its new root and every event until that root completed."""
    new_events: list[Event] = []
    subscription = resumed.subscribe(maxsize=None)
    root = continue_scene(resumed, scene)
    with anyio.fail_after(SAFETY_NET_S):
        async for event in subscription:
            new_events.append(event)
            if isinstance(event, QueryRaised):
                resumed.answer(event.query_id, None)
            if event.agent_id == root and getattr(event, "new", "") == "completed":
                break
    return root, new_events


@pytest.mark.parametrize(
    ("status", "reason", "goes_on"),
    [
        (None, "", True),  # live when the log ended: a crash
        ("cancelled", INTERRUPTED, True),  # the same, once a resume's plan closed it
        ("cancelled", SHUTDOWN_REASON, True),  # the app quit
        ("cancelled", "cancelled by the person", False),
        ("error", "round 1 failed", False),
        ("completed", "finished", False),  # the person declined the next round
        ("deleted", "deleted by the person", False),
    ],
)
def test_only_a_scene_the_sessions_end_cut_short_goes_on(
    status: str | None, reason: str, goes_on: bool
) -> None:
    scene = unfinished_scene(root_ending(status, reason))
    assert (scene is not None) is goes_on
