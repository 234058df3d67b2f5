"""One agent as the fold knows it: the tree's node, plus what only a viewer needs."""

from __future__ import annotations

from typing import NamedTuple

from pydantic import ConfigDict, Field

from agentui.core.agent.pending_interventions import Modification
from agentui.core.agent.tree import AgentNode
from agentui.core.protocol.budget_events import BudgetReached
from agentui.core.state.transcript import TranscriptBuilder, TranscriptItem


class QueuedNote(NamedTuple):
    note_id: str
    text: str  # as the person typed it
    from_person: bool
    ts: float = 0.0  # when it was queued


class AgentState(AgentNode):
    """An `AgentNode` rebuilt from events (a resumed runtime adopts it as one), with the parts a
    screen shows that the runtime's own node has no use for. Those parts are left out of
    `snapshot()`, so a folded agent and the runtime's agent compare equal."""

    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(arbitrary_types_allowed=True, defer_build=True)

    # When it first ran: a continued agent's elapsed time counts from its first run.
    first_started_at: float | None = Field(default=None, exclude=True)
    open_queries: list[str] = Field(default_factory=list, exclude=True)  # ids, in order raised
    # What the person asked that its model has not read yet: a continued run delivers it.
    queued_notes: list[QueuedNote] = Field(default_factory=list, exclude=True)
    pending_modification: Modification | None = Field(default=None, exclude=True)
    # Why its status last changed (agent:status's reason): who ended it, for one that ended.
    status_reason: str = Field(default="", exclude=True)
    # Its budget's stop while its subtree is paused by it (cleared when raised or let go on).
    budget_stop: BudgetReached | None = Field(default=None, exclude=True)
    # What its subtree spent (its own and its descendants'), against its budget; and its own
    # model and tool calls.
    subtree_tokens: int = Field(default=0, exclude=True)
    subtree_usd: float = Field(default=0.0, exclude=True)
    model_calls: int = Field(default=0, exclude=True)
    tool_calls: int = Field(default=0, exclude=True)
    # The latest progress a running tool reported ("search: 2/3 step two") and that call's id,
    # until that call ends: what its tree row says.
    tool_progress: str = Field(default="", exclude=True)
    tool_progress_call: str = Field(default="", exclude=True)
    # When it last said anything (its latest event), and since when it has been stalled (an
    # agent:stalled event, cleared by its next event).
    last_event_ts: float = Field(default=0.0, exclude=True)
    stalled_since: float | None = Field(default=None, exclude=True)
    # None when the fold keeps no transcripts (resume and listings need none).
    transcript: TranscriptBuilder | None = Field(default=None, exclude=True)

    @property
    def entries(self) -> list[TranscriptItem]:
        return self.transcript.items if self.transcript is not None else []

    @property
    def tokens(self) -> int:
        return self.usage.total_tokens

    @property
    def started_ts(self) -> float | None:
        return self.first_started_at

    @property
    def ended_ts(self) -> float | None:
        return self.ended_at
