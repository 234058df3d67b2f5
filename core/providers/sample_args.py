"""Valid example arguments from a tool's JSON Schema, so the scripted model can call any tool."""

from __future__ import annotations

from typing import Any


def sample_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    value = _sample(schema, schema.get("$defs", {}), "value")
    return value if isinstance(value, dict) else {}


def _sample(schema: dict[str, Any], defs: dict[str, Any], name: str) -> Any:
    if "$ref" in schema:
        return _sample(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, name)
    if "default" in schema:
        return schema["default"]
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return _sample(options[0], defs, name)
    if "allOf" in schema:
        return _sample(schema["allOf"][0], defs, name)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        return {key: _sample(sub, defs, key) for key, sub in properties.items()}
    if kind == "array":
        count = max(1, int(schema.get("minItems", 1)))
        return [_sample(schema.get("items", {}), defs, name) for _ in range(count)]
    if kind == "string":
        text = f"example {name.replace('_', ' ')}"
        min_length = int(schema.get("minLength", 0))
        max_length = int(schema.get("maxLength", len(text)))
        return text.ljust(min_length, ".")[: max(max_length, min_length)]
    if kind == "integer":
        return int(schema.get("minimum", schema.get("exclusiveMinimum", 0) + 1))
    if kind == "number":
        return float(schema.get("minimum", 1.0))
    if kind == "boolean":
        return True
    return None
