"""Valid example arguments from a tool's JSON Schema, so the scripted model can call any tool."""

from __future__ import annotations

from typing import Any

# Examples for string formats pydantic emits, so typed fields (dates, ids, ...) validate.
_FORMAT_EXAMPLES = {
    "date-time": "2026-01-01T00:00:00Z",
    "date": "2026-01-01",
    "time": "12:00:00",
    "duration": "PT1M",
    "uuid": "00000000-0000-4000-8000-000000000000",
    "email": "person@example.com",
    "uri": "https://example.com/",
    "path": "example.txt",
    "ipv4": "127.0.0.1",
    "ipv6": "::1",
}


def sample_arguments(schema: dict[str, Any]) -> dict[str, Any]:
    value = _sample(schema, schema.get("$defs", {}), "value")
    return value if isinstance(value, dict) else {}


def _number(schema: dict[str, Any], *, integer: bool) -> int | float:
    """A value inside the schema's bounds (inclusive or exclusive, either side)."""
    step = 1 if integer else 0.5
    low: float | None = None
    if "minimum" in schema:
        low = schema["minimum"]
    if "exclusiveMinimum" in schema:
        low = schema["exclusiveMinimum"] + (1 if integer else min(step, 1e-3))
    high: float | None = None
    if "maximum" in schema:
        high = schema["maximum"]
    if "exclusiveMaximum" in schema:
        high = schema["exclusiveMaximum"] - (1 if integer else min(step, 1e-3))
    value = low if low is not None else (min(1, high) if high is not None else 1)
    if high is not None and value > high:
        value = high
    return int(value) if integer else float(value)


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
        if "prefixItems" in schema:  # tuples: one value per position
            return [_sample(item, defs, name) for item in schema["prefixItems"]]
        count = max(1, int(schema.get("minItems", 1)))
        return [_sample(schema.get("items", {}), defs, name) for _ in range(count)]
    if kind == "string":
        if schema.get("format") in _FORMAT_EXAMPLES:
            return _FORMAT_EXAMPLES[schema["format"]]
        text = f"example {name.replace('_', ' ')}"
        min_length = int(schema.get("minLength", 0))
        max_length = int(schema.get("maxLength", max(len(text), min_length)))
        return text.ljust(min_length, ".")[:max_length]
    if kind == "integer":
        return _number(schema, integer=True)
    if kind == "number":
        return _number(schema, integer=False)
    if kind == "boolean":
        return True
    return None
