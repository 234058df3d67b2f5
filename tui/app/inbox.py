"""The inbox in the app: everything that waits on the person (core/state/inbox.py's rows), as
the status bar last read them off the fold; the window that lists them (screens/inbox.py);
the nudge for a row that no question or budget stop called the person back for; and going to
a row's agent in the main screen.

The status bar reads the rows only when what can change them changed, and says so with
StatusBar.InboxChanged (the app hands it to `changed`): nothing here runs per frame.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import clipped
from agentui.tui.app.nudges import Waiting
from agentui.tui.app.widgets.agent_tree import format_elapsed

if TYPE_CHECKING:
    from agentui.core.state import RunState
    from agentui.core.state.inbox import InboxRow
    from agentui.tui.app.app import AgentUIApp

NUDGE_TEXT_CHARS = 120  # a steer's words in a nudge
IN_A_REPLAY = "A replay asks nothing of you: its questions show in the transcript."


def waiting_rows(app: AgentUIApp, state: RunState) -> list[InboxRow]:
    """The rows waiting on the person: none in a replay (nobody can answer there; its open
    questions show unanswerable), as the status bar counts them."""
    from agentui.core.state.inbox import inbox  # loaded with the fold

    return [] if app.host.read_only else inbox(state)


class Inbox:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self.rows: list[InboxRow] = []
        # Words typed in the window's boxes, by row and box: kept when it closes, for the next
        # time it opens (as long as the app runs).
        self.drafts: dict[str, str] = {}
        # Rows from before this screen started (a resumed session's) call nobody back.
        self._started = app.clock.now()

    def row_ids(self) -> set[str]:
        return {row.id for row in self.rows}

    @property
    def waiting(self) -> bool:
        """Something is in it: f4 shows in the footer (keymap.app_bindings)."""
        return bool(self.rows)

    def changed(self, rows: list[InboxRow]) -> None:
        """The status bar read other rows: call the person for the new ones, and redraw the
        window if it is open."""
        before = self.row_ids()
        self.rows = rows
        self._nudge([row for row in rows if row.id not in before])
        screen = self._open_screen()
        if screen is not None:
            screen.show_rows(rows)
        self.app.refresh_bindings()  # f4 in the footer, or not

    def _nudge(self, new: list[InboxRow]) -> None:
        """Questions, approvals and budget stops call the person as they arrive (screens/
        main.py); the other rows do here: an agent stalled, a steer an agent ended without
        reading (a steer queued to an agent the person paused is their own doing). Read from
        the rows, not the fold's Change.stalled: a steer left unread has no Change of its own,
        a row's id makes it once per silence, and a stall the inbox does not list (an agent
        no longer running) calls nobody."""
        if self.app.host.read_only:
            return  # a replay asks nobody anything
        fold = self.app.main.model
        now = self.app.clock.now()
        waiting: list[Waiting] = []
        for row in new:
            agent = fold.agents.get(row.agent_id)
            if agent is None or row.since < self._started:
                continue
            if row.kind == "stalled":
                waited = format_elapsed(row.waited_s(now))
                waiting.append(Waiting(row.id, agent.name, "stalled", waited))
            elif row.kind == "steer" and agent.status is not AgentStatus.PAUSED:
                text = clipped(" ".join(row.text.split()), NUDGE_TEXT_CHARS)
                waiting.append(Waiting(row.id, agent.name, "steer", text))
        if waiting:
            self.app.nudges.rows_arrived(waiting)

    # -- the window ----------------------------------------------------------------------

    def _open_screen(self) -> InboxScreen | None:
        from agentui.tui.app.screens.inbox import InboxScreen

        for screen in self.app.screen_stack:
            if isinstance(screen, InboxScreen):
                return screen
        return None

    def open(self) -> None:
        """The window over the main screen; its key again closes it (as help's does)."""
        from agentui.tui.app.screens.inbox import InboxScreen

        if isinstance(self.app.screen, InboxScreen):
            self.app.screen.dismiss(None)
            return
        window = InboxScreen(self.rows, self.drafts)
        self.app.open_overlay(window, lambda row: self._go_to(row, window.left_by_a_click))

    def _go_to(self, row: InboxRow | None, clicked: bool) -> None:
        """The window closed on a row's "Go to": its agent selected, and its question or
        approval with the cursor (after the keys are given back to where they were)."""
        if row is not None:
            self.app.call_after_refresh(self.go_to, row, clicked)

    def go_to(self, row: InboxRow, clicked: bool = False) -> None:
        """`clicked`: "Go to it" was clicked. A click is for reading: the keys typed next
        are words (into the prompt) or nothing, wherever the cursor lands, until esc."""
        main = self.app.main
        if row.agent_id not in main.model.agents:
            return
        main.select(row.agent_id)
        if row.id in main.model.open_queries:
            main.focus_question(row.id)
        else:
            main.tree_view.focus()
        if clicked:
            main.keys.clicked()


if TYPE_CHECKING:
    from agentui.tui.app.screens.inbox import InboxScreen
