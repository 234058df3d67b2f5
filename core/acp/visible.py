"""Everything agentui sends an ACP client, with terminal controls made visible.

A client may render in a terminal (Toad does, with Textual, which passes ESC and C1 through),
so a model's, a tool's or a task's text must not reach it able to clear a screen or set a
title. `visible` passes every string of an update, request or error through
`visible_controls` (the one scheme agentui has for this: newline and tab stay, every other
control shows as a stand-in), and that scheme also replaces lone surrogates, which strict JSON
parsers (Zed's) refuse as escapes.
"""

from __future__ import annotations

from typing import Any, TypeVar, cast

from pydantic import BaseModel

from agentui.core.support.terminal_text import visible_controls

T = TypeVar("T")


def visible(value: T) -> T:
    """`value` (a string, a pydantic model, or lists, tuples and dicts of them, at any depth)
    with every string's controls visible; the same object when nothing needed changing."""
    return cast(T, _visible(value))  # _visible rebuilds each value as the same type


def _visible(value: Any) -> Any:
    match value:
        case str():
            return visible_controls(value)
        case BaseModel():
            changed = {}
            for name in type(value).model_fields:
                old = getattr(value, name)
                new = _visible(old)
                if new is not old:
                    changed[name] = new
            return value.model_copy(update=changed) if changed else value
        case list() | tuple():
            items = [_visible(item) for item in value]
            if all(new is old for new, old in zip(items, value, strict=True)):
                return value
            return items if isinstance(value, list) else tuple(items)
        case dict():
            pairs = [(_visible(key), _visible(item)) for key, item in value.items()]
            if all(
                k is k0 and v is v0 for (k, v), (k0, v0) in zip(pairs, value.items(), strict=True)
            ):
                return value
            return dict(pairs)
    return value
