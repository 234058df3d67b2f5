"""A command key that does not apply to the selected agent now says why, instead of nothing
happening: p on an agent that finished, m on one that was deleted.

Textual greys such a binding out in the footer and lets its key through unhandled; a person
pressing it sees no change and cannot tell a refused key from a lost one. The reason is core's
own (`refusal`), read from the fold the screen draws, as the palette and the runtime say it.
Only a key that names one agent command, and reaches the bindings (no text box has it), is
explained: a printable key typed into a box stays a word, and nothing here runs a command."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.actions import parse
from textual.notifications import Notification
from textual.widgets import Input, TextArea

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command, refusal
from agentui.tui.app import textual_compat

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp

# The agent commands a key asks for, as core's table names them. Not esc's interrupt: esc is
# also the way back from anything, and would warn at every press on an agent that ended.
COMMAND_OF_ACTION = {
    "pause": Command.PAUSE,
    "toggle_pause": Command.PAUSE,
    "resume": Command.RESUME,
    "cancel": Command.CANCEL,
    "delete": Command.DELETE,
    "modify": Command.MODIFY,
    "steer": Command.STEER,
}
# The app's actions a binding names its command through (keymap.pane_action, key_action).
_ROUTING_ACTIONS = {"pane_key", "key"}
NOTICE_S = 4


class RefusedKeys:
    """Says why a greyed-out command key did nothing: one toast at a time, the newest."""

    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self._toast: Notification | None = None

    def key_arrived(self, key: str) -> None:
        """Before the bindings see `key`: if it will do nothing, say why."""
        self._say(why_key_does_nothing(self.app, key))

    def greyed_key_clicked(self, action: str) -> None:
        """A greyed-out key of the footer, whose binding runs `action`, was clicked: why it
        does nothing, as when it is pressed."""
        self._say(why_greyed_action(self.app, action))

    def _say(self, reason: str | None) -> None:
        if reason is None:
            return
        if self._toast is not None:  # pressed again: one toast, not a stack of the same
            textual_compat.withdraw_notification(self.app, self._toast)
        self._toast = self.app.notify(reason, severity="warning", timeout=NOTICE_S)


def why_key_does_nothing(app: AgentUIApp, key: str) -> str | None:
    """Why `key` will do nothing now, when it is a greyed-out agent command; else None."""
    if app.keeper.reading or isinstance(app.focused, (TextArea, Input)):
        return None  # the key is a word for a text box, or the letters are words after a click
    asked = [k.action for k in app.key_map.keys if key in k.key.split(",")]
    if len(asked) != 1 or asked[0] not in COMMAND_OF_ACTION:
        return None  # another binding of the same key may act
    active = app.screen.active_bindings.get(key)
    if active is None or active.enabled:
        return None
    return why_greyed_action(app, active.binding.action)


def why_greyed_action(app: AgentUIApp, action: str) -> str | None:
    """Why a greyed-out binding running `action` does nothing, when it names one agent
    command; else None. (A click on the footer asks by the key's action, not its key: the
    click withholds the letters' bindings, so a lookup by key would find none.)"""
    _, routing, parameters = parse(action)
    if routing not in _ROUTING_ACTIONS or len(parameters) != 1:
        return None
    (asked,) = parameters
    return why_not(app, asked) if asked in COMMAND_OF_ACTION else None


def why_not(app: AgentUIApp, action: str) -> str | None:
    """Why the agent command `action` does not apply to the selected agent now."""
    fold = app.main.fold
    agent = app.main.selected_agent()
    if fold is None or agent is None:
        return None
    if action == "pause" and agent.status is AgentStatus.PAUSED:
        return f"{agent.name} is already paused"
    command = COMMAND_OF_ACTION[action]
    refused = refusal(agent.name, fold.view(agent), command, app.host.mode)
    if refused is not None:
        return str(refused)  # core's reason first: a budget's stop says how to go on
    if action == "resume" and agent.status.is_live and agent.status is not AgentStatus.PAUSED:
        # core accepts it and changes nothing (the table keeps RESUME for a live agent)
        return f"{agent.name} is not paused: nothing to resume"
    return None
