"""OpenAI's strict structured output only where it keeps a schema's meaning (strict_schema.py)."""

from __future__ import annotations

import json
from typing import Any

import jsonschema
import pytest

from agentui.core.profiles.catalog import builtin_profiles
from agentui.core.providers.openai.request import response_format
from agentui.core.providers.openai.strict_schema import strict_schema
from agentui.core.workflow.decisions import DECISIONS


def _director_schema() -> dict[str, Any]:
    director = next(p for p in builtin_profiles() if p.name == "director")
    assert isinstance(director.json_schema, dict)
    return director.json_schema


def test_the_directors_contract_goes_loose_its_state_fields_optional() -> None:
    schema = _director_schema()
    declared = response_format(schema, "director", "strict")
    assert declared is not None
    assert declared["json_schema"]["strict"] is False
    assert declared["json_schema"]["schema"] == schema, "sent as it is"
    update = declared["json_schema"]["schema"]["properties"]["state_updates"]["items"]
    assert update["required"] == ["name"]


@pytest.mark.parametrize("name", sorted(DECISIONS))
def test_every_workflow_decision_is_strict_and_its_least_answer_still_valid(name: str) -> None:
    original = DECISIONS[name].model_json_schema()
    strict = strict_schema(original)
    assert strict is not None
    assert strict["required"] == list(original["properties"])
    assert strict["additionalProperties"] is False
    # Each property left out had a default: the strict answer that gives the defaults is the
    # decision's neutral answer, and valid for the original schema.
    defaults = {k: v["default"] for k, v in original["properties"].items()}
    jsonschema.validate(defaults, original)
    assert DECISIONS[name].model_validate(defaults) == DECISIONS[name]()
    assert "default" not in json.dumps(strict).replace('"description": "default', "")


def test_what_strict_mode_does_not_take_moves_into_the_description() -> None:
    schema = {
        "type": "object",
        "properties": {
            "name": {"type": "string", "minLength": 1, "description": "who"},
            "seen": {"type": "string", "format": "uri"},
            "tags": {"type": "array", "items": {"type": "string"}, "uniqueItems": True},
            "mood": {"type": "string", "default": "calm"},
        },
        "required": ["name", "seen", "tags"],
    }
    strict = strict_schema(schema)
    assert strict is not None
    properties = strict["properties"]
    assert properties["name"] == {"type": "string", "minLength": 1, "description": "who"}
    assert properties["seen"] == {"type": "string", "description": "format: uri"}
    assert properties["tags"]["description"] == "uniqueItems: true"
    assert properties["mood"] == {"type": "string", "description": 'default: "calm"'}
    assert strict["required"] == ["name", "seen", "tags", "mood"]
    assert "format" in schema["properties"]["seen"], "the original is not changed"


@pytest.mark.parametrize(
    "schema",
    [
        # An optional property with no default: leaving it out means "no change".
        {"type": "object", "properties": {"mood": {"type": "string"}}},
        # A null default where null is not allowed: the model would have to make a value up.
        {"type": "object", "properties": {"mood": {"type": "string", "default": None}}},
        # Free-form maps.
        {"type": "object", "properties": {"world": {"type": "object"}}, "required": ["world"]},
        {
            "type": "object",
            "properties": {"x": {"type": "string"}},
            "required": ["x"],
            "additionalProperties": {"type": "string"},
        },
        # What strict mode cannot say.
        {"type": "object", "properties": {"a": {"type": "array"}}, "required": ["a"]},
        {
            "type": "object",
            "properties": {"a": {"not": {"type": "null"}}},
            "required": ["a"],
        },
        {
            "type": "object",
            "properties": {"a": {"$ref": "other.json#/defs/A", "description": "elsewhere"}},
            "required": ["a"],
        },
        {"type": "array", "items": {"type": "string"}},
    ],
    ids=[
        "optional-without-default",
        "null-default-not-allowed",
        "object-of-anything",
        "open-map",
        "untyped-array",
        "not",
        "outside-reference",
        "array-root",
    ],
)
def test_a_schema_strict_mode_would_change_goes_loose(schema: dict[str, Any]) -> None:
    assert strict_schema(schema) is None
    declared = response_format(schema, "my answer!", "strict")
    assert declared is not None
    assert declared["json_schema"] == {"name": "my_answer_", "schema": schema, "strict": False}


def test_a_reference_with_words_beside_it_is_inlined_and_draft_07_definitions_read() -> None:
    schema = {
        "type": "object",
        "definitions": {
            "Who": {"type": "object", "properties": {"name": {"type": "string"}}},
        },
        "properties": {"who": {"$ref": "#/definitions/Who", "description": "the speaker"}},
        "required": ["who"],
    }
    assert strict_schema(schema) is None, "Who.name is optional without a default"
    schema["definitions"]["Who"]["required"] = ["name"]
    strict = strict_schema(schema)
    assert strict is not None
    assert strict["properties"]["who"] == {
        "type": "object",
        "properties": {"name": {"type": "string"}},
        "required": ["name"],
        "additionalProperties": False,
        "description": "the speaker",
    }
    assert strict["$defs"]["Who"]["additionalProperties"] is False
