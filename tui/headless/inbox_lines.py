"""`agentui run`'s inbox: each row that enters it (core/state/inbox.py) said once on stderr.

    inbox: question · PATH · Which city?
    inbox: stalled · PATH · no word from it since 5 min ago

(PATH: the agent's names from its root, joined by inbox.PATH_SEPARATOR.) One line per row
as it enters, before the lines the printer writes for the same event (the question with its
"> " prompt comes after). A row that stays (more agents waiting on it, a sibling asking the
same words) is not said again; a question row whose first asker was answered keeps its other
askers' queries, which were said. A stall, a budget's stop or a steer that ends and comes
back later is a new row, said again. Every piece of text passes through `visible_controls`,
on one line.

A run that goes on from a saved session (`run --resume ID --rewind A@N`) starts with rows
standing, given back by the resume: `standing` says them once, first.
"""

from __future__ import annotations

from collections.abc import Container

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.events import Event, NoteQueued
from agentui.core.state import RunState
from agentui.core.state.inbox import InboxRow, inbox
from agentui.core.support.terminal_text import clipped, visible_controls

# The events a row can enter with: anything else only changes the rows that stand.
ENTERS_WITH = frozenset(
    {"query:raised", "budget:stop", "agent:stalled", "note:queued", "agent:status"}
)
LINE_TEXT_CHARS = 200  # the question's whole text follows on its own lines


class InboxLines:
    def __init__(self, state: RunState) -> None:
        self._state = state
        # What was said: query ids, and the other rows by id and start (a stall, a stop or a
        # steer that comes back starts again later). Neither ever comes back, so nothing
        # needs to see a row leave.
        self._said: set[str | tuple[str, float]] = set()

    def entered(self, event: Event) -> list[str]:
        """After the fold took `event`: the lines of the rows it made enter, to go before
        the printer's for the event."""
        if not self._may_enter(event):
            return []
        lines = []
        for row in inbox(self._state):
            keys = self._keys(row)
            if self._said.isdisjoint(keys):
                lines.append(line(row, event.ts))
            self._said |= keys
        return lines

    def standing(
        self, now: float, *, leaving: Container[str] = (), settled: Container[str] = ()
    ) -> list[str]:
        """The lines of the rows that stand already (a resumed session's, given back), said
        at the start of the run: each is said once, here or never. A row about to go is not
        said: one only of agents in `leaving` (a rewind stops them), or only of queries in
        `settled` (the approval policy allows them without asking)."""
        lines = []
        for row in inbox(self._state):
            keys = self._keys(row)
            asking = row.agent_ids or (row.agent_id,)
            going = all(a in leaving for a in asking) or (
                bool(row.query_ids) and all(q in settled for q in row.query_ids)
            )
            if self._said.isdisjoint(keys) and not going:
                lines.append(line(row, now))
            self._said |= keys
        return lines

    def _keys(self, row: InboxRow) -> set[str | tuple[str, float]]:
        return set(row.query_ids) if row.query_ids else {(row.id, row.since)}

    def _may_enter(self, event: Event) -> bool:
        """Whether a row can have entered with `event`: the inbox (a walk of each row's
        subtree) is listed when one may have, not for every agent's every status or note. A
        steer waits only on an agent that is not running: queued to one, or one that stops
        running with it."""
        if event.type not in ENTERS_WITH:
            return False
        if event.type not in ("agent:status", "note:queued"):
            return True
        agent = self._state.agents.get(event.agent_id)
        if agent is None or agent.status is AgentStatus.RUNNING:
            return False
        if isinstance(event, NoteQueued):
            return event.from_person
        return any(note.from_person for note in agent.queued_notes)


def line(row: InboxRow, now: float) -> str:
    """`inbox: KIND · PATH · TEXT` with its newlines, every piece visible and on one line.
    `now`: the time of the event it entered with (a stall's: when it was said)."""
    text = row.text
    if row.kind == "stalled":
        text = f"{text} {ago(row.waited_s(now))}"
    pieces = (row.kind, one_line(row.path), clipped(one_line(text), LINE_TEXT_CHARS))
    return "\ninbox: " + " · ".join(pieces) + "\n"


def one_line(text: str) -> str:
    return " ".join(visible_controls(text).split())


def ago(seconds: float) -> str:
    """`42 s ago`, `5 min ago`, `2 h 5 min ago`."""
    whole = int(seconds)
    if whole < 60:
        return f"{whole} s ago"
    if whole < 3600:
        return f"{whole // 60} min ago"
    return f"{whole // 3600} h {whole % 3600 // 60} min ago"
