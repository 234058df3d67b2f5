"""What a newcomer reads in the offline demo: the person's words said once and cut at a word,
a steer given while paused answered, no raw JSON in the monologue, characters whose lines
differ and never read out the director's note, and a scene that states its premise."""

from __future__ import annotations

import json
from itertools import combinations

import anyio
import pytest

from agentui.core.agent.tree import AgentStatus
from agentui.core.protocol import events as ev
from agentui.core.protocol.events import QueryRaised
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.narration_subject import NarrationSubject, Step, StepKind
from agentui.core.providers.scripted.defaults import DEFAULT_PACE_S, PACE_VARIABLE, default_pace
from agentui.core.providers.scripted.demo import demo_turn
from agentui.core.providers.scripted.narration import narrate
from agentui.core.providers.scripted.provider import FIRST_CHUNK_TICKS, ScriptedProvider
from agentui.core.runtime import Runtime
from agentui.core.state.scene_items import scene_line
from agentui.core.support.clock import FrozenClock
from agentui.core.tools.builtin import builtin_tools
from agentui.core.tools.registry import ToolRegistry

from .helpers import Recorder, is_type
from .scene_helpers import harbour, of, play, scene_runtime

pytestmark = pytest.mark.anyio

TASK = "Plan a weekend in Lisbon"
LONG_FOCUS = (
    "Focus on press quotes and skip pricey museums, yes please, and keep it all under budget "
    "for two people"
)


async def six_step_demo(answer: str) -> list[str]:
    """The root's responses in the six-step demo, its clarifying question answered so."""
    runtime = Runtime(
        ScriptedProvider(), tools=builtin_tools(), workflow="six-step", clock=FrozenClock()
    )
    answers = {"clarification": answer, "approval": "once"}
    async with runtime:
        rec = Recorder(runtime)
        root = runtime.start(TASK)
        with anyio.fail_after(30):  # safety net only
            while not runtime.node(root).status.is_final:
                event = await rec.sub.get()
                rec.events.append(event)
                if isinstance(event, QueryRaised):
                    runtime.answer(event.query_id, answers[event.kind])
        rec.sync()
    return [e.text for e in rec.of("llm:response", agent_id=root) if e.text]  # type: ignore[attr-defined]


async def test_the_persons_focus_is_said_once_and_cut_at_a_word() -> None:
    own_part, answer = (await six_step_demo(LONG_FOCUS))[-2:]

    for text in (own_part, answer):
        assert "focus on: *press quotes" in text or "focusing on *press quotes" in text
        assert "Focus on" not in text and "focus on: *Focus" not in text
        assert "…." not in text and "…*." not in text, "an ellipsis ends the sentence alone"
    cut = answer.split("*")[1]
    assert cut.endswith("…")
    whole = LONG_FOCUS.removeprefix("Focus on ")
    assert whole.startswith(cut[:-1]) and whole[len(cut) - 1] == " ", "cut at a word"


async def test_the_demo_answers_a_steer_given_while_paused_mid_answer() -> None:
    provider = ScriptedProvider()
    # No tools: the demo answers at once (a plain root, or a subagent's one call).
    async with Runtime(provider, tools=ToolRegistry([]), clock=FrozenClock()) as runtime:
        rec = Recorder(runtime)
        root = runtime.start(TASK)
        await rec.wait_for(is_type("text:delta", root), count=2)
        runtime.pause(root)
        runtime.steer(root, "keep it short")
        runtime.resume(root)
        node = await runtime.wait(root)
        rec.sync()

    assert node.status is AgentStatus.COMPLETED
    assert node.result is not None and "You told me: *keep it short*" in node.result
    assert len(rec.of("note:delivered")) == 1 and not rec.of("intervention:unused")


def director_json() -> str:
    return json.dumps(
        {
            "acting_characters": [
                {"name": "Mara", "guidance": "Press the others.", "priority": 1},
                {"name": "Tomas", "guidance": "Answer Mara.", "priority": 2},
            ],
            "activations": [],
            "open_guidance": "Short turns.",
        },
        indent=2,
    )


@pytest.mark.parametrize("shown_chars", [None, 60])
def test_the_narrator_never_quotes_raw_json(shown_chars: int | None) -> None:
    """Whole, or cut as the narrator is shown it."""
    text = director_json()[:shown_chars]
    subject = NarrationSubject(steps=(Step(StepKind.TEXT, detail=text),), ended="completed")
    line = narrate(ProviderRequest("m", "", [], purpose="narrator", narration=subject))

    assert "{" not in line and "acting_characters" not in line
    assert line.startswith("Done. I wrote a structured answer naming Mara")


