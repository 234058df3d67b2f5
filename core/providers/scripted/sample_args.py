"""Values from a JSON Schema, so the scripted model can call any tool and answer any schema.

`sample_arguments` fills every property with an example (a tool call that shows something;
`sample_value` does the same for any schema, a JSON agent's answer);
`minimal_instance` gives the least a schema allows (required properties only, false, empty,
the lowest number): for a workflow decision, the neutral answer ("no"); `affirmative_instance`
says yes to what a schema asks (every flag true, its strings from given texts).
"""

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
    value = sample_value(schema)
    return value if isinstance(value, dict) else {}


def sample_value(schema: dict[str, Any]) -> Any:
    """An example value for `schema`, every property filled (`$defs` or Draft-07's
    `definitions` resolve a `$ref`)."""
    return _sample(schema, schema.get("$defs", schema.get("definitions", {})), "value")


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


def minimal_instance(schema: dict[str, Any]) -> Any:
    """The smallest value valid for `schema` (a `$ref` resolves against its `$defs`)."""
    return _minimal(schema, schema.get("$defs", {}))


def _minimal(schema: dict[str, Any], defs: dict[str, Any]) -> Any:
    if "$ref" in schema:
        return _minimal(defs[schema["$ref"].rsplit("/", 1)[-1]], defs)
    if "const" in schema:
        return schema["const"]
    if "enum" in schema:
        return schema["enum"][0]
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            # A null option is the least of all; else the first option.
            options = schema[key]
            if key != "allOf" and any(o.get("type") == "null" for o in options):
                return None
            return _minimal(options[0], defs)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = "null" if "null" in kind else kind[0]
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        return {key: _minimal(properties.get(key, {}), defs) for key in schema.get("required", [])}
    if kind == "array":
        count = int(schema.get("minItems", 0))
        return [_minimal(schema.get("items", {}), defs) for _ in range(count)]
    if kind == "string":
        if schema.get("format") in _FORMAT_EXAMPLES:
            return _FORMAT_EXAMPLES[schema["format"]]
        return "a" * int(schema.get("minLength", 0))
    if kind in ("integer", "number"):
        if "minimum" in schema:
            value = schema["minimum"]
        elif "exclusiveMinimum" in schema:
            value = schema["exclusiveMinimum"] + 1
        else:  # no lower bound: zero, unless the upper bound is below it
            value = min(0, schema.get("maximum", 0), schema.get("exclusiveMaximum", 1) - 1)
        return int(value) if kind == "integer" else float(value)
    if kind == "boolean":
        return False
    return None


def affirmative_instance(schema: dict[str, Any], texts: list[str]) -> Any:
    """A value that says yes to what `schema` asks: every flag true, every property set, its
    strings taken from `texts` in order (a list of strings takes all that are left, within
    its bounds). What is not a flag or a string is the least the schema allows."""
    return _affirmative(schema, schema.get("$defs", {}), list(texts))


def _affirmative(schema: dict[str, Any], defs: dict[str, Any], texts: list[str]) -> Any:
    if "$ref" in schema:
        return _affirmative(defs[schema["$ref"].rsplit("/", 1)[-1]], defs, texts)
    if "const" in schema or "enum" in schema:
        return _minimal(schema, defs)
    for key in ("anyOf", "oneOf", "allOf"):
        if key in schema:
            options = [s for s in schema[key] if s.get("type") != "null"] or schema[key]
            return _affirmative(options[0], defs, texts)
    kind = schema.get("type", "object")
    if isinstance(kind, list):
        kind = next((k for k in kind if k != "null"), "null")
    if kind == "object":
        properties: dict[str, Any] = schema.get("properties", {})
        return {key: _affirmative(sub, defs, texts) for key, sub in properties.items()}
    if kind == "array":
        low = int(schema.get("minItems", 0))
        high = int(schema.get("maxItems", max(low, len(texts))))
        count = max(low, min(len(texts), high))
        return [_affirmative(schema.get("items", {}), defs, texts) for _ in range(count)]
    if kind == "string" and texts:
        return texts.pop(0)
    if kind == "boolean":
        return True
    return _minimal(schema, defs)
