"""NarrativeEntry: one first-person summary of an agent's recent events, as the bus carries it.

It lives at the events' level (not in monologue/) because events.py carries it: the event
vocabulary imports nothing from the services above it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict


class NarrativeMetadata(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(frozen=True, defer_build=True)

    event_count: int  # agent events this narrative summarises
    history_length: int  # earlier narratives re-injected into the narrator's prompt
    is_final: bool  # written when the agent finished (the narrator could not wait)
    model: str
    latency_ms: float


class NarrativeEntry(BaseModel):
    model_config = ConfigDict(frozen=True, defer_build=True)

    timestamp: float
    agent_name: str
    task_id: str  # the agent's id
    text: str
    metadata: NarrativeMetadata
