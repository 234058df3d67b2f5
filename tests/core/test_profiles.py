"""Agent profiles on their own: loading from TOML, JSON and a scene's dict, the contract checks
on load (mode, schema, example) with one message naming the file, field and JSON path, the
non-JSON bypass, the catalog's override order and bad files, and the return template."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft7Validator

from agentui.core.profiles.catalog import ProfileCatalog, builtin_profiles, load_catalog
from agentui.core.profiles.loading import load_profile_file, profile_from_data
from agentui.core.profiles.profile import ProfileOrigin
from agentui.core.profiles.prompt import (
    OBJECT_TEMPLATE,
    SCHEMA_TEMPLATE,
    profile_instructions,
    return_template,
)
from agentui.core.providers.scripted.sample_args import sample_value
from agentui.core.support.errors import ProfileError, UnknownProfileError

SCORE_SCHEMA = {
    "type": "object",
    "properties": {"score": {"type": "integer"}, "notes": {"type": "string"}},
    "required": ["score"],
}

CRITIC_TOML = """\
description = "Scores things"
instructions = "Score the work from 1 to 10."
tools = []
expects_json = true
json_mode = "schema"
json_schema = '{"type": "object", "properties": {"score": {"type": "integer"}}, "required": ["score"]}'

[json_example]
score = 7
"""


def write(directory: Path, name: str, text: str) -> Path:
    path = directory / name
    path.write_text(text, "utf-8")
    return path


def scene(data: dict[str, Any], label: str = "scenes/inn.toml, profile barkeep") -> Any:
    return profile_from_data(data, ProfileOrigin(source="scene", where=label))


def refusal(path: Path) -> str:
    with pytest.raises(ProfileError) as caught:
        load_profile_file(path)
    return str(caught.value)


# -- loading ------------------------------------------------------------------------------------


def test_a_toml_file_loads_with_its_stem_as_name(tmp_path: Path) -> None:
    profile = load_profile_file(write(tmp_path, "critic.toml", CRITIC_TOML))
    assert (profile.name, profile.kind, profile.tools) == ("critic", "json schema", [])
    assert profile.json_schema == {
        "type": "object",
        "properties": {"score": {"type": "integer"}},
        "required": ["score"],
    }
    assert profile.json_example == {"score": 7}
    assert profile.origin == ProfileOrigin(source="user", where=str(tmp_path / "critic.toml"))
    assert profile.origin.describe() == f"user {tmp_path / 'critic.toml'}"


def test_a_json_file_loads_and_a_name_in_it_wins_over_the_stem(tmp_path: Path) -> None:
    data = {
        "name": "brief",
        "instructions": "Summarise.",
        "expects_json": True,
        "json_mode": "object",
        "json_example": {"title": "t", "points": ["a"]},
    }
    profile = load_profile_file(write(tmp_path, "anything.json", json.dumps(data)))
    assert (profile.name, profile.kind, profile.json_schema) == ("brief", "json object", None)


def test_a_scene_profile_comes_from_a_dict_with_its_label() -> None:
    profile = scene({"name": "barkeep", "instructions": "Pour.", "persona": "Gruff, kind."})
    assert profile.origin.describe() == "scene scenes/inn.toml, profile barkeep"
    assert profile.kind == "text"


def test_the_origin_is_always_the_loaders_to_say() -> None:
    profile = scene(
        {"name": "x", "instructions": "Go.", "origin": {"source": "built-in", "where": "x"}}
    )
    assert profile.origin.source == "scene"


# -- refused on load, one message ---------------------------------------------------------------


def test_a_bad_mode_is_refused_naming_file_and_field(tmp_path: Path) -> None:
    path = write(tmp_path, "critic.toml", CRITIC_TOML.replace('"schema"', '"obj"'))
    assert refusal(path) == f"{path}: json_mode: must be object or schema (got 'obj')"


def test_a_bad_schema_is_refused_with_its_json_path(tmp_path: Path) -> None:
    path = write(tmp_path, "critic.toml", CRITIC_TOML.replace('"integer"', '"integr"'))
    assert refusal(path) == (
        f"{path}: json_schema at $.properties.score.type: "
        "'integr' is not valid under any of the given schemas"
    )


def test_an_example_that_does_not_match_the_schema_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "critic.toml", CRITIC_TOML.replace("score = 7", 'score = "high"'))
    assert refusal(path) == f"{path}: json_example at $.score: 'high' is not of type 'integer'"


def test_a_schema_that_is_not_json_is_refused(tmp_path: Path) -> None:
    path = write(tmp_path, "critic.toml", CRITIC_TOML.replace('"required"', "required"))
    assert refusal(path).startswith(f"{path}: json_schema: not valid JSON (Expecting")


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (
            {"expects_json": True},
            "json_mode: required when expects_json is true: object or schema",
        ),
        ({"expects_json": True, "json_mode": "schema"}, "json_schema: required in schema mode"),
        (
            {"expects_json": True, "json_mode": "object", "json_example": [1, 2]},
            "json_example: object mode needs an example JSON object, which answers follow",
        ),
        (
            {"expects_json": True, "json_mode": "object", "json_example": {"a": 1}, "tool": []},
            "tool: not a profile setting (a typo?)",
        ),
        ({"instructions": "  "}, "instructions: must not be empty"),
        ({"name": "no spaces"}, "name: String should match pattern"),
    ],
)
def test_what_a_profile_needs_is_said_in_one_message(data: dict[str, Any], message: str) -> None:
    with pytest.raises(ProfileError) as caught:
        scene({"name": "p", "instructions": "Go.", **data}, label="inn.toml")
    assert str(caught.value).startswith(f"inn.toml: {message}")


def test_a_file_that_does_not_parse_says_so(tmp_path: Path) -> None:
    toml = write(tmp_path, "a.toml", "instructions = ")
    assert refusal(toml).startswith(f"{toml}: not valid TOML (")
    broken = write(tmp_path, "b.json", "{")
    assert refusal(broken).startswith(f"{broken}: not valid JSON (")
    listed = write(tmp_path, "c.json", "[1]")
    assert refusal(listed) == f"{listed}: a profile file holds one JSON object"


def test_a_profile_that_expects_no_json_bypasses_every_contract_check() -> None:
    profile = scene(
        {
            "name": "storyteller",
            "instructions": "Tell it.",
            "json_mode": "neither",
            "json_schema": {"type": "integr"},
            "json_example": "whatever",
        }
    )
    assert profile.kind == "text"
    assert profile.contract() is None
    assert return_template(profile) is None
    assert profile_instructions(profile) == "Tell it."


# -- the return template and the instructions -----------------------------------------------------


def test_object_mode_injects_the_example() -> None:
    example = {"title": "Launch", "points": ["venue", "budget"]}
    profile = scene(
        {
            "name": "brief",
            "instructions": "Summarise.",
            "expects_json": True,
            "json_mode": "object",
            "json_example": example,
            "json_schema": SCORE_SCHEMA | {"required": []},
        }
    )
    template = return_template(profile)
    assert template == OBJECT_TEMPLATE.format(example=json.dumps(example, indent=2))
    assert '"points": [\n    "venue",' in template
    assert '"score"' not in template  # object mode shows the example, not the schema


def test_schema_mode_injects_the_schema() -> None:
    profile = scene(
        {
            "name": "scorer",
            "instructions": "Score it.",
            "expects_json": True,
            "json_mode": "schema",
            "json_schema": SCORE_SCHEMA,
            "json_example": {"score": 3, "notes": "an example"},
        }
    )
    template = return_template(profile)
    assert template == SCHEMA_TEMPLATE.format(schema=json.dumps(SCORE_SCHEMA, indent=2))
    assert "an example" not in template


def test_the_instructions_are_the_profiles_then_its_persona_then_its_template() -> None:
    profile = scene(
        {
            "name": "scorer",
            "instructions": "Score it.\n",
            "persona": " A tired judge. ",
            "expects_json": True,
            "json_mode": "schema",
            "json_schema": SCORE_SCHEMA,
        }
    )
    assert profile_instructions(profile) == (
        "Score it.\n\nYour persona:\nA tired judge.\n\n" + str(return_template(profile))
    )


# -- the contract at run time -----------------------------------------------------------------------


def test_an_answer_is_parsed_from_plain_json_or_a_fence() -> None:
    contract = scene(
        {
            "name": "scorer",
            "instructions": "Score.",
            "expects_json": True,
            "json_mode": "schema",
            "json_schema": SCORE_SCHEMA,
        }
    ).contract()
    assert contract is not None
    assert contract.check('{"score": 4}').payload == {"score": 4}
    fenced = contract.check('Here it is:\n```json\n{"score": 5}\n```\n')
    assert (fenced.ok, fenced.payload) == (True, {"score": 5})
    assert contract.check("```\n[1]\n```").errors == ("$: [1] is not of type 'object'",)
    assert contract.check("").errors == ("$: the answer is empty; it must be JSON",)
    assert contract.check("score: 4").errors == (
        "$: the answer is not JSON (Expecting value at line 1 column 1)",
    )


def test_every_problem_of_an_answer_is_named_by_its_path() -> None:
    contract = scene(
        {
            "name": "scorer",
            "instructions": "Score.",
            "expects_json": True,
            "json_mode": "schema",
            "json_schema": SCORE_SCHEMA,
        }
    ).contract()
    assert contract is not None
    assert contract.check('{"notes": 3}').errors == (
        "$: 'score' is a required property",
        "$.notes: 3 is not of type 'string'",
    )


def test_object_mode_without_a_schema_takes_any_object() -> None:
    contract = scene(
        {
            "name": "brief",
            "instructions": "Go.",
            "expects_json": True,
            "json_mode": "object",
            "json_example": {"a": 1},
        }
    ).contract()
    assert contract is not None
    assert contract.check('{"anything": true}').ok
    assert contract.check('"text"').errors == ("$: 'text' is not of type 'object'",)


# -- the catalog ------------------------------------------------------------------------------------


def test_the_built_ins_are_valid_and_the_offline_model_can_answer_each() -> None:
    kinds = {p.name: p.kind for p in builtin_profiles()}
    assert kinds == {
        "character": "text",
        "critic": "json schema",
        "director": "json schema",
        "summarizer": "json object",
        "worker": "text",
        "world": "json schema",
    }
    for profile in builtin_profiles():
        assert profile.origin.describe() == "built-in"
        if profile.json_schema is not None:
            validator = Draft7Validator(profile.json_schema)
            assert list(validator.iter_errors(sample_value(profile.json_schema))) == []
            assert list(validator.iter_errors(profile.json_example)) == []


def test_the_directors_contract_is_the_seeds_director_output() -> None:
    director = load_catalog(Path("/nonexistent")).get("director")
    assert director.json_schema is not None
    assert set(director.json_schema["required"]) == {
        "acting_characters",
        "activations",
        "deactivations",
        "state_updates",
        "world_updates",
        "open_guidance",
    }
    items = director.json_schema["properties"]
    assert items["acting_characters"]["items"]["required"] == ["name", "guidance", "priority"]
    assert items["activations"]["items"]["required"] == ["name", "entry_guidance"]
    assert items["deactivations"]["items"]["required"] == ["name", "exit_guidance"]
    assert set(items["state_updates"]["items"]["properties"]) == {
        "name",
        "location",
        "mood",
        "clothing",
        "activity",
        "intentions",
    }


def test_the_persons_profiles_override_built_ins_and_bad_files_stop_nothing(
    tmp_path: Path,
) -> None:
    write(tmp_path, "critic.toml", CRITIC_TOML)
    write(tmp_path, "broken.toml", CRITIC_TOML.replace('"integer"', '"integr"'))
    write(tmp_path, "helper.json", json.dumps({"instructions": "Help."}))
    write(tmp_path, "twin.json", json.dumps({"name": "helper", "instructions": "Again."}))
    write(tmp_path, "notes.md", "not a profile")
    catalog = load_catalog(tmp_path)
    assert catalog.names() == [
        "character",
        "critic",
        "director",
        "helper",
        "summarizer",
        "worker",
        "world",
    ]
    assert catalog.get("critic").origin.describe() == f"user {tmp_path / 'critic.toml'}"
    assert catalog.get("critic").description == "Scores things"
    assert catalog.get("helper").instructions == "Help."
    assert catalog.problems == [
        f"{tmp_path / 'broken.toml'}: json_schema at $.properties.score.type: "
        "'integr' is not valid under any of the given schemas",
        f"{tmp_path / 'twin.json'}: profile 'helper' is already defined in "
        f"{tmp_path / 'helper.json'}; this file is skipped",
    ]


def test_the_agents_directory_is_under_the_config_dir(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    (tmp_path / "agents").mkdir()
    write(tmp_path / "agents", "mine.toml", 'instructions = "Mine."')
    assert load_catalog().get("mine").origin.where == str(tmp_path / "agents" / "mine.toml")


def test_an_unknown_name_lists_the_known_ones() -> None:
    catalog = ProfileCatalog(builtin_profiles())
    with pytest.raises(UnknownProfileError) as caught:
        catalog.get("critc")
    assert str(caught.value) == (
        "unknown profile 'critc'; the profiles are: character, critic, director, summarizer, worker, world"
    )
