"""Every consumer of events handles every event type, or passes it over by name: a new type
that one of them forgets fails here instead of being dropped in silence."""

from __future__ import annotations

import io
from collections.abc import Callable
from typing import Any

import pytest

from agentui.core.monologue.attach import AttachedMonologue
from agentui.core.monologue.config import MonologueConfig
from agentui.core.protocol.events import AgentSpawned, Event
from agentui.core.state import RunState
from agentui.core.state.transcript import TranscriptBuilder
from agentui.tui.headless.run import HeadlessPrinter

from ..core.test_bus import SAMPLE_FIELDS, _event_classes

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).


def samples() -> list[Event]:
    made = [AgentSpawned(seq=0, ts=0.0, agent_id="a7", parent_id=None, name="main", task="t")]
    for seq, cls in enumerate(_event_classes(), start=1):
        fields = SAMPLE_FIELDS[cls.model_fields["type"].default]
        made.append(cls(seq=seq, ts=float(seq), agent_id="a7", **fields))
    return made


class _NoRuntime:
    """The monologue router classifies each type before it asks the runtime anything."""

    def node(self, agent_id: str) -> Any:
        raise AssertionError("not reached for a type the router passes over")


def _run_state() -> tuple[Callable[[Event], object], set[str]]:
    state = RunState()
    return state.apply, state.unfolded


def _transcript() -> tuple[Callable[[Event], object], set[str]]:
    builder = TranscriptBuilder("a7")
    return builder.apply, builder.unfolded


def _headless() -> tuple[Callable[[Event], object], set[str]]:
    state = RunState()
    printer = HeadlessPrinter(
        io.StringIO(), io.StringIO(), json_output=False, root_id="a7", state=state
    )

    def show(event: Event) -> None:
        state.apply(event)
        printer.show(event)

    return show, printer.unfolded


def _monologue() -> tuple[Callable[[Event], object], set[str]]:
    attached = AttachedMonologue(_NoRuntime(), None, MonologueConfig(), None)  # type: ignore[arg-type]
    # Only the classification matters here: routing to a narrator is tested in core.
    attached._service_for = lambda event: None  # type: ignore[method-assign]
    return attached._route, attached.unfolded


def _acp_updates() -> tuple[Callable[[Event], object], set[str]]:
    from agentui.core.acp.updates import UpdateTranslator

    translator = UpdateTranslator()
    return translator.apply, translator.unfolded


CONSUMERS = {
    "run state": _run_state,
    "transcript": _transcript,
    "headless printer": _headless,
    "monologue router": _monologue,
    "acp updates": _acp_updates,
}


@pytest.mark.parametrize("consumer", CONSUMERS.values(), ids=CONSUMERS.keys())
def test_no_event_type_is_dropped_unnoticed(
    consumer: Callable[[], tuple[Callable[[Event], object], set[str]]],
) -> None:
    apply, unfolded = consumer()
    for event in samples():
        apply(event)
    assert unfolded == set()


@pytest.mark.parametrize("consumer", CONSUMERS.values(), ids=CONSUMERS.keys())
def test_a_type_no_consumer_knows_is_noticed(
    consumer: Callable[[], tuple[Callable[[Event], object], set[str]]],
) -> None:
    class Unknown(Event):
        type: str = "made:up"

    apply, unfolded = consumer()
    apply(samples()[0])
    apply(Unknown(seq=2, ts=0.0, agent_id="a7"))
    assert unfolded == {"made:up"}
