"""A tool described by a JSON Schema (an MCP server's): the schema is its spec, arguments are
checked against it, and the handler gets them as a dict."""

from __future__ import annotations

from typing import Any

import pytest

from agentui.core.tools.registry import ToolRegistry
from agentui.core.tools.tool import Tool, ToolArgumentError, ToolContext

pytestmark = pytest.mark.anyio

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "minimum": 1}},
    "required": ["query"],
    "additionalProperties": False,
}


async def _search(arguments: dict[str, Any], context: ToolContext) -> dict[str, Any]:
    return {"got": arguments}


SEARCH = Tool.from_schema("docs__search", "Search the docs.", SCHEMA, _search, needs_approval=True)


def test_the_schema_is_the_spec_as_given() -> None:
    spec = SEARCH.spec
    assert (spec.name, spec.description, spec.input_schema) == (
        "docs__search",
        "Search the docs.",
        SCHEMA,
    )
    assert SEARCH.needs_approval and SEARCH.input_model is None


def test_arguments_are_checked_against_the_schema() -> None:
    assert SEARCH.parse({"query": "ports", "limit": 2}) == {"query": "ports", "limit": 2}
    with pytest.raises(ToolArgumentError) as raised:
        SEARCH.parse({"limit": 0, "extra": True})
    assert str(raised.value) == (
        "invalid arguments for docs__search: $: 'query' is a required property; "
        "$: Additional properties are not allowed ('extra' was unexpected); "
        "$.limit: 0 is less than the minimum of 1"
    )


async def test_the_registry_runs_it_and_reports_bad_arguments_as_an_error_outcome() -> None:
    registry = ToolRegistry([SEARCH])
    context = ToolContext("a1", "call-1", 1, services=None)  # type: ignore[arg-type]
    ok = await registry.execute("docs__search", {"query": "x"}, context)
    assert (ok.content, ok.is_error) == ('{"got": {"query": "x"}}', False)
    bad = await registry.execute("docs__search", {"query": 3}, context)
    assert bad.is_error and "$.query: 3 is not of type 'string'" in bad.content


def test_replace_puts_a_new_tool_in_the_place_of_one_of_that_name() -> None:
    registry = ToolRegistry([SEARCH])
    newer = Tool.from_schema("docs__search", "Search, v2.", {"type": "object"}, _search)
    registry.replace(newer)
    assert registry.get("docs__search") is newer and len(registry) == 1
    with pytest.raises(ValueError):
        registry.register(newer)
