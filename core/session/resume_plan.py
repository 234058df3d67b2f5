"""A resumed session's plan: the state its log folds to, the events that close what it left
open, and how a runtime takes up each agent (resume.py makes it from the log; a checkpoint,
checkpoint.py, keeps it).

Apart from resume.py so that a plan loaded from a checkpoint brings only what its first frame
needs: what folding the log takes (the reader, the closing rules, the workflow's trail) and
what a runtime takes up (its notes, its summary, its writer) load when used.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from agentui.core.agent.ids import IdSource

if TYPE_CHECKING:
    from agentui.core.agent.budget_account import BudgetStop
    from agentui.core.agent.reopening import Reopening
    from agentui.core.agent.steps import StepLog
    from agentui.core.protocol import events as ev
    from agentui.core.runtime import Runtime
    from agentui.core.session.kept_conversations import KeptConversations
    from agentui.core.session.session_log import SessionLog
    from agentui.core.session.session_targets import ContinuedSession
    from agentui.core.state import RunState


@dataclass(slots=True)
class ResumePlan:
    log: SessionLog
    state: RunState  # after the closing events
    closing: Sequence[ev.Event]  # what a cancel would have emitted for the interrupted agents
    interrupted: list[str]  # ids of the agents that were live when the session ended
    # Every saved event, each block's deltas in one piece, then the closing ones: what the app
    # shows before new work.
    history: list[ev.Event]
    # Each agent's steps, so a resumed agent can be rewound or forked (~0.3 s per 100k
    # events: folded with the rest of the plan, not when the runtime adopts it on the loop;
    # from a checkpoint, read when the runtime adopts the plan, after the first frame).
    steps: Mapping[str, StepLog]
    # The agents given back live, waiting on the person (their question or approval, a budget's
    # stop, a stall), and how each goes on; and the budget stops that hold them.
    reopenings: dict[str, Reopening] = field(default_factory=dict)
    stops: dict[str, tuple[BudgetStop, list[str]]] = field(default_factory=dict)
    # From a checkpoint: the agents' conversations, read when the runtime adopts the plan.
    conversations: KeptConversations | None = None

    @property
    def last_seq(self) -> int:
        """Where the resumed runtime's numbering continues."""
        return self.closing[-1].seq if self.closing else self.log.last_seq

    def id_source(self) -> IdSource:
        """Ids for the resumed runtime that never repeat one of the session's."""
        ids = IdSource()
        for identifier in self.state.ids:
            ids.observe(identifier)
        return ids

    def adopt_into(self, runtime: Runtime) -> None:
        """Put every agent of the session into `runtime` (parents first), without running it.

        The runtime gets its own copy of each agent: the plan's state stays the view's.
        """
        from agentui.core.agent.pending_interventions import Note
        from agentui.core.session.reader import collector_paused

        if self.conversations is not None:  # each agent's own, before the runtime copies it
            self.conversations.restore()
        with collector_paused():  # a thousand agents: no collection walks them meanwhile
            for agent in self.state.agents.values():
                notes = [
                    Note.of(n.note_id, n.text, from_person=n.from_person)
                    for n in agent.queued_notes
                ]
                runtime.adopt(
                    agent,
                    notes=notes,
                    modification=agent.pending_modification,
                    reopening=self.reopenings.get(agent.id),
                )
            for agent_id, steps in self.steps.items():
                runtime.recall_steps(agent_id, steps)
            for owner_id, (stop, paused) in self.stops.items():
                runtime.hold_budget_stop(owner_id, stop, paused)

    def continued_session(self) -> ContinuedSession:
        """Where and how a writer appends the resumed run to the same file."""
        from agentui.core.session.session_targets import ContinuedSession
        from agentui.core.session.summary import SummaryTracker

        damaged = bool(self.log.damaged_lines)
        return ContinuedSession(
            path=self.log.path,
            append_at=self.log.valid_bytes,
            preamble=tuple(self.closing),
            format=self.log.header.format,
            # A summary cannot say what damaged lines lost: the listing reads such a file.
            header=None if damaged else self.log.header,
            summary=None if damaged else SummaryTracker.of(self.state),
        )
