"""build_envelope: its fields and defaults, what each recipient gets, overrides, the history
window and summarising threshold, budgets applied to a scene, and the rendered text."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from pydantic import ValidationError

from agentui.core.protocol.director_payloads import CharacterGuidance
from agentui.core.scene.builder import build_envelope
from agentui.core.scene.envelope import AgentContextEnvelope, Persona, Recipient
from agentui.core.scene.errors import SceneError
from agentui.core.scene.guidance import DirectorGuidance
from agentui.core.scene.lore import LoreEntry
from agentui.core.scene.memory import Memory
from agentui.core.scene.notes import LevelNotes, SceneNotes
from agentui.core.scene.overrides import EnvelopeOverrides
from agentui.core.scene.record import RoundRecord, SceneRecord, SceneRequest
from agentui.core.scene.render import render_envelope
from agentui.core.scene.services import EnvelopeServices
from agentui.core.scene.settings import SECTIONS, SceneSettings
from agentui.core.scene.states import CharacterState, WorldState
from agentui.core.scene.truncation import CUT_MARK

from .envelope_helpers import a_round, a_scene, long_scene

pytestmark = pytest.mark.anyio

GO = SceneRequest.user_input("Go on.")


async def _build(
    scene: SceneRecord,
    recipient: Recipient,
    request: SceneRequest = GO,
    services: EnvelopeServices | None = None,
    **options: object,
) -> AgentContextEnvelope:
    return await build_envelope(
        scene, for_agent=recipient, request=request, services=services, **options
    )  # type: ignore[arg-type]


# -- fields and defaults -------------------------------------------------------------------------


async def test_an_empty_scene_gives_every_field_its_default() -> None:
    scene = SceneRecord(scene_id="empty")
    envelope = await _build(scene, Recipient.director(), SceneRequest.continuation())
    assert envelope.scene_id == "empty" and envelope.title == ""
    assert envelope.recipient == Recipient.director()
    assert envelope.request.kind == "continuation" and envelope.request.text == ""
    meta = envelope.round
    assert (meta.number, meta.finished_rounds) == (1, 0)  # the round about to be played
    assert meta.active_characters == meta.available_characters == meta.acted_this_round == []
    assert envelope.persona is None
    assert envelope.history == [] and envelope.round_summaries == []
    assert envelope.running_summary == ""
    assert envelope.lore == [] and envelope.memories == {} and envelope.characters == []
    assert envelope.notes == SceneNotes() and envelope.world == WorldState()
    assert envelope.director_guidance == "" and envelope.character_guidance == {}
    assert envelope.budgets == dict.fromkeys(SECTIONS, 0)  # nothing to send, nothing given
    assert envelope.used == envelope.left_out == dict.fromkeys(SECTIONS, 0)


def test_required_fields_are_required_and_requests_match_their_kind() -> None:
    with pytest.raises(ValidationError, match="scene_id"):
        SceneRecord()  # type: ignore[call-arg]
    with pytest.raises(ValidationError, match="needs the person's text"):
        SceneRequest.user_input("  ")
    with pytest.raises(ValidationError, match="carries no text"):
        SceneRequest(kind="continuation", text="hello")
    with pytest.raises(ValidationError, match="needs its name"):
        Recipient(kind="character")
    with pytest.raises(ValidationError, match="numbered 1, 2, 3"):
        a_scene([a_round(2, [])])
    with pytest.raises(ValidationError, match="only the last round may still be open"):
        a_scene([a_round(1, [], closed=False), a_round(2, [])])
    with pytest.raises(ValidationError, match="named more than once: Ada"):
        a_scene(characters=("Ada", "Ada"))


def _full_scene() -> SceneRecord:
    scene = a_scene(
        [
            a_round(1, [("Ada", "I light the lamp."), ("Bo", "I bar the door.")], said="Night."),
            a_round(2, [("Ada", "Who knocks?")], said="A knock.", closed=False),
        ],
        characters=("Ada", "Bo", "Cy"),
        title="The inn",
        notes=SceneNotes(
            world=LevelNotes(scenario="A drowned coast."),
            scene=LevelNotes(scenario="A storm night.", author_note="Keep lines short."),
        ),
        lore=[LoreEntry(title="The inn", text="Built on a wreck.")],
        world=WorldState(facts={"time": "midnight", "weather": "storm"}),
        running_summary="Two keepers wait out a storm.",
    )
    scene.characters[0] = CharacterState(name="Ada", location="hall", mood="wary")
    scene.characters[2] = CharacterState(name="Cy", active=False)
    scene.rounds[1].guidance = DirectorGuidance(
        overall="Raise the tension.",
        per_character={
            "Ada": CharacterGuidance(directive="Open the door."),
            "Cy": CharacterGuidance(entry="Stumble in, soaked."),
        },
    )
    return scene


async def test_a_character_gets_the_scene_and_only_its_own_guidance() -> None:
    persona = Persona(name="Ada", description="the innkeeper")
    envelope = await _build(
        _full_scene(),
        Recipient.for_character("Ada"),
        SceneRequest.user_input("A knock."),
        persona=persona,
    )
    assert envelope.title == "The inn" and envelope.persona == persona
    assert envelope.round.number == 2 and envelope.round.finished_rounds == 1
    assert envelope.round.active_characters == ["Ada", "Bo"]
    assert envelope.round.available_characters == ["Cy"]
    assert envelope.round.acted_this_round == ["Ada"]
    assert envelope.notes.scene.author_note == "Keep lines short."
    assert envelope.notes.world.scenario == "A drowned coast."
    assert [e.title for e in envelope.lore] == ["The inn"]
    assert envelope.world.facts == {"time": "midnight", "weather": "storm"}
    assert [c.name for c in envelope.characters] == ["Ada", "Bo", "Cy"]
    assert envelope.characters[0].mood == "wary"
    assert envelope.running_summary == "Two keepers wait out a storm."
    assert envelope.director_guidance == "Raise the tension."
    assert envelope.character_guidance == {"Ada": CharacterGuidance(directive="Open the door.")}
    # Ten messages or fewer: every round word for word; this round's input is the request.
    assert [r.number for r in envelope.history] == [1, 2]
    assert [(m.role, m.text) for m in envelope.history[0].messages] == [
        ("person", "Night."),
        ("character", "I light the lamp."),
        ("character", "I bar the door."),
    ]
    assert [m.text for m in envelope.history[1].messages] == ["Who knocks?"]


async def test_the_director_gets_no_guidance_and_the_world_only_the_overall() -> None:
    director = await _build(_full_scene(), Recipient.director())
    assert director.director_guidance == "" and director.character_guidance == {}
    assert director.budgets["director_guidance"] == director.budgets["character_guidance"] == 0
    world = await _build(_full_scene(), Recipient.world())
    assert world.director_guidance == "Raise the tension." and world.character_guidance == {}
    entering = await _build(_full_scene(), Recipient.for_character("Cy"))
    assert entering.character_guidance == {"Cy": CharacterGuidance(entry="Stumble in, soaked.")}


async def test_an_unknown_character_is_refused_naming_it_and_the_scenes_characters() -> None:
    with pytest.raises(SceneError) as refused:
        await _build(_full_scene(), Recipient.for_character("Dee"))
    assert str(refused.value) == (
        "scene 'inn' has no character named 'Dee' (its characters: Ada, Bo, Cy)"
    )


# -- overrides -----------------------------------------------------------------------------------


class RefusingRetriever:
    async def retrieve(self, query: str, candidates: Sequence[Memory], top_k: int) -> list[Memory]:
        raise AssertionError("pre-fetched memories must not be retrieved again")


async def test_overrides_replace_the_records_content_and_skip_retrieval() -> None:
    prefetched = {"Ada": [Memory(character="Ada", round_number=1, text="The lamp smoked.")]}
    overrides = EnvelopeOverrides(
        memories=prefetched,
        lore=[LoreEntry(title="Test lore", text="Synthetic.")],
        notes=SceneNotes(arc=LevelNotes(scenario="An arc.")),
        world=WorldState(facts={"time": "dawn"}),
        characters=[CharacterState(name="Ada"), CharacterState(name="Eve")],
        running_summary="Injected summary.",
        director_guidance="Injected guidance.",
        character_guidance={"Ada": CharacterGuidance(exit="Leave by the back.")},
    )
    services = EnvelopeServices(
        settings=SceneSettings(summarize_after_messages=0), retriever=RefusingRetriever()
    )
    envelope = await _build(
        long_scene(3), Recipient.for_character("Eve"), services=services, overrides=overrides
    )
    assert envelope.memories == prefetched
    assert [e.title for e in envelope.lore] == ["Test lore"]
    assert envelope.notes == SceneNotes(arc=LevelNotes(scenario="An arc."))
    assert envelope.world.facts == {"time": "dawn"}
    assert envelope.round.active_characters == ["Ada", "Eve"]  # Eve exists only in the override
    assert envelope.running_summary == "Injected summary."
    assert envelope.director_guidance == "Injected guidance."
    assert envelope.character_guidance == {"Ada": CharacterGuidance(exit="Leave by the back.")}


async def test_overridden_memories_obey_the_same_limits() -> None:
    many = [Memory(character="Ada", round_number=1, text=f"Memory {n}.") for n in range(9)]
    services = EnvelopeServices(settings=SceneSettings(memory_top_k=3))
    envelope = await _build(
        long_scene(1),
        Recipient.director(),
        services=services,
        overrides=EnvelopeOverrides(memories={"Ada": many}),
    )
    assert [m.text for m in envelope.memories["Ada"]] == ["Memory 0.", "Memory 1.", "Memory 2."]


# -- history window and summarising --------------------------------------------------------------


class CountingSummariser:
    def __init__(self) -> None:
        self.rounds: list[int] = []

    async def __call__(self, round_record: RoundRecord) -> list[str]:
        self.rounds.append(round_record.number)
        return [f"round {round_record.number} happened"]


async def test_at_the_threshold_every_round_is_word_for_word_and_nothing_is_summarised() -> None:
    summariser = CountingSummariser()
    # 3 finished rounds of 3 messages (input + 2 lines) and an open round's input: 10.
    envelope = await _build(
        long_scene(3), Recipient.director(), services=EnvelopeServices(summariser=summariser)
    )
    assert [r.number for r in envelope.history] == [1, 2, 3]  # round 4: its input is the request
    assert envelope.round_summaries == [] and summariser.rounds == []


async def test_past_the_threshold_older_rounds_become_bullets_once() -> None:
    summariser = CountingSummariser()
    services = EnvelopeServices(summariser=summariser)
    scene = long_scene(4)  # 13 messages
    envelope = await _build(scene, Recipient.director(), services=services)
    # The last finished round word for word (the open one has only its input, which is the
    # request); rounds 1-3 as bullets.
    assert [r.number for r in envelope.history] == [4]
    assert [(s.number, s.bullets) for s in envelope.round_summaries] == [
        (n, [f"round {n} happened"]) for n in (1, 2, 3)
    ]
    await _build(scene, Recipient.for_character("Ada"), services=services)
    assert summariser.rounds == [1, 2, 3]  # kept in the record; not summarised again
    assert scene.rounds[0].summary == ["round 1 happened"]


async def test_the_window_and_threshold_come_from_the_settings() -> None:
    wide = SceneSettings(history_window_rounds=2, summarize_after_messages=4)
    envelope = await _build(
        long_scene(4), Recipient.director(), services=EnvelopeServices(settings=wide)
    )
    assert [r.number for r in envelope.history] == [3, 4]
    assert [s.number for s in envelope.round_summaries] == [1, 2]
    none_kept = SceneSettings(history_window_rounds=0, summarize_after_messages=0)
    only_now = await _build(
        long_scene(2), Recipient.director(), services=EnvelopeServices(settings=none_kept)
    )
    assert [r.number for r in only_now.history] == []  # the open round has only its input
    assert [s.number for s in only_now.round_summaries] == [1, 2]


async def test_the_offline_summariser_writes_deterministic_bullets() -> None:
    scene = a_scene(
        [
            a_round(
                1, [("Ada", "I light the lamp. Then I wait by the window for hours.")], said="Dusk."
            ),
            a_round(2, [("Bo", "Quiet.")]),
            a_round(3, [], said="Later.", closed=False),
        ]
    )
    settings = SceneSettings(history_window_rounds=0, summarize_after_messages=0)
    envelope = await _build(
        scene, Recipient.director(), services=EnvelopeServices(settings=settings)
    )
    assert [s.bullets for s in envelope.round_summaries] == [
        ["The person: Dusk.", "Ada: I light the lamp. Then I wait by the window for hours."],
        ["The person let the scene continue.", "Bo: Quiet."],
    ]


# -- budgets on a scene --------------------------------------------------------------------------


async def test_absent_sections_give_their_share_to_the_present_ones() -> None:
    settings = SceneSettings(max_context_tokens=1000)
    bare = await _build(
        long_scene(1), Recipient.director(), services=EnvelopeServices(settings=settings)
    )
    # Only history is present: it gets the whole split.
    assert bare.budgets == {**dict.fromkeys(SECTIONS, 0), "history": 1000}
    full = await _build(
        _full_scene(), Recipient.for_character("Ada"), services=EnvelopeServices(settings=settings)
    )
    # Memories (none yet) are the only absent section: its 20 percent went to the other 80.
    assert full.budgets["memories"] == 0
    assert full.budgets["history"] == 375 and full.budgets["lore"] == 187


async def test_history_over_budget_keeps_the_newest_messages_and_says_what_was_left_out() -> None:
    lines = [("Ada", f"Line {n}." + " More words follow here." * 3) for n in range(12)]
    scene = a_scene([a_round(1, lines, said="Talk.", closed=False)])
    # History alone: 208 tokens, nine messages of 21 and a part of a tenth.
    settings = SceneSettings(max_context_tokens=208)
    envelope = await _build(
        scene, Recipient.director(), services=EnvelopeServices(settings=settings)
    )
    kept = [m.text for m in envelope.history[0].messages]
    assert kept[-1] == lines[-1][1] and kept[-2] == lines[-2][1]  # newest whole
    assert kept[0].startswith(CUT_MARK)  # the oldest kept one cut from its start
    assert envelope.left_out["history"] == 12 - len(kept)
    assert 0 < envelope.used["history"] <= envelope.budgets["history"] == 208
    text = render_envelope(envelope)
    assert f"({12 - len(kept)} earlier messages left out to fit the budget)" in text


async def test_every_section_stays_within_its_budget() -> None:
    scene = _full_scene()
    scene.lore = [LoreEntry(title=f"Entry {n}", text="A fact. " * 40) for n in range(10)]
    settings = SceneSettings(max_context_tokens=400)
    envelope = await _build(
        scene, Recipient.for_character("Ada"), services=EnvelopeServices(settings=settings)
    )
    assert all(envelope.used[s] <= envelope.budgets[s] for s in SECTIONS)
    # Lore's 75 tokens hold the first entry cut between sentences; the other nine are left out.
    assert [e.title for e in envelope.lore] == ["Entry 0"] and envelope.left_out["lore"] == 9
    assert envelope.lore[0].text.endswith(f"A fact. {CUT_MARK}")


async def test_an_envelope_says_its_usage_per_section_as_the_events_carry_it() -> None:
    ada = await _build(_full_scene(), Recipient.for_character("Ada"))
    director = await _build(_full_scene(), Recipient.director())
    usage = ada.context_usage()
    assert set(usage) == set(ada.budgets)
    assert usage["history"] == (ada.budgets["history"], ada.used["history"])
    assert 0 < usage["history"][1] <= usage["history"][0]
    assert director.context_usage()["director_guidance"] == (0, 0)


# -- rendering -----------------------------------------------------------------------------------


async def test_the_rendered_text_has_each_present_section_once_in_order() -> None:
    envelope = await _build(
        _full_scene(),
        Recipient.for_character("Ada"),
        SceneRequest.user_input("A knock."),
        persona=Persona(name="Ada", description="the innkeeper"),
    )
    text = render_envelope(envelope)
    headings = [line for line in text.splitlines() if line.startswith("## ")]
    assert headings == [
        "## Persona",
        "## Scenario and author's notes",
        "## World",
        "## Characters",
        "## Lore",
        "## The story so far",
        "## Recent rounds, word for word",
        "## The director's guidance",
        "## The director's guidance for you",
    ]  # no memories yet: no memories section
    assert text.startswith("# Scene: The inn\nYou are: Ada\nRound 2 (1 finished before it)\n")
    assert "Request: The person says: A knock." in text
    assert "- Ada (active): location hall; mood wary" in text
    assert "- Cy (not in the scene)" in text
    assert "Scene author's note: Keep lines short." in text
    assert "The person: Night.\nAda: I light the lamp.\nBo: I bar the door." in text
    assert "Ada, now: Open the door." in text


async def test_model_text_is_rendered_as_it_was_written() -> None:
    scene = a_scene(
        [a_round(1, [("Ada", "[bold]not markup[/bold] {braces} ## not a heading")], closed=False)]
    )
    text = render_envelope(await _build(scene, Recipient.director(), SceneRequest.continuation()))
    assert "Ada: [bold]not markup[/bold] {braces} ## not a heading" in text
    assert "Request: The person typed nothing: continue the scene." in text
