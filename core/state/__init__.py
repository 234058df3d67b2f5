"""The one fold of events into a run's state (see run_state.py), used by every front end."""

from agentui.core.state.agent_state import AgentState
from agentui.core.state.change import Change
from agentui.core.state.run_state import (
    INTERRUPTED,
    PASSED_OVER,
    MonologueLine,
    OpenQuery,
    RunState,
    run_status,
)
from agentui.core.state.transcript import TranscriptBuilder, TranscriptItem

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
