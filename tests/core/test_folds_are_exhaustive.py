"""Every event type is either folded or passed over on purpose, by both folds: a new event type
that one of them forgets fails here instead of being dropped in silence."""

from __future__ import annotations

import pytest

from agentui.core.events import AgentSpawned, Event
from agentui.core.session.fold import SessionFold
from agentui.core.session.transcript import TranscriptBuilder

from .test_bus import SAMPLE_FIELDS, _event_classes


def samples() -> list[Event]:
    made = [AgentSpawned(seq=0, ts=0.0, agent_id="a7", parent_id=None, name="main", task="t")]
    for seq, cls in enumerate(_event_classes(), start=1):
        fields = SAMPLE_FIELDS[cls.model_fields["type"].default]
        made.append(cls(seq=seq, ts=float(seq), agent_id="a7", **fields))
    return made


@pytest.mark.parametrize("fold", ["session", "transcript"])
def test_no_event_type_is_dropped_unnoticed(fold: str) -> None:
    if fold == "session":
        session = SessionFold()
        session.apply_all(samples())
        assert session.unfolded == set()
    else:
        transcript = TranscriptBuilder("a7")
        for event in samples():
            transcript.apply(event)
        assert transcript.unfolded == set()


def test_a_type_no_fold_knows_is_noticed() -> None:
    class Unknown(Event):
        type: str = "made:up"

    transcript = TranscriptBuilder("a7")
    transcript.apply(Unknown(seq=1, ts=0.0, agent_id="a7"))
    session = SessionFold()
    session.apply_all([samples()[0], Unknown(seq=2, ts=0.0, agent_id="a7")])
    assert transcript.unfolded == {"made:up"} and session.unfolded == {"made:up"}
