"""Scene files: shipped scenes and files load; a bad one is one message naming file, field, path."""

from __future__ import annotations

from pathlib import Path

import pytest

from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles
from agentui.core.protocol.director_payloads import STATE_FIELDS, StateUpdate
from agentui.core.scene.errors import SceneFileError
from agentui.core.scene.scene_file import CharacterEntry
from agentui.core.scene.scene_loading import load_scene, shipped_scenes
from agentui.core.scene.states import CharacterState

from .scene_helpers import HARBOUR, harbour

CATALOG = ProfileCatalog(builtin_profiles())


def refused(tmp_path: Path, text: str) -> str:
    path = tmp_path / "scene.toml"
    path.write_text(text, "utf-8")
    with pytest.raises(SceneFileError) as caught:
        load_scene(str(path), CATALOG)
    return str(caught.value)


def test_the_shipped_scenes_load_with_their_profiles() -> None:
    assert list(shipped_scenes()) == ["lighthouse", "product_review"]
    for name in shipped_scenes():
        scene = load_scene(name, CATALOG)
        assert scene.source == name
        names = [c.name for c in scene.file.characters]
        assert set(scene.characters) == set(names)
        schema = scene.director.json_schema
        assert isinstance(schema, dict)
        acting = schema["properties"]["acting_characters"]["items"]["properties"]["name"]
        assert acting["enum"] == names, "the director may name only this cast"
        assert scene.world is None, "the world agent is off by default"
    review = load_scene("product_review", CATALOG).file
    assert [(c.name, c.active) for c in review.characters] == [
        ("Priya", True),
        ("Dev", True),
        ("Sam", True),
        ("Lee", False),
    ]


def test_a_scene_file_by_path_builds_the_record_the_envelope_reads(tmp_path: Path) -> None:
    path = tmp_path / "harbour.toml"
    path.write_text(HARBOUR + '\n[notes.world]\nauthor_note = "Terse."\n', "utf-8")
    scene = load_scene(str(path), CATALOG)
    assert scene.source == str(path)
    record = scene.file.record("s1")
    assert record.notes.scene.scenario == "A harbour at dusk."
    assert record.notes.world.author_note == "Terse."
    assert record.world.facts == {"weather": "fog"}
    assert [(c.name, c.active, c.location) for c in record.characters] == [
        ("Mara", True, "the quay"),
        ("Tomas", True, "the boat"),
        ("Ines", False, "the road"),
    ]
    assert scene.file.options.max_director_passes == 2


def test_an_unknown_name_lists_the_shipped_scenes() -> None:
    with pytest.raises(SceneFileError) as caught:
        load_scene("nosuch", CATALOG)
    assert str(caught.value) == (
        "no scene named 'nosuch'; the shipped scenes are: lighthouse, product_review "
        "(or give the path of a .toml file)"
    )


def test_a_missing_file_and_bad_toml_are_named(tmp_path: Path) -> None:
    with pytest.raises(SceneFileError, match=r"missing\.toml: cannot be read: No such file"):
        load_scene(str(tmp_path / "missing.toml"), CATALOG)
    assert refused(tmp_path, "title = ").startswith(f"{tmp_path / 'scene.toml'}: not valid TOML")


def test_a_bad_field_is_named_with_its_path(tmp_path: Path) -> None:
    text = HARBOUR.replace('name = "Tomas"', 'name = "Old Tomas"')
    message = refused(tmp_path, text)
    assert message.startswith(f"{tmp_path / 'scene.toml'}: characters[1].name: String should")
    assert "(got 'Old Tomas')" in message
    message = refused(tmp_path, HARBOUR.replace('mood = "calm"', 'mod = "calm"'))
    assert message.endswith("characters[0].mod: not a scene setting (a typo?)")
    message = refused(tmp_path, HARBOUR.replace('title = "Harbour"', ""))
    assert message.endswith("scene.toml: title: missing")


