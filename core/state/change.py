"""What one batch of events changed, so a view redraws only that."""

from __future__ import annotations

from dataclasses import dataclass, field

from agentui.core.protocol.narrative import NarrativeEntry
from agentui.core.state.transcript import TranscriptItem


@dataclass(slots=True)
class Change:
    added: list[str] = field(default_factory=list)  # new agents, in spawn order
    relabel: set[str] = field(default_factory=set)  # agents whose tree label changed
    new_entries: list[TranscriptItem] = field(default_factory=list)
    changed_entries: set[int] = field(default_factory=set)  # uids of entries that changed
    narratives: list[tuple[str, NarrativeEntry]] = field(default_factory=list)
    new_queries: list[str] = field(default_factory=list)
    closed_queries: list[str] = field(default_factory=list)
    budget_stops: list[str] = field(default_factory=list)  # agents whose budget stopped them
    stalled: list[str] = field(default_factory=list)  # agents found silent (agent:stalled)
    conversations: set[str] = field(default_factory=set)  # agents whose conversation changed
    scenes: set[str] = field(default_factory=set)  # directed scenes (their roots) that changed

    def merge(self, later: Change) -> Change:
        """This change followed by `later`, as one."""
        self.added += later.added
        self.relabel |= later.relabel
        self.new_entries += later.new_entries
        self.changed_entries |= later.changed_entries
        self.narratives += later.narratives
        self.new_queries += later.new_queries
        self.closed_queries += later.closed_queries
        self.budget_stops += later.budget_stops
        self.stalled += later.stalled
        self.conversations |= later.conversations
        self.scenes |= later.scenes
        return self
