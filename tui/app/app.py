"""AgentUIApp: the themes, the toasts, and the wiring between the main screen (screens/main.py:
the panes and the flush of events), the person's commands (agent_commands.py), the overlays
(overlays.py, quit_dialog.py) and the runtime host (runtime_host.py: local, attached or a
replay).

The app drives core only through the runtime's commands and reads only events.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar, Unpack

from textual import events, on
from textual.app import App, SystemCommand
from textual.await_complete import AwaitComplete
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import Screen, ScreenResultCallbackType
from textual.widget import AwaitMount

from agentui.core.support.clock import Clock, SystemClock
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app import paste_escapes, screenshot_notes
from agentui.tui.app.agent_commands import AgentCommands
from agentui.tui.app.browser_signals import take_back_the_signals
from agentui.tui.app.copy_export import CopyAndExport
from agentui.tui.app.focus import FocusKeeper
from agentui.tui.app.heap_release import HeapRelease
from agentui.tui.app.inbox import Inbox
from agentui.tui.app.key_actions import KeyActions
from agentui.tui.app.keymap import DEFAULT_KEY_MAP, KeyMap, app_bindings
from agentui.tui.app.nudges import Nudges
from agentui.tui.app.overlays import Overlays, ResultT
from agentui.tui.app.quit_dialog import QuitDialog
from agentui.tui.app.refused_keys import RefusedKeys
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.rewind_fork import RewindAndFork
from agentui.tui.app.runtime_host import HostOptions, host_for
from agentui.tui.app.screens.main import MainScreen
from agentui.tui.app.start_failure import StartFailure
from agentui.tui.app.textual_compat import (
    arrange_without_a_grid,
    scroll_after_layout_repaints_what_moved,
    scroll_views_update_scrollbars_when_sized_anew,
)
from agentui.tui.app.theme_choice import choose_theme
from agentui.tui.app.theme_files import AGENT_VARIABLES
from agentui.tui.app.ui_state import load_ui_state, save_ui_state
from agentui.tui.app.waiting_toasts import WaitingToasts
from agentui.tui.app.widgets.footer import KeyFooter
from agentui.tui.app.widgets.status_bar import StatusBar
from agentui.tui.cli.gc_policy import CollectorPolicy

if TYPE_CHECKING:
    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.protocol.commands import RuntimePort
    from agentui.core.state import RunState

STOP_GRACE_S = 3.0  # after a SIGTERM/SIGHUP, the orderly stop's time before a plain exit

# A long answer is one widget hundreds of thousands of lines tall: its layouts must not cost
# a grid cell per 20 of its lines (textual_compat.ArrangementMap).
arrange_without_a_grid()
# A scroll view's scrollbars (the agent tree's, a text box's) are updated when it is sized anew,
# not at every layout of the screen.
scroll_views_update_scrollbars_when_sized_anew()
# A scroll right after a layout repaints what moved, not the whole screen.
scroll_after_layout_repaints_what_moved()


class AgentUIApp(App[int]):
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "agentui"
    AUTO_FOCUS = None  # focus follows the run: the tree, or a question that waits
    BINDINGS: ClassVar[list[BindingType]] = [*app_bindings()]

    def __init__(
        self,
        runtime_factory: Callable[[], RuntimePort] | None = None,
        *,
        initial_task: str | None = None,
        state: RunState | None = None,
        replay: ReplayFeed | None = None,
        clock: Clock | None = None,
        monologue: MonologueConfig | None = None,
        monologue_shown: bool = True,
        remember_theme: bool = True,
        theme: str | None = None,
        attached_to: str | None = None,
        key_map: KeyMap = DEFAULT_KEY_MAP,
        **host_options: Unpack[HostOptions],
    ) -> None:
        super().__init__()
        # config.toml's [keys]: each binding carries its key's id, and Textual's keymap gives
        # it the keys the table names (before the screen opens: the footer shows them).
        self.key_map = key_map
        self.set_keymap(key_map.textual_keymap())
        paste_escapes.install()  # a pasted escape sequence stays text (Textual reads it as keys)
        self.start_failure = StartFailure(self)
        self.host = host_for(
            self,
            runtime_factory,
            replay,
            attached_to,
            initial_task=initial_task,
            monologue=monologue,
            **host_options,
        )
        self.commands = AgentCommands(self)
        self.key_actions = KeyActions(self)
        self.overlays = Overlays(self)
        self.quit_dialog = QuitDialog(self)
        self.waiting_toasts = WaitingToasts(self)
        self.nudges = Nudges(self)  # the person called back when an agent waits
        self.copy_export = CopyAndExport(self)  # the palette's copy and export
        self.rewind_fork = RewindAndFork(self)  # `w`: back to a step, or a fork from it
        self._initial_task = initial_task
        self._state = state  # a resumed session's fold: the main screen draws it first
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.inbox = Inbox(self)  # what waits on the person: its window, its nudges
        # The narrator is on by default; MonologueConfig(enabled=False) turns it off. Without a
        # config (the settings are validated after the first frame) `monologue_shown` says.
        self.monologue_enabled = monologue.enabled if monologue is not None else monologue_shown
        self._remember_theme = remember_theme
        self.keeper = FocusKeeper()  # after a click, letters are words, never commands
        self.refused_keys = RefusedKeys(self)
        self.collector = CollectorPolicy()  # short GC pauses however many agents
        if state is not None:
            self.collector.freeze()  # a resumed run's state lives as long as the app: out of GC
        self.heap = HeapRelease()  # streaming's freed memory back to the system
        self._main: MainScreen | None = None
        self._main_mounting: AwaitMount | None = None  # what the app's events wait for (on_mount)
        # The theme is chosen before the first frame: set after mount, it restyles every widget.
        self._theme_warnings = choose_theme(self, theme, remember_theme)

    def get_default_screen(self) -> MainScreen:
        self._main = MainScreen(
            self.clock,
            state=self._state,
            monologue_enabled=self.monologue_enabled,
            read_only=self.host.read_only,
            initial_task=self._initial_task,
        )
        return self._main

    @property
    def main(self) -> MainScreen:
        """The main screen: the panes, the prompt, the fold they draw."""
        assert self._main is not None, "the app has not started"
        return self._main

    def on_mount(self) -> None:
        self.collector.install()
        self.theme_changed_signal.subscribe(self, lambda theme: self._theme_changed(theme.name))
        if not self.host.read_only:
            take_back_the_signals(self.stop_in_order)
        # The main screen composes in its own task. It is not awaited here: Textual holds every
        # repaint while the app's mount is handled, so the main screen's first frame, drawn
        # meanwhile, would never reach the terminal; the next one would bring only what changed
        # after it (no status bar, no monologue border), and the whole screen a layout later.
        # The app's input events wait for it instead (on_event): the app reads no key before the
        # main screen has mounted (its prompt focused), so every key has a place to go.
        self._main_mounting = AwaitMount(self.main, [self.main])
        # Said now; the main screen draws them as it comes up (a screen shows the toasts kept).
        self.call_later(self._say_theme_warnings)

    def _say_theme_warnings(self) -> None:
        for title, warning in self._theme_warnings:
            self.notify(warning, title=title, severity="warning", timeout=15)

    def on_unmount(self) -> None:
        self.collector.close()

    # -- toasts --------------------------------------------------------------------------

    def notify(  # type: ignore[override]
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = False,
    ) -> Notification:
        """Every toast quotes names, tasks or errors that came from models or files: shown as
        plain text with control characters visible, never as markup. Returns the toast, so
        that it can be withdrawn (Textual's own returns None)."""
        notification = Notification(
            visible_controls(message),
            visible_controls(title),
            severity,
            self.NOTIFICATION_TIMEOUT if timeout is None else timeout,
            markup=markup,
        )
        self.post_message(Notify(notification))
        return notification

    def run_command(self, what: str, command: Callable[..., None], *args: str) -> bool:
        """A runtime command; its refusal said in a toast. True when it was taken."""
        try:
            command(*args)
        except AgentUIError as exc:
            self.notify(f"{what}: {exc}", severity="warning")
            return False
        return True

    def deliver_screenshot(
        self, filename: str | None = None, path: str | None = None, time_format: str | None = None
    ) -> str | None:
        """The palette's Screenshot: an SVG in the directory agentui was started in, which
        exists, rather than ~/Downloads, which may not (a browser downloads it instead).
        Textual's palette calls this, not action_screenshot."""
        return super().deliver_screenshot(filename, path or str(Path.cwd()), time_format)

    @on(events.DeliveryComplete)
    def _screenshot_saved(self, event: events.DeliveryComplete) -> None:
        screenshot_notes.say_saved(self, event)

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        screenshot_notes.say_failed(self, event)

    def action_help_quit(self) -> None:
        """ctrl+c: say how to quit (Textual's own hint is markup, which our toasts show as
        typed). ctrl+q quits from anywhere, a text box included."""
        self.notify("Press ctrl+q to quit the app", title="Do you want to quit?")

    # -- themes --------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **AGENT_VARIABLES}

    def _theme_changed(self, name: str) -> None:
        if self._remember_theme:
            save_ui_state({**load_ui_state(), "theme": name})
        self.main.tree_view.relabel(self.main.model.agents.values())

    # -- start and stop ------------------------------------------------------------------

    def stop_in_order(self) -> None:
        """Quit as the Quit dialog does (the runtime cancels its agents and the session records
        their ends), from outside the app: a SIGTERM, a closed terminal. A message, so the
        stop runs inside the app, whoever asked."""
        self.call_later(self.stop_runtime_and_exit)
        # A terminal that has gone can leave the orderly way stuck: exit anyway, soon.
        asyncio.get_running_loop().call_later(STOP_GRACE_S, self.exit)

    async def stop_runtime_and_exit(self) -> None:
        await self.host.stop()
        self.exit(0)

    # -- keys ----------------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        # What goes to a widget (a key, a click, a paste) waits for the main screen's mount
        # (see on_mount). The rest does not: a callback or a resize that waited held up the
        # messages queued behind it, among them the terminal's answer to Textual's
        # synchronized-output query, and the first frame went out unsynchronized (a 1,000-agent
        # resume's 29 KB, torn on the way; ~20-30 ms later whole in the pty bench).
        if self._main_mounting is not None and isinstance(event, events.InputEvent | events.Paste):
            mounting, self._main_mounting = self._main_mounting, None
            await mounting
        # A click is noted before it moves the focus and before the keys typed after it.
        # Where a key goes is decided here too, before the focused widget has it: keys of a
        # burst (a fast typist, a paste without bracketed paste) are handed over one by one.
        if isinstance(event, events.MouseDown):
            self.main.keys.mouse_down(event)
        if isinstance(event, events.Key):
            self.start_failure.key_arrived()  # it closes once no key has come for a moment
            if not self.main.keys.route_key(event):
                return
            self.refused_keys.key_arrived(event.key)
        await super().on_event(event)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # The same click as it bubbles up from the widget it landed on (a test's pilot hands
        # clicks to the screen directly, past on_event).
        self.main.keys.clicked()

    def on_click(self, event: events.Click) -> None:
        # The click may have selected a block (the transcript's on_click, before this): f8
        # Copy shows in the footer while one is selected (check_action).
        self.refresh_bindings()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if parameters == ("inbox_waiting",):  # f4 in the footer only while something waits
            return self.inbox.waiting
        if parameters == ("copy_selected",):  # f8 in the footer only while a block is selected
            return self.main.transcript_view.selected_block() is not None
        return self.commands.availability(action, parameters)

    @on(KeyFooter.GreyedKeyClicked)
    def _greyed_key_clicked(self, message: KeyFooter.GreyedKeyClicked) -> None:
        self.refused_keys.greyed_key_clicked(message.action)

    @on(StatusBar.InboxChanged)
    def _inbox_changed(self, message: StatusBar.InboxChanged) -> None:
        self.inbox.changed(message.rows)

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        return self.commands.palette(super().get_system_commands(screen))

    async def action_pane_key(self, action: str) -> None:
        """A key on a pane (see keymap.bindings): the action it names."""
        await self.key_actions.run(action)

    async def action_key(self, action: str) -> None:
        """A key that works anywhere, or the tree's enter (see keymap.app_bindings)."""
        await self.key_actions.run(action)

    # -- overlays ------------------------------------------------------------------------

    def action_command_palette(self) -> None:
        if self.overlays.room_for(CommandPalette):
            super().action_command_palette()

    def action_change_theme(self) -> None:
        if self.overlays.room_for(CommandPalette):
            super().action_change_theme()

    def open_overlay(
        self, screen: Screen[ResultT], callback: ScreenResultCallbackType[ResultT] | None = None
    ) -> bool:
        """Open `screen` over the main screen, one overlay at a time (see Overlays)."""
        return self.overlays.open(screen, callback)

    def pop_screen(self) -> AwaitComplete:
        popped = super().pop_screen()
        self.overlays.popped()
        return popped

    async def action_quit(self) -> None:
        await self.quit_dialog.quit()