def test_the_pass_cap_is_two(tmp_path: Path) -> None:
    message = refused(tmp_path, HARBOUR + "\n[options]\nmax_director_passes = 3\n")
    assert message.endswith(
        "options.max_director_passes: Input should be less than or equal to 2 (got 3)"
    )


def test_names_roles_and_presence_are_checked(tmp_path: Path) -> None:
    doubled = HARBOUR.replace('name = "Tomas"', 'name = "Mara"')
    assert refused(tmp_path, doubled).endswith("characters named more than once: Mara")
    reserved = HARBOUR.replace('name = "Tomas"', 'name = "Director"')
    assert "Director: a character cannot be called director, person or world" in refused(
        tmp_path, reserved
    )
    nobody = HARBOUR.replace("active = false", "").replace(
        'intentions = "close the harbour"', 'intentions = "close the harbour"\nactive = false'
    )
    nobody = nobody.replace('intentions = "sell the catch"', 'intentions = "x"\nactive = false')
    nobody = nobody.replace('intentions = "find a ship"', 'intentions = "y"\nactive = false')
    assert refused(tmp_path, nobody).endswith(
        "no character is active: at least one must be in the scene"
    )


def test_profiles_are_looked_up_or_checked_inline(tmp_path: Path) -> None:
    unknown = HARBOUR.replace(
        'persona = "A fisherman."', 'persona = "A fisherman."\nprofile = "sailor"'
    )
    message = refused(tmp_path, unknown)
    assert message.startswith(f"{tmp_path / 'scene.toml'}: characters[1].profile: unknown profile")
    inline = HARBOUR.replace(
        'persona = "A fisherman."', 'persona = "A fisherman."\nprofile = { description = "x" }'
    )
    assert refused(tmp_path, inline) == (
        f"{tmp_path / 'scene.toml'}: characters[1].profile: instructions: missing"
    )
    assert harbour().characters["Mara"].name == "character", "the default profile"


def test_a_scene_may_bring_its_own_profiles(tmp_path: Path) -> None:
    text = HARBOUR.replace(
        'persona = "A stranger."',
        'persona = "A stranger."\nprofile = { instructions = "Speak only in questions." }',
    )
    path = tmp_path / "own.toml"
    path.write_text(text, "utf-8")
    scene = load_scene(str(path), CATALOG)
    ines = scene.characters["Ines"]
    assert (ines.name, ines.origin.source) == ("ines", "scene")
    assert ines.origin.where == f"{path}: characters[2].profile"


def test_a_director_answers_in_json_and_a_character_in_prose(tmp_path: Path) -> None:
    prose_director = 'director = "worker"\n' + HARBOUR
    assert refused(tmp_path, prose_director).endswith(
        "director: profile 'worker' answers in prose; a director answers in JSON "
        "(expects_json = true), like the built-in director"
    )
    json_character = HARBOUR.replace(
        'persona = "A fisherman."', 'persona = "A fisherman."\nprofile = "critic"'
    )
    assert refused(tmp_path, json_character).endswith(
        "characters[1].profile: profile 'critic' answers in JSON; a character answers in prose"
    )


def test_the_world_agent_is_behind_its_flag() -> None:
    assert harbour().world is None
    world = harbour("\n[options]\nworld_agent = true\n").world
    assert world is not None and world.name == "world" and world.expects_json


def test_one_scenario_place(tmp_path: Path) -> None:
    both = HARBOUR + '\n[notes.scene]\nscenario = "Again."\n'
    assert refused(tmp_path, both).endswith(
        "scenario and notes.scene.scenario say the same thing: keep one"
    )


def test_every_model_of_a_characters_state_has_the_one_list_of_fields() -> None:
    # STATE_FIELDS is what the views, the envelope and the timeline show: no model has more.
    own = {"name", "active", "persona", "profile"}
    for model in (CharacterState, CharacterEntry, StateUpdate):
        assert tuple(f for f in model.model_fields if f not in own) == STATE_FIELDS, model
    entry = CharacterEntry(name="Mara", mood="calm", intentions="close up", active=False)
    assert entry.state() == CharacterState(
        name="Mara", mood="calm", intentions="close up", active=False
    )
