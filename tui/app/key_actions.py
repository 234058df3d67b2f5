"""Where the action a key, a click on the footer or the palette names is run: the agent
commands, the main screen's views, the overlays, or Textual's own app actions.

The app's bindings name their action through one app action (`key`, or `pane_key` for a
pane's letter, which the app refuses while letters are words): check_action sees the action
named, so the footer, the palette and the keys agree on what is offered.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agentui.tui.app.agent_commands import AgentCommands

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


class KeyActions:
    """Runs a named action where it lives, once the app's check_action allows it."""

    def __init__(self, app: AgentUIApp) -> None:
        self.app = app

    async def run(self, action: str) -> None:
        """Refused as Textual refuses a binding's action when check_action does not allow it."""
        app = self.app
        if not app.check_action(action, ()):
            return
        if action in AgentCommands.ACTIONS:
            app.commands.run(action)
            return
        handler = self._handlers().get(action)
        if handler is not None:
            handler()
        else:
            await app.run_action(action)  # Textual's own: quit, change_theme, the palette

    def _handlers(self) -> dict[str, Callable[[], object]]:
        app, main = self.app, self.app.main
        return {
            "new_task": main.action_new_task,
            "toggle_all": main.action_toggle_all,
            "toggle_monologue_filter": main.action_toggle_monologue_filter,
            "toggle_folds": main.transcript_view.action_toggle_folds,
            "toggle_steps": main.action_toggle_steps,
            "time_travel": app.rewind_fork.open,
            "search": main.search.open,
            "help": app.overlays.help,
            "scene_state": app.overlays.scene_state,
            "inbox": app.inbox.open,
            "copy_block": app.copy_export.copy_block,
            "copy_selected": app.copy_export.copy_block,  # f8 as the footer shows it (selected)
            "inbox_waiting": app.inbox.open,  # f4 as the footer shows it (something waits)
            "keys_on": self.keys_on,
            "nobody_waiting": self.nobody_waiting,
            # f2 with no scene in the run (the Scene binding is off then): why nothing opens.
            "no_scene": lambda: app.notify(
                "No directed scene in this run (agentui --scene NAME plays one)."
            ),
        }

    def keys_on(self) -> None:
        """esc after a click (the footer's Keys on): the letters act again. The key itself is
        handled as it arrives (see KeyRouting.route_key); this is for the palette and a footer
        click."""
        if self.app.keeper.chose():
            self.app.main.keys.show_whether_keys_act()

    def nobody_waiting(self) -> None:
        self.app.notify("Nobody is waiting for you.", timeout=3)
