"""The events module, bound where it is first used rather than where it is imported.

The fold's modules (core/state) name events inside their functions only. A resumed session's
first frame unpickles the fold's state and calls none of them, and the events' sixty models
take ~25-30 ms to import (issue 36). A module binds `ev = events_on_first_use(globals())`: the
first attribute read imports core/protocol/events.py and puts the module itself in that global,
so every later read costs what a module's does. importlib.util.LazyLoader would defer it too,
but in Python 3.11 a module it loads can be seen half executed by another thread, and the app
loads its runtime in one.
"""

from __future__ import annotations

from typing import Any


class _EventsOnFirstUse:
    __slots__ = ("_bound_as", "_namespace")

    def __init__(self, namespace: dict[str, Any], bound_as: str) -> None:
        self._namespace = namespace
        self._bound_as = bound_as

    def __getattr__(self, name: str) -> Any:
        from agentui.core.protocol import events

        # Binding it twice (two threads at once) binds the same module: nothing to lock.
        self._namespace[self._bound_as] = events
        return getattr(events, name)


def events_on_first_use(namespace: dict[str, Any], bound_as: str = "ev") -> Any:
    """What a module binds to `bound_as`: core/protocol/events.py, imported at its first use
    and then bound there itself."""
    return _EventsOnFirstUse(namespace, bound_as)
