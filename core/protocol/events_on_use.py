"""The events module, bound where it is first used rather than where it is imported.

The fold's modules (core/state) name events inside their functions only. A resumed session's
first frame unpickles the fold's state and calls none of them, and the events' seventy models
take ~30 ms to import (issue 36). A module binds `ev = events_on_first_use(globals())`: the
first attribute read imports core/protocol/events.py and puts the module itself in that global,
so every later read costs what a module's does. importlib.util.LazyLoader would defer it too,
but before Python 3.12 a module it loads can be seen half executed by another thread, and the
app loads its runtime in one.
"""

from __future__ import annotations

from typing import Any


class _EventsOnFirstUse:
    __slots__ = ("_namespace",)

    def __init__(self, namespace: dict[str, Any]) -> None:
        self._namespace = namespace

    def __getattr__(self, name: str) -> Any:
        from agentui.core.protocol import events

        # Binding it twice (two threads at once) binds the same module: nothing to lock.
        self._namespace["ev"] = events
        return getattr(events, name)


def events_on_first_use(namespace: dict[str, Any]) -> Any:
    """What a module binds to `ev`: core/protocol/events.py, imported at its first use."""
    return _EventsOnFirstUse(namespace)
