"""Draft-07 schemas keep reusable parts in `definitions`; the model APIs read only `$defs`.

Agent profiles are Draft-07; a provider holding a model to a schema (structured output) sends
it with its definitions moved to `$defs` and every `$ref` pointed there.
"""

from __future__ import annotations

from typing import Any

_DEFINITIONS_REF = "#/definitions/"


def defs_for_definitions(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema with `definitions` as `$defs` (unchanged when it has none or has both)."""
    if "definitions" not in schema or "$defs" in schema:
        return schema

    def moved(value: Any) -> Any:
        if isinstance(value, dict):
            return {
                key: "#/$defs/" + inner.removeprefix(_DEFINITIONS_REF)
                if key == "$ref" and isinstance(inner, str) and inner.startswith(_DEFINITIONS_REF)
                else moved(inner)
                for key, inner in value.items()
            }
        if isinstance(value, list):
            return [moved(item) for item in value]
        return value

    result: dict[str, Any] = moved(schema)
    result["$defs"] = result.pop("definitions")
    return result
