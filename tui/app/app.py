"""AgentUIApp: the themes, the toasts, the overlays and quitting; the wiring between the main
screen (screens/main.py: the panes and the flush of events), the person's commands
(agent_commands.py) and the runtime host (runtime_host.py: local, attached or a replay).

The app drives core only through Runtime commands and reads only events (plus `agent(id)` for
the modify dialog). Overlays open one at a time, and closing one gives the focus back to where
it was, or to the question that waits.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

from textual import events, on
from textual.app import App, SystemCommand
from textual.binding import BindingType
from textual.command import CommandPalette
from textual.errors import NoWidget
from textual.message import Message
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widget import AwaitMount

from agentui.core.support.clock import Clock, SystemClock
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app import paste_escapes
from agentui.tui.app.agent_commands import AgentCommands
from agentui.tui.app.focus import FocusKeeper
from agentui.tui.app.heap_release import HeapRelease
from agentui.tui.app.keymap import app_bindings
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.runtime_host import AttachedHost, LocalHost, ReplayHost, RuntimeHost
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.main import MainScreen
from agentui.tui.app.screens.modify import ModifyScreen
from agentui.tui.app.screens.scene_state import SceneStateScreen, scene_for
from agentui.tui.app.theme_files import AGENT_VARIABLES, DEFAULT_THEME, load_themes
from agentui.tui.app.ui_state import load_ui_state, save_ui_state
from agentui.tui.app.widgets.footer import FooterKey
from agentui.tui.cli.gc_policy import CollectorPolicy

if TYPE_CHECKING:
    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.runtime import Runtime
    from agentui.core.state import RunState
    from agentui.tui.app.provider_switch import ProviderSwitch
    from agentui.tui.app.runtime_start import Prepared

# A runtime that cannot start: the screen shows why at least this long, and closes once no key
# has come for the next (see cannot_start).
ERROR_SHOWN_S = 1.0
CLOSE_AFTER_QUIET_S = 0.4
CLOSE_CHECK_S = 0.05
STOP_GRACE_S = 3.0  # after a SIGTERM/SIGHUP, the orderly stop's time before a plain exit
# Overlays that only show something: opening another overlay closes them first. The others
# (delete and quit confirmations, modify) hold a decision or typed text and are never stacked.
LIGHT_OVERLAYS = (CommandPalette, HelpScreen, SceneStateScreen)
# Actions of the keys and the palette that the main screen runs (its views and its prompt).
SCREEN_ACTIONS = frozenset({"toggle_all", "toggle_monologue_filter", "new_task"})


class AgentUIApp(App[int]):
    CSS_PATH = Path(__file__).with_name("app.tcss")  # absolute: subclasses live elsewhere
    TITLE = "agentui"
    AUTO_FOCUS = None  # focus follows the run: the tree, or a question that waits
    BINDINGS: ClassVar[list[BindingType]] = app_bindings()

    def __init__(
        self,
        runtime_factory: Callable[[], Runtime] | None = None,
        *,
        prepare_runtime: Callable[[], Prepared] | None = None,
        check_settings: Callable[[], object] | None = None,
        initial_task: str | None = None,
        initial_profile: str | None = None,
        state: RunState | None = None,
        replay: ReplayFeed | None = None,
        clock: Clock | None = None,
        notice: str = "",
        provider_notice: str = "",
        monologue: MonologueConfig | None = None,
        monologue_shown: bool = True,
        remember_theme: bool = True,
        theme: str | None = None,
        provider_label: tuple[str, str] = ("", ""),
        provider_switch: ProviderSwitch | None = None,
        start_with: Callable[[Runtime], str] | None = None,
        attached_to: str | None = None,
    ) -> None:
        super().__init__()
        paste_escapes.install()  # a pasted escape sequence stays text (Textual reads it as keys)
        self.start_error: str | None = None  # why the runtime could not start, for the shell
        self.host = self._host_for(
            runtime_factory,
            replay,
            attached_to,
            prepare_runtime=prepare_runtime,
            check_settings=check_settings,
            initial_task=initial_task,
            initial_profile=initial_profile,
            start_with=start_with,
            monologue=monologue,
            provider_label=provider_label,
            provider_switch=provider_switch,
            provider_notice=provider_notice,
            notice=notice,
        )
        self.commands = AgentCommands(self)
        self._initial_task = initial_task
        self._state = state  # a resumed session's fold: the main screen draws it first
        self.clock: Clock = clock if clock is not None else SystemClock()
        # The narrator is on by default; MonologueConfig(enabled=False) turns it off. Without a
        # config (the settings are validated after the first frame) `monologue_shown` says.
        self.monologue_enabled = monologue.enabled if monologue is not None else monologue_shown
        self._remember_theme = remember_theme
        self._theme_choice = theme  # from config or a flag; else the remembered one
        self._last_key_at = 0.0  # time.monotonic() of the last key
        self.keeper = FocusKeeper()  # after a click, letters are words, never commands
        self.collector = CollectorPolicy()  # short GC pauses however many agents
        if state is not None:
            self.collector.freeze()  # a resumed run's state lives as long as the app: out of GC
        self.heap = HeapRelease()  # streaming's freed memory back to the system
        self._main: MainScreen | None = None
        self._quit_dialog: ConfirmScreen | None = None
        # "Waiting for you" toasts and the queries each names: once those are all settled
        # (here, on another screen, or their agent ended), that toast is out of date and goes.
        self._waiting_toasts: list[tuple[Notification, frozenset[str]]] = []
        # The theme is chosen before the first frame: set after mount, it restyles every widget.
        self._theme_warnings = self._load_themes()

    def _host_for(
        self,
        runtime_factory: Callable[[], Runtime] | None,
        replay: ReplayFeed | None,
        attached_to: str | None,
        **options: object,
    ) -> RuntimeHost:
        if replay is not None:  # read-only: no runtime, the recorded events play
            return ReplayHost(self, replay)
        if runtime_factory is None:
            raise ValueError("the app needs a runtime factory, or a replay to play")
        if attached_to is not None:  # `agentui attach`: the runtime runs behind this address
            return AttachedHost(self, attached_to, runtime_factory=runtime_factory, **options)
        return LocalHost(self, runtime_factory, **options)  # type: ignore[arg-type]

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

    async def on_mount(self) -> None:
        self.collector.install()
        for title, warning in self._theme_warnings:
            self.notify(warning, title=title, severity="warning", timeout=15)
        self.theme_changed_signal.subscribe(self, lambda theme: self._theme_changed(theme.name))
        if not self.host.read_only:
            self._take_back_the_signals()
        # The main screen composes in its own task: the app reads no key before it has mounted
        # (its prompt focused), as it did when the app composed the panes itself.
        await AwaitMount(self.main, [self.main])

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

    def toast_waiting(self, message: str, title: str, query_ids: Iterable[str]) -> None:
        notification = self.notify(message, title=title)
        self._waiting_toasts.append((notification, frozenset(query_ids)))

    def withdraw_settled_toasts(self) -> None:
        """Only the toasts about queries nobody can answer any more; other toasts stay."""
        if not self._waiting_toasts:
            return
        still_open = self.main.model.open_queries
        kept: list[tuple[Notification, frozenset[str]]] = []
        for notification, query_ids in self._waiting_toasts:
            if notification.has_expired:
                continue
            if query_ids.isdisjoint(still_open):
                self._unnotify(notification)
            else:
                kept.append((notification, query_ids))
        self._waiting_toasts = kept

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
        if event.name == "screenshot":
            event.prevent_default()  # Textual's own toast is markup, shown here as typed
            where = f" to {event.path}" if event.path is not None else ""
            self.notify(f"Saved the screenshot{where}.", title="Screenshot")

    @on(events.DeliveryFailed)
    def _screenshot_failed(self, event: events.DeliveryFailed) -> None:
        if event.name == "screenshot":
            event.prevent_default()  # Textual's own says no more than that it failed
            self.notify(
                f"The screenshot was not saved: {event.exception}",
                title="Screenshot",
                severity="error",
                timeout=10,
            )

    def action_help_quit(self) -> None:
        """ctrl+c: say how to quit (Textual's own hint is markup, which our toasts show as
        typed). ctrl+q quits from anywhere, a text box included."""
        self.notify("Press ctrl+q to quit the app", title="Do you want to quit?")

    # -- themes --------------------------------------------------------------------------

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **AGENT_VARIABLES}

    def _load_themes(self) -> list[tuple[str, str]]:
        """Register the theme files and pick the theme; returns the warnings to show."""
        warnings: list[tuple[str, str]] = []
        themes, skipped = load_themes()
        for theme in themes:
            self.register_theme(theme)
        warnings += [("Theme file skipped", warning) for warning in skipped]
        remembered = load_ui_state().get("theme") if self._remember_theme else None
        wanted = self._theme_choice or remembered or DEFAULT_THEME
        if wanted not in self.available_themes:
            # The person's last pick, if it still exists, beats the default.
            fallback = remembered if remembered in self.available_themes else DEFAULT_THEME
            warnings.append(("", f"Unknown theme {wanted!r}; using {fallback}."))
            wanted = fallback
        self.theme = wanted
        return warnings

    def _theme_changed(self, name: str) -> None:
        if self._remember_theme:
            save_ui_state({**load_ui_state(), "theme": name})
        self.main.tree_view.relabel(self.main.model.agents.values())

    # -- start and stop ------------------------------------------------------------------

    def _take_back_the_signals(self) -> None:
        """In a browser tab (agentui web) Textual's web driver has just replaced the handlers
        of SIGINT and SIGTERM with its own, which asks the app to exit however often it is
        sent: ours again, so the first stops in order and kills every sandbox, and a second
        ends the process even when the app is stuck."""
        from agentui.tui.app.terminal_watch import served_to_a_browser

        if served_to_a_browser():
            from agentui.core.support.termination import (
                TERMINATION_SIGNALS,
                end_on_termination_signals,
            )

            signals = (signal.SIGINT, *TERMINATION_SIGNALS)
            end_on_termination_signals(self.stop_in_order, exit_on_hangup=True, signals=signals)

    def cannot_start(self, why: str) -> None:
        """The runtime cannot start (a bad setting or script): said now, and on the shell
        with the words typed meanwhile (`unsent_words`; nothing ran them). The screen closes
        once its error has shown for a moment and no key has come for another, so that every
        word typed meanwhile is in the prompt: Textual drops the keys it has read but not
        handled when it shuts down. Real time: it is the person who is waited for."""
        self.start_error = why
        self.notify(
            f"{why}\nClosing once you stop typing; your words are printed with this.",
            title="agentui cannot start",
            severity="error",
            timeout=3600,  # until it closes: typing may go on longer than a toast
        )
        shown_at = time.monotonic()

        def close_when_quiet() -> None:
            now = time.monotonic()
            if now - shown_at >= ERROR_SHOWN_S and now - self._last_key_at >= CLOSE_AFTER_QUIET_S:
                self.exit(return_code=2)

        self.set_interval(CLOSE_CHECK_S, close_when_quiet)

    def unsent_words(self) -> list[str]:
        """What was typed for the runtime that never started: tasks sent before it, then the
        prompt's words (not stripped: keys typed after the app ended may continue them)."""
        return [*self.host.unsent_words(), self.main.prompt_view.value]  # a paste whole

    def settings_problem(self) -> str | None:
        """After the app ended before its runtime started (a quick quit): what is wrong with the
        settings nobody had checked yet."""
        return self.host.settings_problem()

    class StopRequested(Message):
        """Quit in order, asked from outside the app's own handlers (a signal)."""

    def stop_in_order(self) -> None:
        """Quit as the Quit dialog does (the runtime cancels its agents and the session records
        their ends), from outside the app: a SIGTERM, a closed terminal. A message, so the
        stop runs inside the app, whoever asked."""
        self.post_message(self.StopRequested())
        # A terminal that has gone can leave the orderly way stuck: exit anyway, soon.
        asyncio.get_running_loop().call_later(STOP_GRACE_S, self.exit)

    async def on_agent_uiapp_stop_requested(self, message: StopRequested) -> None:
        await self._stop_runtime_and_exit()

    async def _stop_runtime_and_exit(self) -> None:
        await self.host.stop()
        self.exit(0)

    # -- keys ----------------------------------------------------------------------------

    async def on_event(self, event: events.Event) -> None:
        # A click is noted before it moves the focus and before the keys typed after it; not
        # yet for a key of the footer: its click sends its key (Textual's FooterKey), which
        # must act as a command, and bubbles up to on_mouse_down after that key. Where a key
        # goes is decided here too, before the focused widget has it: keys of a burst (a fast
        # typist, a paste without bracketed paste) are handed over one by one.
        if (
            isinstance(event, events.MouseDown)
            and not event.is_forwarded
            and not self._on_a_footer_key(event)
        ):
            self.main.clicked()
        if isinstance(event, events.Key):
            self._last_key_at = time.monotonic()  # see cannot_start
            if not self.main.route_key(event):
                return
        await super().on_event(event)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # The same click as it bubbles up from the widget it landed on (a test's pilot hands
        # clicks to the screen directly, past on_event).
        self.main.clicked()

    def _on_a_footer_key(self, event: events.MouseDown) -> bool:
        try:
            widget, _ = self.get_widget_at(event.x, event.y)
        except NoWidget:
            return False
        return isinstance(widget, FooterKey) or isinstance(widget.parent, FooterKey)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        return self.commands.availability(action, parameters)

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        return self.commands.palette(super().get_system_commands(screen))

    async def run_key_action(self, action: str) -> None:
        """An action a pane's key or the palette names, run by what owns it: the agent
        commands, the main screen, or the app. Refused as Textual refuses a binding's when
        check_action does not allow it."""
        if not self.check_action(action, ()):
            return
        if action in AgentCommands.ACTIONS:
            self.commands.run(action)
        elif action in SCREEN_ACTIONS:
            await self.run_action(action, self.main)
        else:
            await self.run_action(action)

    async def action_pane_key(self, action: str) -> None:
        """A key on a pane (see keymap.bindings): the action it names."""
        await self.run_key_action(action)

    def action_answer_selected(self) -> None:
        self.commands.answer_selected()  # enter on the tree (AgentTree's binding)

    def action_next_question(self) -> None:
        self.commands.next_question()

    def action_new_task(self) -> None:
        self.main.action_new_task()  # ctrl+t, anywhere

    def action_keys_on(self) -> None:
        """esc after a click (the footer's Keys): the letters act again. The key itself is
        handled as it arrives (see MainScreen.route_key); this is for the palette and a
        footer click."""
        if self.keeper.chose():
            self.main.show_whether_keys_act()

    def action_nobody_waiting(self) -> None:
        self.notify("Nobody is waiting for you.", timeout=3)

    def action_no_scene(self) -> None:
        """f2 with no scene in the run (the Scene binding is off then): say why nothing opens."""
        self.notify("No directed scene in this run (agentui --scene NAME plays one).")

    def action_toggle_folds(self) -> None:
        self.main.transcript_view.action_toggle_folds()

    # -- overlays ------------------------------------------------------------------------

    def action_scene_state(self) -> None:
        scene = scene_for(self.main.model, self.main.selected_id)
        if scene is not None and not isinstance(self.screen, SceneStateScreen):
            self.open_overlay(SceneStateScreen(scene))

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self.open_overlay(HelpScreen())

    def action_command_palette(self) -> None:
        if not isinstance(self.screen, CommandPalette) and self._make_room():
            super().action_command_palette()

    def action_change_theme(self) -> None:
        if not isinstance(self.screen, CommandPalette) and self._make_room():
            super().action_change_theme()

    def _make_room(self) -> bool:
        """One overlay at a time: a light one (help, palette) gives way to the next; one that
        holds a decision or typed text does not, and the new one is refused."""
        if len(self.screen_stack) == 1:
            self.main.remember_focus()
            return True
        top = self.screen
        if isinstance(top, LIGHT_OVERLAYS):
            self.pop_screen()
            return len(self.screen_stack) == 1
        name = "the dialog" if isinstance(top, ConfirmScreen) else "the Modify window"
        self.notify(f"Close {name} first (esc).", severity="warning", timeout=3)
        return False

    def open_overlay(
        self, screen: ModalScreen[object], callback: Callable[[object], object] | None = None
    ) -> bool:
        if not self._make_room():
            return False
        self.push_screen(screen, callback)
        return True

    def pop_screen(self):  # type: ignore[no-untyped-def]
        popped = super().pop_screen()
        if len(self.screen_stack) == 1:
            # Back on the main screen: the keys must land where the screen says they will.
            self.call_after_refresh(self.main.restore_focus)
        return popped

    # -- quit ----------------------------------------------------------------------------

    async def action_quit(self) -> None:
        if self._quit_dialog is not None:
            if self.screen is self._quit_dialog:
                self._quit_dialog.dismiss(True)  # ctrl+q again: the deliberate second press
            return
        if isinstance(self.screen, ModifyScreen):
            # Its edits are not applied yet: they are not thrown away by a quit in passing.
            self.notify("Close the Modify window first (esc).", severity="warning", timeout=3)
            return
        if not self.host.quit_cancels(self.main.model) and not self.main.has_unsent_words():
            await self._stop_runtime_and_exit()
            return

        async def confirmed(yes: bool | None) -> None:
            self._quit_dialog = None
            if yes:
                await self._stop_runtime_and_exit()

        dialog = ConfirmScreen(self._quit_question(), "Quit", "Stay", risky_key="ctrl+q")
        if self.open_overlay(dialog, confirmed):  # type: ignore[arg-type]
            self._quit_dialog = dialog

    def recount_quit_question(self) -> None:
        """The quit dialog, while open, asks again with what is true now (at every flush)."""
        if self._quit_dialog is not None:
            self._quit_dialog.ask(self._quit_question())

    def _quit_question(self) -> str:
        running = self.host.quit_cancels(self.main.model)  # none in a replay or attached
        unsent = "What you typed in the prompt has not been sent."
        if not running:
            if self.main.has_unsent_words():
                return f"{unsent} Quit and lose it?"
            return "Every agent has finished. Quit?"
        them = "them" if running != 1 else "it"
        plural = "s are" if running != 1 else " is"
        question = (
            f"{running} agent{plural} not finished (working, paused or waiting for you). "
            f"Quit and cancel {them}?"
        )
        return f"{unsent} {question}" if self.main.has_unsent_words() else question
