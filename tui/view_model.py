"""Names the widgets use for core's one fold (`agentui.core.state`).

The screen keeps no picture of the run of its own: the app folds each flushed batch into a
`RunState` and redraws what the returned `Change` names. (Kept while the tree widget moves to
the core names; the screen's own state, selection and drafts, lives in the app.)
"""

from __future__ import annotations

from agentui.core.state import AgentState as AgentView
from agentui.core.state import Change as BatchChanges
from agentui.core.state import RunState as RunViewModel
from agentui.core.state import TranscriptItem as Entry

__all__ = ["AgentView", "BatchChanges", "Entry", "RunViewModel"]
