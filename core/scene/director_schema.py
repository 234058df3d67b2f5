"""A director's JSON Schema narrowed to one scene: every character name an enum of its cast.

A model held to the schema (Claude's structured output) can then name only the scene's
characters, and the offline model sees whom it may pick. A schema without the built-in
director's lists is left as it is.
"""

from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import Any

# The built-in director's lists whose items name a character.
NAMED_LISTS = ("acting_characters", "activations", "deactivations", "state_updates")


def with_character_names(schema: dict[str, Any], names: Sequence[str]) -> dict[str, Any]:
    """A copy of `schema` whose named lists' `name` properties take only `names`."""
    narrowed = copy.deepcopy(schema)
    properties = narrowed.get("properties")
    if not isinstance(properties, dict):
        return narrowed
    for key in NAMED_LISTS:
        items = (
            properties.get(key, {}).get("items") if isinstance(properties.get(key), dict) else None
        )
        name = items.get("properties", {}).get("name") if isinstance(items, dict) else None
        if isinstance(name, dict) and name.get("type", "string") == "string":
            name["enum"] = list(names)
    return narrowed
