"""A JSON Schema for OpenAI's strict structured output, made only when it keeps its meaning.

Strict mode holds the model to the schema by constrained decoding, on a subset of JSON Schema:
every object closed (`additionalProperties: false`), every property required, no `default`.
The SDK's own conversion (private, in `openai.lib`) requires every property whatever leaving
it out meant: a director's state update that names only the mood would have to fill every
other state field, and so overwrite them. Here:

- a property may be left out only when the schema says what that means, by a `default` (the
  model then gives the default, which is what the reader assumes when it is missing; a `null`
  default only where null is allowed); any other optional property keeps the schema loose;
- free-form maps (an object open to other properties, or with none declared), conditionals,
  `not`, `allOf` of several schemas, tuples and references outside the schema keep it loose;
- what strict mode does not take (a `default`, `uniqueItems`, `minProperties`, a string
  `format` it does not know, ...) moves into the description: the model still reads it, and
  the caller's validation against the original schema still enforces it;
- a reference with words beside it is inlined (strict mode takes a `$ref` alone), `oneOf`
  becomes `anyOf` (the caller's validation tells them apart).

Every answer the strict schema allows is then an answer the original allows, but for the
constraints moved to descriptions, which the caller checks.
"""

from __future__ import annotations

import copy
import json
from typing import Any

from agentui.core.providers.schema_defs import defs_for_definitions

# Keywords that make a schema inexpressible in strict mode without changing what it means.
_REFUSED = (
    "patternProperties",
    "propertyNames",
    "unevaluatedProperties",
    "unevaluatedItems",
    "prefixItems",
    "dependentRequired",
    "dependentSchemas",
    "not",
    "if",
    "then",
    "else",
)
# Keywords strict mode does not take, kept for the model as words in the description.
_DESCRIBED = (
    "default",
    "minProperties",
    "maxProperties",
    "uniqueItems",
    "contains",
    "minContains",
    "maxContains",
)
# The string formats strict mode takes; another moves into the description.
_FORMATS = ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
_MISSING = object()


class _NotStrict(Exception):
    """The schema cannot be made strict without changing what it means."""


def strict_schema(schema: dict[str, Any]) -> dict[str, Any] | None:
    """A strict copy of `schema` (an object at its root), or None when strict mode would
    change what the schema means: the caller then sends it loose."""
    root = copy.deepcopy(defs_for_definitions(schema))
    if root.get("type") != "object":
        return None  # strict mode wants an object at the root
    try:
        return _strict(root, root)
    except _NotStrict:
        return None


def _strict(node: Any, root: dict[str, Any]) -> dict[str, Any]:
    if not isinstance(node, dict) or any(key in node for key in _REFUSED):
        raise _NotStrict
    defs = node.get("$defs")
    if isinstance(defs, dict):
        node["$defs"] = {name: _strict(inner, root) for name, inner in defs.items()}
    if "$ref" in node:
        target = _resolve(root, node["$ref"])
        if len(node) == 1:
            return node
        # Strict mode takes a reference alone: the words beside it go into a copy of its target.
        merged = {**copy.deepcopy(target), **{k: v for k, v in node.items() if k != "$ref"}}
        return _strict(merged, root)
    if "allOf" in node:
        parts = node.pop("allOf")
        if not isinstance(parts, list) or len(parts) != 1:
            raise _NotStrict
        return _strict({**node, **parts[0]}, root)
    if "oneOf" in node:
        node["anyOf"] = node.pop("oneOf")
    if isinstance(node.get("anyOf"), list):
        node["anyOf"] = [_strict(variant, root) for variant in node["anyOf"]]
    if node.get("type") == "object" or "properties" in node:
        _close_object(node, root)
    if node.get("type") == "array" or "items" in node:
        node["items"] = _strict(node.get("items"), root)  # an untyped array is refused
    _describe_unchecked(node)
    return node


def _close_object(node: dict[str, Any], root: dict[str, Any]) -> None:
    """Every property required and no others allowed; refused when that changes its meaning."""
    properties = node.get("properties")
    if node.get("additionalProperties", False) is not False:
        raise _NotStrict  # a map open to other properties
    if not isinstance(properties, dict):
        if "additionalProperties" not in node:
            raise _NotStrict  # an object of anything
        properties = {}
    required = node.get("required", [])
    for name, inner in properties.items():
        if name not in required and not _absent_means_default(inner):
            raise _NotStrict
    node["properties"] = {name: _strict(inner, root) for name, inner in properties.items()}
    node["required"] = list(properties)
    node["additionalProperties"] = False


def _absent_means_default(schema: Any) -> bool:
    """Whether leaving the property out means a value the model can give: its default."""
    if not isinstance(schema, dict) or "default" not in schema:
        return False
    return schema["default"] is not None or _allows_null(schema)


def _allows_null(schema: dict[str, Any]) -> bool:
    kind = schema.get("type")
    if kind == "null" or (isinstance(kind, list) and "null" in kind):
        return True
    variants = schema.get("anyOf", schema.get("oneOf", []))
    return any(isinstance(v, dict) and _allows_null(v) for v in variants)


def _describe_unchecked(node: dict[str, Any]) -> None:
    notes = []
    for key in _DESCRIBED:
        value = node.pop(key, _MISSING)
        if value is not _MISSING:
            notes.append(f"{key}: {json.dumps(value)}")
    if "format" in node and node["format"] not in _FORMATS:
        notes.append(f"format: {node.pop('format')}")
    if notes:
        words = ", ".join(notes)
        described = node.get("description")
        node["description"] = f"{described} ({words})" if described else words


def _resolve(root: dict[str, Any], ref: Any) -> dict[str, Any]:
    """The schema a reference inside this one points at; refused for any other."""
    if not isinstance(ref, str) or not ref.startswith("#/"):
        raise _NotStrict
    target: Any = root
    for key in ref[2:].split("/"):
        if not isinstance(target, dict) or key not in target:
            raise _NotStrict
        target = target[key]
    if not isinstance(target, dict):
        raise _NotStrict
    return target
