"""A session log folded into a run's state, with the one fold (`core/state`).

The same fold serves resume, `agentui sessions` and export; the app folds the same events the
same way. Conversations come from `conversation:changed` events, or in logs of format 1-2 from
the conversation records, applied in file order (a record follows the events that caused it).
"""

from __future__ import annotations

from collections.abc import Iterable

from agentui.core.protocol import events as ev
from agentui.core.session.reader import SessionLog, collector_paused
from agentui.core.session.records import ConversationRecord
from agentui.core.state import RunState


def fold_session(log: SessionLog, *, transcripts: bool = True) -> RunState:
    """The state a session's log describes, as of its last line."""
    return fold_parts(log.events, log.conversations, transcripts=transcripts)


def fold_parts(
    events: Iterable[ev.Event],
    conversations: Iterable[ConversationRecord],
    *,
    transcripts: bool = True,
) -> RunState:
    """A log's events and records (say, with deltas merged) folded in file order."""
    state = RunState(transcripts=transcripts)
    records = iter(conversations)
    pending = next(records, None)
    with collector_paused():
        for event in events:
            while pending is not None and pending.seq < event.seq:
                _apply_record(state, pending)
                pending = next(records, None)
            state.apply(event)
        while pending is not None:
            _apply_record(state, pending)
            pending = next(records, None)
    return state


def _apply_record(state: RunState, record: ConversationRecord) -> None:
    state.apply_record(record.agent_id, record.keep, record.append, record.instructions)
