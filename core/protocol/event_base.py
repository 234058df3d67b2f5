"""The base of every event (core/protocol/events.py holds the vocabulary).

Apart from events.py so that what holds an event of one kind (a resumed agent's budget stop)
loads without the whole vocabulary: a resumed session's first frame needs none of it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class Event(BaseModel):
    # Validators are built at first use, not at import: the app's first frame needs no event.
    model_config = ConfigDict(frozen=True, defer_build=True)

    type: str
    seq: int
    ts: float
    agent_id: str
