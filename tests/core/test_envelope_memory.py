"""Memories: BM25 over a character's own past, the top_k and max_chars limits, and which
characters recall what."""

from __future__ import annotations

import pytest

from agentui.core.scene.bm25_retriever import BM25Retriever
from agentui.core.scene.builder import build_envelope
from agentui.core.scene.envelope import Recipient
from agentui.core.scene.memory import Memory, limit_memories
from agentui.core.scene.record import SceneRecord, SceneRequest
from agentui.core.scene.services import EnvelopeServices
from agentui.core.scene.settings import SceneSettings
from agentui.core.scene.states import CharacterState
from agentui.core.scene.truncation import CUT_MARK

from .envelope_helpers import a_round, a_scene

pytestmark = pytest.mark.anyio


def _memories(*texts: str, character: str = "Ada") -> list[Memory]:
    return [Memory(character=character, round_number=n, text=t) for n, t in enumerate(texts, 1)]


async def test_bm25_ranks_the_related_messages_and_never_returns_one_sharing_no_word() -> None:
    past = _memories(
        "I hid the silver key under the cellar stairs.",
        "The soup tastes of smoke.",
        "The key opens the captain's chest, not the cellar.",
        "Rain again tonight.",
    )
    found = await BM25Retriever().retrieve("Where is the silver key?", past, top_k=5)
    # Both key messages first; the soup shares only "the"; the rain shares no word at all.
    assert [m.round_number for m in found] == [1, 3, 2]
    assert found[0].score > found[1].score > found[2].score > 0
    assert await BM25Retriever().retrieve("dragons", past, top_k=5) == []
    assert await BM25Retriever().retrieve("Where is the silver key?", past, top_k=1) == found[:1]


async def test_bm25_works_on_a_scene_with_two_messages_and_prefers_the_newer_of_equals() -> None:
    # Okapi's idf is 0 for a word in one of two messages; BM25L's is not.
    past = _memories("The key is lost.", "The key is found.")
    found = await BM25Retriever().retrieve("key", past, top_k=5)
    assert [m.round_number for m in found] == [2, 1]
    assert await BM25Retriever().retrieve("key", [], top_k=5) == []
    assert await BM25Retriever().retrieve("", past, top_k=5) == []
    assert await BM25Retriever().retrieve("lost", _memories("...", "lost"), top_k=5) != []


def test_limits_keep_top_k_distinct_memories_within_max_chars() -> None:
    ranked = _memories("First memory.", "First memory.", "Second one.", "Third one.")
    assert [m.text for m in limit_memories(ranked, 2, 1000)] == ["First memory.", "Second one."]
    cut = limit_memories(_memories("One sentence. Another sentence here."), 5, 20)
    assert cut[0].text == f"One sentence. {CUT_MARK}" and len(cut[0].text) <= 20
    within = limit_memories(ranked, 5, 30)
    assert sum(len(m.text) for m in within) <= 30
    assert [m.text for m in within] == ["First memory.", "Second one."]
    assert limit_memories(ranked, 0, 1000) == limit_memories(ranked, 5, 0) == []


def _scene() -> SceneRecord:
    scene = a_scene(
        [
            a_round(1, [("Ada", "I hid the key."), ("Bo", "I polished the key.")], said="Go."),
            a_round(2, [("Ada", "A ship sailed past."), ("Bo", "Counted key rings.")]),
            a_round(3, [("Ada", "Humming."), ("Bo", "Napping."), ("Cy", "I kept the key.")]),
            a_round(4, [("Ada", "Waiting.")], said="Where is the key?", closed=False),
        ],
        characters=("Ada", "Bo", "Cy"),
    )
    scene.characters[2] = CharacterState(name="Cy", active=False)
    return scene


# Past 4 messages, rounds before the last finished one are out of view: they are recalled.
SETTINGS = SceneSettings(summarize_after_messages=4)


async def test_each_character_recalls_only_its_own_past_and_the_director_gets_each() -> None:
    scene = _scene()
    request = SceneRequest.user_input("Where is the key?")
    services = EnvelopeServices(settings=SETTINGS)
    ada = await build_envelope(
        scene, for_agent=Recipient.for_character("Ada"), request=request, services=services
    )
    assert list(ada.memories) == ["Ada"]
    assert [m.text for m in ada.memories["Ada"]] == ["I hid the key."]  # the ship: no word shared
    director = await build_envelope(
        scene, for_agent=Recipient.director(), request=request, services=services
    )
    recalled = {name: {m.text for m in found} for name, found in director.memories.items()}
    # Cy has left the scene and recalls nothing; round 3 is in view, so not a memory.
    assert recalled == {
        "Ada": {"I hid the key."},
        "Bo": {"I polished the key.", "Counted key rings."},
    }


async def test_top_k_and_max_chars_come_from_the_settings() -> None:
    scene = _scene()
    request = SceneRequest.user_input("Where is the key?")

    async def bo_recalls(settings: SceneSettings) -> list[str]:
        envelope = await build_envelope(
            scene,
            for_agent=Recipient.for_character("Bo"),
            request=request,
            services=EnvelopeServices(settings=settings),
        )
        return [m.text for m in envelope.memories.get("Bo", [])]

    both = await bo_recalls(SETTINGS)
    assert len(both) == 2
    assert await bo_recalls(SETTINGS.model_copy(update={"memory_top_k": 1})) == both[:1]
    assert await bo_recalls(SETTINGS.model_copy(update={"memory_top_k": 0})) == []
    short = await bo_recalls(SETTINGS.model_copy(update={"memory_max_chars": 14}))
    assert len(short) == 1 and short[0].endswith(CUT_MARK) and len(short[0]) <= 14
