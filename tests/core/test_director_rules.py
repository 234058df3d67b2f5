"""The director's rules: its schema, the acting order, the vetting of a decision against the
scene, which inferred state changes apply, and the heuristics that infer them."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.protocol.director_payloads import (
    ActingCharacter,
    CharacterGuidance,
    DirectorDecision,
    PlannedTurn,
)
from agentui.core.scene.inference import infer_changes
from agentui.core.scene.ordering import acting_order
from agentui.core.scene.reconciliation import inferred_changes
from agentui.core.scene.states import CharacterState
from agentui.core.scene.vetting import VettedDecision, vet_decision

from .scene_helpers import acting, decision, harbour

# -- the schema -----------------------------------------------------------------------------


def test_the_directors_schema_takes_a_good_decision_and_names_what_is_wrong() -> None:
    contract = harbour().director.contract()
    assert contract is not None
    good = decision(
        acting_characters=acting("Tomas", "Mara"),
        activations=[{"name": "Ines", "entry_guidance": "Come in from the road."}],
        state_updates=[{"name": "Mara", "mood": "wary"}],
        world_updates=[{"key": "weather", "value": "rain"}],
        open_guidance="Short turns.",
    )
    assert contract.check(good).ok
    stranger = decision(acting_characters=acting("Bob"))
    assert contract.check(stranger).errors == (
        "$.acting_characters[0].name: 'Bob' is not one of ['Mara', 'Tomas', 'Ines']",
    )
    unranked = json.loads(good)
    unranked["acting_characters"][0]["priority"] = 0
    del unranked["open_guidance"]
    assert contract.check(json.dumps(unranked)).errors == (
        "$: 'open_guidance' is a required property",
        "$.acting_characters[0].priority: 0 is less than the minimum of 1",
    )
    assert contract.check("Mara speaks first.").errors[0].startswith("$: the answer is not JSON")


def test_a_decision_reads_with_defaults_and_ignores_extra_fields() -> None:
    read = DirectorDecision.model_validate(
        {"acting_characters": [{"name": "Mara", "mood_hint": "x"}], "tempo": "slow"}
    )
    assert read.acting_characters == [ActingCharacter(name="Mara", guidance="", priority=1)]
    assert read.activations == [] and read.open_guidance == ""


# -- the order ------------------------------------------------------------------------------


def test_the_order_is_priority_then_name() -> None:
    listed = [
        ActingCharacter(name="Tomas", priority=2),
        ActingCharacter(name="Mara", priority=2),
        ActingCharacter(name="Ines", priority=1),
        ActingCharacter(name="Ada", priority=3),
    ]
    assert [c.name for c in acting_order(listed)] == ["Ines", "Mara", "Tomas", "Ada"]


@given(
    st.lists(
        st.tuples(st.sampled_from(["Ada", "Bo", "Cy"]), st.integers(1, 3), st.text(max_size=3)),
        max_size=8,
    )
)
def test_the_order_is_stable_for_equal_keys(entries: list[tuple[str, int, str]]) -> None:
    listed = [ActingCharacter(name=n, priority=p, guidance=g) for n, p, g in entries]
    ordered = acting_order(listed)
    keys = [(c.priority, c.name) for c in ordered]
    assert keys == sorted(keys)
    for key in set(keys):  # equal keys keep the director's order
        assert [c for c in ordered if (c.priority, c.name) == key] == [
            c for c in listed if (c.priority, c.name) == key
        ]


# -- vetting --------------------------------------------------------------------------------


def vet(**parts: object) -> VettedDecision:
    scene = harbour().file.record("s1")
    return vet_decision(DirectorDecision.model_validate(json.loads(decision(**parts))), scene)


def test_entries_and_exits_are_played_and_the_order_holds() -> None:
    vetted = vet(
        acting_characters=[
            {"name": "Tomas", "guidance": "Haggle.", "priority": 2},
            {"name": "Mara", "guidance": "Refuse.", "priority": 2},
        ],
        activations=[{"name": "Ines", "entry_guidance": "Walk in from the road."}],
        deactivations=[{"name": "Tomas", "exit_guidance": "Sail off."}],
    )
    assert vetted.turns == [
        PlannedTurn(name="Mara", guidance=CharacterGuidance(directive="Refuse.")),
        PlannedTurn(
            name="Tomas", guidance=CharacterGuidance(directive="Haggle.", exit="Sail off.")
        ),
        PlannedTurn(name="Ines", guidance=CharacterGuidance(entry="Walk in from the road.")),
    ]
    assert vetted.activations == {"Ines": "Walk in from the road."}
    assert vetted.deactivations == {"Tomas": "Sail off."}
    assert vetted.ignored == []


def test_what_the_scene_cannot_take_is_ignored_with_its_path() -> None:
    vetted = vet(
        acting_characters=[
            {"name": "Bob", "guidance": "", "priority": 1},
            {"name": "Ines", "guidance": "", "priority": 1},
            {"name": "Mara", "guidance": "first", "priority": 1},
            {"name": "Mara", "guidance": "again", "priority": 2},
        ],
        activations=[{"name": "Mara", "entry_guidance": ""}],
        deactivations=[{"name": "Ines", "exit_guidance": ""}],
        state_updates=[{"name": "Bob", "mood": "x"}],
    )
    assert vetted.ignored == [
        "activations[0]: Mara is already in the scene",
        "deactivations[0]: Ines is not in the scene",
        "acting_characters[0]: no character named 'Bob' in this scene",
        "acting_characters[1]: Ines is not in the scene and is not activated",
        "acting_characters[3]: Mara is listed twice; it acts once per pass",
        "state_updates[0]: no character named 'Bob' in this scene",
    ]
    assert [t.name for t in vetted.turns] == ["Mara"]
    assert vetted.turns[0].guidance.directive == "first"


def test_a_character_cannot_enter_and_leave_in_one_pass() -> None:
    vetted = vet(
        activations=[{"name": "Ines", "entry_guidance": "In."}],
        deactivations=[{"name": "Ines", "exit_guidance": "Out."}],
    )
    assert vetted.activations == {"Ines": "In."} and vetted.deactivations == {}
    assert vetted.ignored == ["deactivations[0]: Ines enters in this pass; it cannot also leave"]


def test_updates_that_change_nothing_are_dropped_and_later_ones_win() -> None:
    vetted = vet(
        state_updates=[
            {"name": "Mara", "mood": "calm", "location": "the pier"},
            {"name": "Mara", "location": "the office"},
            {"name": "Tomas", "mood": "tired"},
        ],
        world_updates=[
            {"key": "weather", "value": "fog"},
            {"key": "tide", "value": "low"},
            {"key": "tide", "value": "high"},
        ],
    )
    assert vetted.state_changes == {"Mara": {"location": "the office"}}
    assert vetted.world_changes == {"tide": "high"}


def test_an_empty_or_placeholder_field_sets_nothing() -> None:
    # Models held to a strict schema fill every field: "" or "unchanged" means "leave it".
    vetted = vet(
        state_updates=[
            {"name": "Mara", "mood": "", "location": "   ", "intentions": "unchanged"},
            {"name": "Tomas", "mood": " (Same.) ", "activity": "  mending nets "},
        ],
        world_updates=[{"key": "weather", "value": ""}, {"key": "tide", "value": "No change"}],
    )
    assert vetted.state_changes == {"Tomas": {"activity": "mending nets"}}
    assert vetted.world_changes == {}
    assert vetted.ignored == []


# -- reconciliation -------------------------------------------------------------------------


def test_inferred_changes_never_override_the_director_this_round() -> None:
    state = CharacterState(name="Mara", mood="wary", location="the quay")
    proposed = {"mood": "amused", "location": "the pier", "intentions": "leave"}
    assert inferred_changes(proposed, state, {"mood"}) == {
        "location": "the pier",
        "intentions": "leave",
    }
    assert inferred_changes({"location": "the quay"}, state, set()) == {}, "no change, no update"


# -- inference ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "changes"),
    [
        (
            "*Mara sets down the glass and smiles.* “I'll read it by the fire.” "
            "*She walks to the window and starts polishing the brass lamp.*",
            {
                "location": "the window",
                "mood": "amused",
                "activity": "polishing the brass lamp",
                "intentions": "read it by the fire",
            },
        ),
        (
            "He puts on his oilskin coat, hesitates, then steps outside.",
            {"location": "outside", "mood": "uncertain", "clothing": "his oilskin coat"},
        ),
        ("She frowns. Later she laughs.", {"mood": "amused"}),  # the last cue wins
        ("Tomas enters the kitchen, then heads to the harbour.", {"location": "the harbour"}),
        ("Nothing changes here.", {}),
    ],
)
def test_state_changes_are_read_from_a_turn(text: str, changes: dict[str, str]) -> None:
    assert infer_changes(text) == changes
