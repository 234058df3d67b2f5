"""The fold's modules bind the events module on its first use (events_on_use.py): the first
attribute read gives the event's class and leaves the module itself in the global."""

from __future__ import annotations

from typing import Any

from agentui.core.protocol import events
from agentui.core.protocol.events_on_use import events_on_first_use


def test_the_first_read_gives_the_class_and_binds_the_module_in_its_place() -> None:
    namespace: dict[str, Any] = {}
    namespace["ev"] = events_on_first_use(namespace)
    assert namespace["ev"] is not events
    assert namespace["ev"].TextDelta is events.TextDelta
    assert namespace["ev"] is events


def test_it_binds_the_name_it_was_given() -> None:
    namespace: dict[str, Any] = {}
    namespace["events_module"] = events_on_first_use(namespace, bound_as="events_module")
    assert namespace["events_module"].AnyEvent is events.AnyEvent
    assert namespace == {"events_module": events}


def test_the_fold_s_modules_bind_it_so() -> None:
    """Each of them, once a function of theirs has read an event's class, reads the module."""
    from agentui.core.state import run_state, scene_fold, scene_items, transcript

    for module in (run_state, scene_fold, scene_items, transcript):
        module.ev.Event  # noqa: B018  (the read that binds it)
        assert module.ev is events, module.__name__
