"""The one fold of events into a run's state (see run_state.py), used by every front end."""

from .agent_state import AgentState
from .change import Change
from .run_state import INTERRUPTED, PASSED_OVER, MonologueLine, OpenQuery, RunState, run_status
from .transcript import TranscriptBuilder, TranscriptItem

__all__ = [
    "INTERRUPTED",
    "PASSED_OVER",
    "AgentState",
    "Change",
    "MonologueLine",
    "OpenQuery",
    "RunState",
    "TranscriptBuilder",
    "TranscriptItem",
    "run_status",
]