def test_the_narrator_still_quotes_prose() -> None:
    subject = NarrationSubject(steps=(Step(StepKind.TEXT, detail="The port is 8080."),))
    line = narrate(ProviderRequest("m", "", [], purpose="narrator", narration=subject))
    assert line == 'I wrote "The port is 8080".'


async def test_characters_lines_differ_and_never_read_out_the_directors_note() -> None:
    async with scene_runtime() as runtime:
        _, events = await play(runtime, harbour(), ["", "Mara, is the harbour safe?", "", ""])

    lines = of(events, "character:complete")
    guidance = {
        (e.round, t.name): [t.guidance.directive, t.guidance.entry, t.guidance.exit]
        for e in of(events, "director:complete")
        for t in e.turns
    }
    rounds = sorted({e.round for e in lines})
    assert len(rounds) == 4
    for number in rounds:
        said = [e for e in lines if e.round == number and e.ended == "completed"]
        assert len(said) >= 2
        spoken = [[p for p in e.text.split("\n\n") if not p.startswith(f"*{e.name}")] for e in said]
        for first, second in combinations(spoken, 2):
            assert not set(first) & set(second), f"round {number}: two characters said the same"
    for line in lines:
        assert "*(" not in line.text
        for note in guidance[(line.round, line.name)]:
            if note:
                assert note not in line.text and note.rstrip(".") not in line.text
    # One character's lines change from round to round.
    mara = [e.text.split("\n\n")[1:] for e in lines if e.name == "Mara"]
    assert len(mara) >= 2 and mara[0] != mara[1]


async def test_a_scene_states_its_premise_when_it_starts() -> None:
    async with scene_runtime() as runtime:
        _, events = await play(runtime, harbour(), [None])

    (started,) = of(events, "scene:start")
    line = scene_line(started)
    assert line is not None
    assert line.text.startswith("Harbour begins: Mara, Tomas, Ines (waiting)")
    assert line.text.endswith("\n\nA harbour at dusk.")


def test_a_premise_given_as_the_scene_notes_scenario_or_the_description_is_shown() -> None:
    def text(scene: dict[str, object]) -> str:
        started = ev.SceneStarted(seq=1, agent_id="a1", ts=0.0, scene=scene, source="x")
        line = scene_line(started)
        assert line is not None
        return line.text

    cast = {"title": "T", "characters": [{"name": "A"}]}
    assert text({**cast, "notes": {"scene": {"scenario": "Night."}}}).endswith("\n\nNight.")
    assert text({**cast, "description": "A  story."}).endswith("\n\nA story.")
    assert text(cast) == "T begins: A"


def test_the_offline_model_is_paced_like_a_real_model_unless_told_otherwise() -> None:
    assert default_pace({}) == f"{DEFAULT_PACE_S:g}"
    # 3-8 characters a chunk, 3.5 characters a token: tens of tokens a second.
    assert 10 <= 5.5 / 3.5 / DEFAULT_PACE_S <= 60
    assert default_pace({PACE_VARIABLE: "0"}) == "0"
    assert default_pace({PACE_VARIABLE: " "}) == f"{DEFAULT_PACE_S:g}"


async def test_a_demo_subagent_streams_long_enough_to_be_steered_at_the_default_pace() -> None:
    """At the default pace a newcomer has seconds to select a subagent and pause, steer or
    modify it: its answer is long enough in chunks (they finished within a second, then in
    about four)."""
    provider = ScriptedProvider(pace_s=0)
    async with Runtime(provider, clock=FrozenClock()) as runtime:
        root = runtime.start("Plan a product launch", workflow="plain")
        child = runtime.start("What matters most for the launch?", parent_id=root)
        await runtime.wait(child)
    (request,) = [r for r in provider.requests if r.agent_id == child]
    turn = demo_turn(request)
    streamed = len(turn.thinking) + len(turn.text)
    chunks = streamed / (sum(provider.chunk_chars) / 2)  # chunks of the mean size
    seconds = (chunks + FIRST_CHUNK_TICKS) * DEFAULT_PACE_S
    assert seconds >= 8, f"it streams for {seconds:.1f} s at the default pace"
