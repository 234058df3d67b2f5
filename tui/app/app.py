"""AgentUIApp: the layout, the keys, and the timer that turns event batches into redraws.

The app drives core only through Runtime commands and reads only events (plus `agent(id)` for
the modify dialog). Events are drained from one subscription ~20 times a second and applied in
one batch: never one widget update per token.

Keys: letters are commands only on the panes (agent commands on the tree); a text box takes
every printable key, and a key typed on a pane while a question's answer box (or a reason box)
waits on screen goes into that box. Overlays open one at a time, and closing one gives the
focus back to where it was, or to the question that waits.
"""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import TYPE_CHECKING, ClassVar

import anyio
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult, SystemCommand
from textual.binding import BindingType
from textual.command import CommandInput, CommandPalette
from textual.containers import Horizontal
from textual.dom import NoScreen
from textual.errors import NoWidget
from textual.keys import key_to_character
from textual.message import Message
from textual.notifications import Notification, Notify, SeverityLevel
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Input, TextArea, Tree
from textual.worker import Worker

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.clock import Clock, SystemClock
from agentui.core.support.errors import AgentEndedError, AgentUIError
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app import paste_escapes
from agentui.tui.app.decision_progress import DecidingLine, deciding_line
from agentui.tui.app.focus import FocusKeeper, KeyRoute, home_box
from agentui.tui.app.heap_release import HeapRelease
from agentui.tui.app.keymap import AGENT_KEYS, KEYS, app_bindings, display_key
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.screens.confirm import ConfirmScreen
from agentui.tui.app.screens.help import HelpScreen
from agentui.tui.app.screens.modify import Modification, ModifyScreen
from agentui.tui.app.screens.scene_state import SceneStateScreen, scene_for
from agentui.tui.app.status_notices import OFFLINE, REPLAY_FINISHED, REPLAYING, SWITCHED
from agentui.tui.app.theme_files import AGENT_VARIABLES, DEFAULT_THEME, load_themes
from agentui.tui.app.ui_state import load_ui_state, save_ui_state
from agentui.tui.app.widgets.agent_tree import AgentTree
from agentui.tui.app.widgets.blocks import AnswerInput, ApprovalBlock, QueryBlock, QuestionBlock
from agentui.tui.app.widgets.composer import Composer, Draft
from agentui.tui.app.widgets.footer import FooterKey, KeyFooter
from agentui.tui.app.widgets.monologue import MonologueSidebar
from agentui.tui.app.widgets.prompt import CONTINUE_DEFAULT, PromptBar, PromptMode
from agentui.tui.app.widgets.status_bar import StatusBar
from agentui.tui.app.widgets.transcript import Transcript
from agentui.tui.cli.gc_policy import CollectorPolicy, start_collecting

# The runtime and what it needs load after the first frame (see `_start_runtime`).
if TYPE_CHECKING:
    from agentui.core.bus import Subscription
    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.runtime import Runtime
    from agentui.core.state import AgentState, Change, RunState
    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.provider_switch import ProviderSwitch
    from agentui.tui.app.runtime_start import Prepared

FLUSH_HZ = 20  # redraws per second at most; events are batched in between
NARROW_COLUMNS = 100  # below this the monologue pane is hidden (at 80 it had 18 columns)
INTERRUPT_WINDOW_S = 3.0  # the second esc must come this soon after the first
# A runtime that cannot start: the screen shows why at least this long, and closes once no key
# has come for the next (see _close_once_typing_stops).
ERROR_SHOWN_S = 1.0
CLOSE_AFTER_QUIET_S = 0.4
CLOSE_CHECK_S = 0.05
STOP_GRACE_S = 3.0  # after a SIGTERM/SIGHUP, the orderly stop's time before a plain exit
ALL_AGENTS = "*"
APPROVAL_DIGITS = ("1", "2", "3")  # what acts on an approval (its ApprovalBlock's keys)
LIVE_NOT_PAUSED = (
    AgentStatus.PENDING, AgentStatus.RUNNING, AgentStatus.AWAITING_USER, AgentStatus.MODIFIED,
)  # fmt: skip
READ_ONLY_REFUSED = {
    "pause", "resume", "toggle_pause", "cancel", "interrupt", "delete", "modify", "new_task",
    "next_question", "steer",
}  # fmt: skip
AGENT_ACTIONS = frozenset(k.action for k in AGENT_KEYS)
# Actions on a printable key: a pane hands such keys to a text box that waits.
TYPED_ACTIONS = frozenset(
    k.action for k in KEYS if (key_to_character(k.key) or "\x00").isprintable()
)
MAX_PROFILE_TOASTS = 2  # more bad profile files than this get one toast that counts them
# Overlays that only show something: opening another overlay closes them first. The others
# (delete and quit confirmations, modify) hold a decision or typed text and are never stacked.
LIGHT_OVERLAYS = (CommandPalette, HelpScreen, SceneStateScreen)


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
        if runtime_factory is None and replay is None:
            raise ValueError("the app needs a runtime factory, or a replay to play")
        self._runtime_factory = runtime_factory
        # Slow work the runtime needs (validating the settings, building the provider loads an
        # SDK): done in the thread that loads core's modules after the first frame. It gives the
        # narrator's settings and the provider switch; an AgentUIError there ends the app.
        self._prepare_runtime = prepare_runtime
        # The same settings' check alone, for a quit before the runtime started (see
        # `settings_problem`).
        self._check_settings = check_settings
        self.start_error: str | None = None  # why the runtime could not start, for the shell
        # A resumed session's state, folded once by the resume plan: the app takes it as its
        # own and draws all of it at the first flush, before anything new happens.
        self._show_whole_state = state is not None
        # A replay is read-only: no runtime, the recorded events play into the same screen.
        self.replay = replay
        self._initial_task = initial_task
        self._initial_profile = initial_profile  # the profile its agent runs with
        # What starts with the runtime instead of a task: a directed scene (its root's id).
        self._start_with = start_with
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.notice = notice  # the session's (a resume): it stays whatever the provider
        # Why the provider runs (the key that picked it, offline): a switch replaces it.
        self.provider_notice = provider_notice
        # The status bar's provider and model until the runtime (which has them) has started.
        self._provider_label = provider_label
        self._provider_switch = provider_switch  # the palette's "Switch provider/model…"
        # `agentui attach`: the runtime runs behind this address; so does its narrator.
        self.attached_to = attached_to
        # The narrator is on by default; MonologueConfig(enabled=False) turns it off. Without a
        # config (the settings are validated after the first frame) `monologue_shown` says.
        self.monologue_config = monologue
        self.monologue_enabled = monologue.enabled if monologue is not None else monologue_shown
        self._remember_theme = remember_theme
        self._theme_choice = theme  # from config or a flag; else the remembered one
        self.runtime: Runtime | None = None
        self.runtime_started = False  # its commands work from then on
        self._tasks_before_start: list[str] = []  # typed in the moment before it started
        # Words typed before the runtime started for a task sent before it (the task's place
        # among those sent then, the words): they steer it once it has started.
        self._follow_ups_before_start: list[tuple[int, str]] = []
        # The root of a task just started, until its node shows ("": not known yet, the
        # runtime or the server has not started it): the prompt's words are for it.
        self._starting_root: str | None = "" if initial_task else None
        self._starting_name = ""  # its name, once the runtime has made it
        self._root_ids: list[str] = []  # every root agent, oldest first
        self._last_key_at = 0.0  # time.monotonic() of the last key
        self._typed_at_approval = ""  # letters an approval holding the cursor took, not used
        self.keeper = FocusKeeper()  # after a click, letters are words, never commands
        self._told_letters_are_off = False
        self.collector = CollectorPolicy()  # short GC pauses however many agents
        self.heap = HeapRelease()  # streaming's freed memory back to the system
        # The one fold, fed each batch; made when first read (see `model`).
        self._model: RunState | None = state
        if state is not None:
            self.collector.freeze()  # a resumed run's state lives as long as the app: out of GC
        self.selected_id: str | None = None  # the agent every agent key acts on
        self._select_when_shown: str | None = None
        self.show_all = False  # transcript: every agent interleaved, or the selected one
        self.monologue_selected_only = False
        self._events: Subscription | ReplayFeed | None = None
        # Created with the runtime: anyio events need the running loop.
        self._runtime_stop: anyio.Event | None = None
        self._runtime_worker: Worker[None] | None = None
        self._quit_dialog: ConfirmScreen | None = None
        # Where the keys were when an overlay opened (and the query it was in, if any).
        self._focus_before: tuple[Widget | None, str | None] = (None, None)
        self._arrived_under_overlay: str | None = None  # a question that came while one was open
        self._interrupt_armed: tuple[str, float] | None = None  # (agent, when esc was pressed)
        # "esc again interrupts ...", withdrawn once it does.
        self._interrupt_toast: Notification | None = None
        # "Waiting for you" toasts and the queries each names: once those are all settled
        # (here, on another screen, or their agent ended), that toast is out of date and goes.
        self._waiting_toasts: list[tuple[Notification, frozenset[str]]] = []
        # What the transcript's lower border says is being decided (its forms, longest first).
        self._deciding_shown: DecidingLine = ()
        # The theme is chosen before the first frame: set after mount, it restyles every widget.
        self._theme_warnings = self._load_themes()

    @property
    def model(self) -> RunState:
        """The one fold of the run's events. Made on first use: its event models cost a
        tenth of a start-up, and the first frame (no agents yet) does not read it."""
        if self._model is None:
            from agentui.core.state import RunState

            self._model = RunState(streamed_text=False)  # its transcript shows that text
        return self._model

    # -- layout and start ----------------------------------------------------------------

    def compose(self) -> ComposeResult:
        # Kept as attributes: the timers reach them even while a dialog is the active screen.
        self.tree_view = AgentTree(self.clock.now, id="tree")
        self.transcript_view = Transcript(id="transcript")
        self.transcript_view.read_only = self.replay is not None  # nothing is answered there
        self.monologue_view = MonologueSidebar(enabled=self.monologue_enabled, id="monologue")
        self.prompt_bar = PromptBar(id="prompt-bar")
        self.prompt_view = self.prompt_bar.box
        self.status_view = StatusBar(id="status")
        with Horizontal(id="panes"):
            yield self.tree_view
            yield self.transcript_view
            yield self.monologue_view
        yield self.prompt_bar
        yield self.status_view
        # The key footer is mounted once the prompt has the focus (see on_mount).

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

    def _toast_waiting(self, message: str, title: str, query_ids: Iterable[str]) -> None:
        notification = self.notify(message, title=title)
        self._waiting_toasts.append((notification, frozenset(query_ids)))

    def _withdraw_settled_toasts(self) -> None:
        """Only the toasts about queries nobody can answer any more; other toasts stay."""
        still_open = self.model.open_queries
        kept: list[tuple[Notification, frozenset[str]]] = []
        for notification, query_ids in self._waiting_toasts:
            if notification.has_expired:
                continue
            if query_ids.isdisjoint(still_open):
                self._unnotify(notification)
            else:
                kept.append((notification, query_ids))
        self._waiting_toasts = kept

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

    def get_theme_variable_defaults(self) -> dict[str, str]:
        return {**super().get_theme_variable_defaults(), **AGENT_VARIABLES}

    async def on_mount(self) -> None:
        self.collector.install()
        for title, warning in self._theme_warnings:
            self.notify(warning, title=title, severity="warning", timeout=15)
        self.theme_changed_signal.subscribe(self, lambda theme: self._theme_changed(theme.name))
        self.tree_view.border_title = "agents"
        if self._model is None:  # nothing to show yet: the empty tree says so
            self.tree_view.root.set_label(Text("No agents yet.", style="dim italic"))
            self.tree_view.root.allow_expand = False  # a line of text, not a branch
            self.tree_view.show_root = True
        self.tree_view.on_cursor = self._cursor_moved
        self.transcript_view.name_of = self._name_of
        # A task given on the command line is named from the first frame: its agent shows
        # once the runtime has started, a moment later.
        starting = self._initial_task and " ".join(visible_controls(self._initial_task).split())
        self.transcript_view.border_title = (
            Text.assemble("transcript · starting · ", starting) if starting else "transcript"
        )
        self.monologue_view.border_title = "monologue"
        self.set_interval(1 / FLUSH_HZ, self.flush_events)
        self.set_interval(1.0, self._tick)
        if self.replay is not None:
            self._events = self.replay
            self.run_worker(self.replay.play(), name="replay")
            self.prompt_bar.display = False  # read-only: there is nothing to type
            self.screen.set_focus(self.tree_view)
            await self.mount(KeyFooter())  # the view keys and quit work in a replay too
            return
        self._refresh_status()
        self._follow_the_runs()  # a task given on the command line: words typed are for it
        self._take_back_the_signals()
        # Home: keys typed before anything else are words. Focused now, not at the next
        # idle as `focus()` does, so that the footer composes with the prompt's keys and the
        # first frame shows them.
        self.screen.set_focus(self.prompt_view)
        await self.mount(KeyFooter())
        # The screen first: building the runtime loads most of core, which the first frame
        # does not need. Keys typed meanwhile are words in the prompt; a task sent is kept.
        self.call_after_refresh(self._load_core)

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

    def _load_core(self) -> None:
        """Core's modules load in a thread (keys typed meanwhile show at once), then the
        runtime starts on the loop. An attached screen's runtime needs none of them."""

        async def load_then_start() -> None:
            try:
                if self.attached_to is None:
                    prepared = await asyncio.to_thread(self._load_for_the_runtime)
                    if prepared is not None:
                        self.monologue_config = prepared.monologue
                        self._provider_switch = prepared.provider_switch
                self._start_runtime()
            except AgentUIError as exc:  # a bad setting or script: said on the shell, with the
                # words typed meanwhile (`unsent_words`; nothing ran them)
                self.start_error = str(exc)
                self.notify(
                    f"{exc}\nClosing once you stop typing; your words are printed with this.",
                    title="agentui cannot start",
                    severity="error",
                    timeout=3600,  # until it closes: typing may go on longer than a toast
                )
                self._close_once_typing_stops()
                return
            start_collecting()  # `agentui` starts with it off (launch.py)

        self.run_worker(load_then_start(), name="load core", exit_on_error=True)

    def _load_for_the_runtime(self) -> Prepared | None:
        from agentui.tui.app.core_loading import import_runtime_modules

        import_runtime_modules()
        return self._prepare_runtime() if self._prepare_runtime is not None else None

    def _close_once_typing_stops(self) -> None:
        """The screen closes once its error has shown for a moment and no key has come for
        another, so that every word typed meanwhile is in the prompt, to be said on the shell:
        Textual drops the keys it has read but not handled when it shuts down, and those typed
        but not read yet (a person who just began typing would lose some, the rest would go to
        the shell). Real time: it is the person who is waited for."""

        shown_at = time.monotonic()

        def close_when_quiet() -> None:
            now = time.monotonic()
            if now - shown_at >= ERROR_SHOWN_S and now - self._last_key_at >= CLOSE_AFTER_QUIET_S:
                self.exit(return_code=2)

        self.set_interval(CLOSE_CHECK_S, close_when_quiet)

    def unsent_words(self) -> list[str]:
        """What was typed for the runtime that never started: tasks sent before it, then the
        prompt's words (not stripped: keys typed after the app ended may continue them)."""
        follow_ups = [text for _, text in self._follow_ups_before_start]
        return [*self._tasks_before_start, *follow_ups, self.prompt_view.value]  # a paste whole

    def settings_problem(self) -> str | None:
        """After the app ended before its runtime started (a quick quit): what is wrong with the
        settings nobody had checked yet, so a broken file is not passed over in silence."""
        if self.runtime_started or self.start_error is not None or self._check_settings is None:
            return None
        try:
            self._check_settings()
        except AgentUIError as exc:
            return str(exc)
        return None

    def _start_runtime(self) -> None:
        assert self._runtime_factory is not None
        self._runtime_stop = anyio.Event()
        self.runtime = self._runtime_factory()
        if self.attached_to is not None:
            self.runtime.listen(  # type: ignore[attr-defined]
                warned=lambda message: self.notify(message, severity="warning"),
                started=self._show_started,
                not_started=self._not_started,
                connection=self._refresh_status,
            )
        problems = self.runtime.profiles.problems  # the person's own profile files
        if len(problems) <= MAX_PROFILE_TOASTS:
            for problem in problems:
                self.notify(problem, title="Profile file skipped", severity="warning", timeout=15)
        elif problems:
            # A toast each would cover the screen: one says how many, and where to read them.
            self.notify(
                f"{len(problems)} profile files were left out; `agentui profiles` says why.",
                title="Profile files skipped",
                severity="warning",
                timeout=15,
            )
        self._runtime_worker = self.run_worker(
            self._host_runtime(self.runtime), name="runtime", exit_on_error=True
        )

    def _runtime_has_started(self) -> None:
        self.runtime_started = True
        self._refresh_status()
        self.refresh_bindings()
        # A palette opened before listed what could be done then: the same words searched
        # again (under a dialog too; none yet in one still composing, which searches later).
        for screen in self.screen_stack:
            if isinstance(screen, CommandPalette):
                for search in screen.query(CommandInput):
                    search.post_message(Input.Changed(search, search.value))
        queued = [(self._initial_task, self._initial_profile)] if self._initial_task else []
        queued += [(task, None) for task in self._tasks_before_start]
        self._tasks_before_start.clear()
        self._starting_root = None
        started: list[str] = []  # each queued task's root ("": refused, or not known yet)
        for task, profile in queued:
            if self._start_task(task, profile):
                started.append(self._starting_root or "")
            else:  # said why; the words are not lost
                started.append("")
                self._keep_unsent_words(Draft(task, {}), "A task did not start")
                if task == self._initial_task and self.selected_id is None:
                    self.transcript_view.border_title = "transcript"  # not "starting" it
        self._steer_words_typed_while_starting(started)
        self._follow_the_runs()
        if self._start_with is not None and self.runtime is not None:
            start, self._start_with = self._start_with, None
            try:
                self._select_when_shown = start(self.runtime)
            except AgentUIError as exc:
                self.notify(str(exc), severity="error")

    def _steer_words_typed_while_starting(self, started: list[str]) -> None:
        """Words sent for a task in the moment before it started go to it now, in order; kept
        in the prompt when it did not start (or its root is not known here yet)."""
        words, self._follow_ups_before_start = self._follow_ups_before_start, []
        for place, text in words:
            root_id = started[place] if place < len(started) else ""
            if not root_id or self.runtime is None:
                self._keep_unsent_words(Draft(text, {}), "Your task did not start here yet")
                continue
            try:
                self.runtime.steer(root_id, text)
            except AgentUIError as exc:
                self.notify(str(exc), severity="warning")
                self._keep_unsent_words(Draft(text, {}), "Your words did not reach the task")

    def on_unmount(self) -> None:
        self.collector.close()

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
        self.tree_view.relabel(self.model.agents.values())

    async def _host_runtime(self, runtime: Runtime) -> None:
        """Keep the runtime's task group open for the life of the app, in a task of its own."""
        from agentui.core.monologue.attach import attach_monologue
        from agentui.core.monologue.config import MonologueConfig

        async with runtime:
            self._events = runtime.subscribe(maxsize=4096)
            if self.attached_to is None:  # an attached screen shows the server's narrator
                narrator = self.monologue_config or MonologueConfig(enabled=self.monologue_enabled)
                attach_monologue(runtime, runtime.provider, narrator)
            self._runtime_has_started()
            assert self._runtime_stop is not None
            await self._runtime_stop.wait()

    # -- events to widgets ---------------------------------------------------------------

    def flush_events(self) -> None:
        """Apply every pending event to the screen now (the timer calls this ~20 times a second)."""
        if not self.screen_stack:  # closing: the screens are gone (a service may still emit)
            return
        # A resumed session's state is drawn at the first flush, even before the runtime runs.
        batch = self._events.drain() if self._events is not None else []
        # Read before the fold closes a query that holds the keys (answered on another screen,
        # its agent cancelled) and the transcript drops its box: whether they were words.
        answering = self._focused_query() if batch else None
        # Its box goes once the fold closes the query; the box keeps its words till then.
        box = self.focused if answering and isinstance(self.focused, Composer) else None
        if self._show_whole_state:
            self._show_whole_state = False
            changes = self.model.as_change().merge(self.model.apply_all(batch))
        elif batch:
            changes = self.model.apply_all(batch)
        else:
            return
        tree = self.tree_view
        self.collector.after_batch(len(changes.added), len(batch))
        self.heap.folded(len(batch))
        roots_changed = False
        if changes.added:
            tree.show_root = False  # its hint goes with the first agent
            tree.add_agents(self.model.agents[i] for i in changes.added)
            new_roots = [i for i in changes.added if self.model.agents[i].parent_id is None]
            self._root_ids += new_roots
            roots_changed = bool(new_roots)
            if self._starting_root in changes.added:
                self._starting_root = None  # shown: the prompt follows it as any root
            if self._select_when_shown in changes.added:
                self._select(self._select_when_shown)
                self._select_when_shown = None
            elif self.selected_id is None:
                self._select(changes.added[0])
        tree.relabel(self.model.agents[i] for i in changes.relabel)
        roots_changed = roots_changed or any(
            self.model.agents[i].parent_id is None for i in changes.relabel
        )
        self.transcript_view.sync(changes.changed_entries)
        self.monologue_view.add(changes.narratives)
        if answering is not None and answering in changes.closed_queries:
            self._leave_settled_query(box.draft() if box is not None else None)
            self._give_back_words_typed_at_an_approval()
        if self._waiting_toasts and changes.closed_queries:
            self._withdraw_settled_toasts()
        if changes.new_queries and self.replay is None:  # a replay asks nobody anything
            self._questions_arrived(changes)
        if self.selected_id in changes.relabel:
            self.refresh_bindings()
            if not self.show_all:
                self._title_transcript()
        if self._quit_dialog is not None:
            self._quit_dialog.ask(self._quit_question())
        if changes.scenes and isinstance(self.screen, SceneStateScreen):
            self.screen.redraw()
        if roots_changed:
            self._follow_the_runs()  # a task started or ended: the prompt says whose words
        self._refresh_status()
        self._say_what_is_decided()

    def _questions_arrived(self, changes: Change) -> None:
        self.bell()
        takes_cursor = self.screen is self.screen_stack[0] and not self._person_is_busy()
        if self.screen is not self.screen_stack[0]:
            self._arrived_under_overlay = self._arrived_under_overlay or changes.new_queries[0]
        elif takes_cursor:
            self.call_after_refresh(self._focus_question, changes.new_queries[0], False)
        shown = self.transcript_view.source in (ALL_AGENTS, self.selected_id)
        first = self.model.open_queries.get(changes.new_queries[0])
        first_agent = first.agent_id if first is not None else None
        if takes_cursor and shown and first_agent in (self.selected_id, None):
            return  # the cursor is in its box already: a toast would only cover the screen
        raised = [q for q in changes.new_queries if q in self.model.open_queries]
        if len(raised) > 1:
            # One toast for a burst: a dozen agents asking at once must not bury the screen.
            self._toast_waiting(
                f"{len(raised)} agents are waiting for you (ctrl+n goes from one to the next)",
                "Waiting for you",
                raised,
            )
        elif raised:
            (query_id,) = raised
            agent = self.model.agents[self.model.open_queries[query_id].agent_id]
            entry = self.model.entry_for_query(query_id)
            if entry is not None and entry.title == "approval":
                message = f"{agent.name} wants to run {entry.tool} (ctrl+n)"
                self._toast_waiting(message, "Approval needed", raised)
            else:
                message = f"{agent.name} asks you something (ctrl+n)"
                self._toast_waiting(message, "Waiting for you", raised)

    def _person_is_busy(self) -> bool:
        """Writing in a text box (it holds words), or deciding an approval: the cursor stays
        where it is. An empty prompt is not writing: a question takes the cursor from it."""
        focused = self.focused
        if isinstance(focused, TextArea) and focused.text.strip():
            return True
        return self._focused_query() is not None

    def on_resize(self, event: events.Resize) -> None:
        # Under 80 columns the transcript needs the room more than the monologue does.
        narrow = event.size.width < NARROW_COLUMNS
        if self.monologue_view.display == narrow:
            self.monologue_view.display = not narrow
            self.tree_view.styles.min_width = 16 if narrow else None

    def _tick(self) -> None:
        """A second passed: only elapsed times move. The tree repaints its visible rows of
        live agents and the status bar its clock; nothing here grows with the agents. (A
        replay's elapsed time is the recording's span: its events redraw it.)"""
        self.tree_view.tick()
        if self.runtime is not None:
            self.status_view.tick(self.clock.now())
            self._say_what_is_decided()
        self.heap.every_second()

    def _refresh_status(self) -> None:
        fold = self._model  # None until something happened: the first frame needs no fold
        if self.replay is not None:  # its clock is the recording's span
            notice = REPLAY_FINISHED if self.replay.done else REPLAYING
            self.status_view.show(fold, "replay", "", None, notice)
            return
        name, model_id = self._provider_label
        if self.runtime is not None:
            name, model_id = self.runtime.provider.name, self.runtime.provider.model
        parts = [part for part in (self.provider_notice, self.notice) if part]
        alarm = place = ""
        if self.attached_to is not None:
            # Where the agents run, and whether the screen is still hearing from it.
            connected = getattr(self.runtime, "connected", False)
            text = getattr(self.runtime, "connection_text", f"connecting to {self.attached_to}")
            if connected or not self.runtime_started:
                place = text
            else:
                alarm = text
        notice = " · ".join(parts) or (OFFLINE if name == "scripted" else "")
        self.status_view.show(
            fold, name, model_id, self.clock.now(), notice, alarm=alarm, place=place
        )

    # -- selection and views -------------------------------------------------------------

    def _name_of(self, agent_id: str) -> str:
        agent = self.model.agents.get(agent_id)
        return visible_controls(agent.name if agent is not None else agent_id)

    def _label_for(self, entry: Entry) -> str | None:
        return self._name_of(entry.agent_id)

    def _show_transcript(self) -> None:
        transcript = self.transcript_view
        if self.show_all:
            transcript.show(ALL_AGENTS, self.model.timeline, self._label_for)
        elif self.selected_id is not None:
            agent = self.model.agents[self.selected_id]
            transcript.show(agent.id, agent.entries)
        self._title_transcript()
        self._say_what_is_decided()

    def _say_what_is_decided(self) -> None:
        """While a workflow decision streams unseen, the pane's lower border says what is being
        decided and for how long (so many seconds of nothing on screen do not look stuck). Read
        from the fold's agents deciding now: nothing here grows with the agents."""
        fold = self._model
        if fold is None:
            return
        now = fold.last_ts if self.replay is not None else self.clock.now()
        if self.show_all:
            line = deciding_line(fold, None, now, self._name_of)
        elif self.selected_id is not None:
            line = deciding_line(fold, self.selected_id, now, self._name_of)
        else:
            line = ()
        if line != self._deciding_shown:
            self._deciding_shown = line
            self.transcript_view.show_deciding(line)  # shown as Text, never markup

    def _title_transcript(self) -> None:
        """The pane's title names what it shows: every agent, or one agent and its task (a
        modified task shows at once)."""
        if self.show_all:
            self.transcript_view.border_title = "transcript · all agents"
        elif self.selected_id is not None:
            agent = self.model.agents[self.selected_id]
            self.transcript_view.border_title = Text.assemble(
                "transcript · ", agent.name, " · ", " ".join(visible_controls(agent.task).split())
            )

    def _show_monologue(self) -> None:
        self.monologue_view.show(
            self.model.narratives, self.selected_id if self.monologue_selected_only else None
        )

    def _select(self, agent_id: str, *, move_cursor: bool = True) -> None:
        if agent_id == self.selected_id:
            return
        self.selected_id = agent_id
        if move_cursor:
            self.tree_view.select_agent(agent_id)
        if not self.show_all:
            self._show_transcript()
        if self.monologue_selected_only:
            self._show_monologue()
        self._follow_the_runs()  # words typed now are for the selected agent's task
        self.refresh_bindings()

    def _cursor_moved(self, agent_id: str) -> None:
        # The cursor is where the person put it: follow it, never move it back. Called as it
        # moves (not on NodeHighlighted, a message later): the transcript switches in the
        # frame that shows the cursor on its agent.
        if agent_id in self.model.agents:
            self._select(agent_id, move_cursor=False)

    @on(Tree.NodeSelected, "#tree")
    def _agent_chosen(self, event: Tree.NodeSelected[str]) -> None:
        agent = self.model.agents.get(event.node.data or "")
        if agent is not None and agent.open_queries:
            self._focus_question(agent.open_queries[0])

    def waiting_box(self) -> Composer | None:
        """A text box on screen that waits for the person's words: an open question's answer
        box or a reason being written in the transcript, else a steer or continue message
        begun in the prompt. Printable keys typed on a pane go there."""
        if self.screen is not self.screen_stack[0]:
            return None
        selected = self.selected_id
        found: list[tuple[bool, Composer]] = []
        for block in self.transcript_view.open_query_blocks():
            box: Composer | None = None
            if isinstance(block, QuestionBlock):
                box = block.input
            elif isinstance(block, ApprovalBlock):
                box = block.reason_waiting()
            if box is not None and box.display:
                found.append((block.entry.agent_id != selected, box))
        if found:
            return min(found, key=lambda pair: pair[0])[1]  # the selected agent's first
        if self.prompt_bar.display and self.prompt_bar.mode.for_one_agent:
            return self.prompt_view  # a steer or continue message begun
        return None

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
            self._clicked()
        if isinstance(event, events.Key):
            self._last_key_at = time.monotonic()  # see _close_once_typing_stops
            if not self._route_key(event):
                return
        await super().on_event(event)

    def on_mouse_down(self, event: events.MouseDown) -> None:
        # The same click as it bubbles up from the widget it landed on (a test's pilot hands
        # clicks to the screen directly, past on_event).
        self._clicked()

    def _on_a_footer_key(self, event: events.MouseDown) -> bool:
        try:
            widget, _ = self.get_widget_at(event.x, event.y)
        except NoWidget:
            return False
        return isinstance(widget, FooterKey) or isinstance(widget.parent, FooterKey)

    def _clicked(self) -> None:
        if self.screen is self.screen_stack[0] and self.keeper.clicked():
            self._show_whether_keys_act()

    def _route_key(self, event: events.Key) -> bool:
        """Send the key where it belongs; False when it was used up here (nothing else sees it)."""
        if self.screen is not self.screen_stack[0]:
            return True  # a dialog's keys are its own
        route = self.keeper.key_arrived(event, self.focused)
        if route is KeyRoute.ARMED:
            event.stop()
            event.prevent_default()
            self._show_whether_keys_act()
            self.notify("Keys act here again: letters are commands on the panes.", timeout=3)
            return False
        if route is KeyRoute.CHOSE:
            self._show_whether_keys_act()
            return True
        if route is KeyRoute.TO_BOX:
            box = home_box(self.waiting_box(), self.prompt_view, self.prompt_bar.display)
            if box is not None:
                self.screen.set_focus(box)
            if box is None or self.focused is not box:
                # Nowhere to type (a replay), or the box took no focus: the letter is no
                # command either.
                event.stop()
                event.prevent_default()
                self._say_letters_are_off()
                return False
            return True
        if event.is_printable:
            box = self._box_for_typed_keys()
            if box is not None:
                self.screen.set_focus(box)
            elif isinstance(self.focused, ApprovalBlock) and event.key not in APPROVAL_DIGITS:
                # Words typed as an approval took the cursor decide nothing: kept for later.
                self._typed_at_approval += event.character or ""
        return True

    def _say_letters_are_off(self) -> None:
        if not self._told_letters_are_off:
            self._told_letters_are_off = True
            self.notify("After a click, letters are not commands: esc turns them on.", timeout=5)

    def _show_whether_keys_act(self) -> None:
        """The footer offers the letters only while they act; a pane's border is lit only then
        (dashed while a click left it focused for reading)."""
        self.screen_stack[0].set_class(self.keeper.reading, "-reading")
        self._told_letters_are_off = False
        self.refresh_bindings()

    def _give_back_words_typed_at_an_approval(self) -> None:
        """Once the approval is decided or left, the letters it took are kept as any words
        typed for a box gone are."""
        words, self._typed_at_approval = self._typed_at_approval.strip(), ""
        self._keep_unsent_words(
            Draft(words, {}),
            "An approval had the cursor while you typed (only 1, 2 and 3 act on it)",
        )

    def _box_for_typed_keys(self) -> Composer | None:
        """Where a printable key typed now goes instead of being the focused pane's command
        (None: it is the pane's). The footer does not offer the keys that go elsewhere."""
        focused = self.focused
        if focused is not None and focused not in self._panes():
            return None
        box = self.waiting_box()
        if box is not None or focused is not self.tree_view or not self.prompt_bar.display:
            return box
        fold = self._model
        empty = fold is None or not fold.agents
        return self.prompt_view if empty else None  # nothing to command yet: words for a task

    def _panes(self) -> tuple[Widget, ...]:
        return (self.tree_view, self.transcript_view, self.monologue_view)

    def _focus_question(self, query_id: str, switch: bool = True) -> None:
        query = self.model.open_queries.get(query_id)
        if query is None:
            return
        agent_id = query.agent_id
        if switch:
            self._select(agent_id)
        transcript = self.transcript_view
        if transcript.source not in (agent_id, ALL_AGENTS):
            return
        block = transcript.block_for_query(query_id)
        target = block.focus_target() if block is not None else None
        if block is not None and target is not None:
            self.screen.set_focus(target)  # at once: keys already queued must land here
            # After the layout that gives the block its height: its top (the question, the
            # code) at the top of the pane, so what is asked is what is seen.
            self.call_after_refresh(transcript.show_block, block)

    def _leave_settled_query(self, words: Draft | None) -> None:
        """A query settled while it held the focus (answered elsewhere, its agent cancelled).
        Words being typed go on into the prompt, where they stay words, and so do the words
        already in the box (they are not lost with it); keys deciding an approval go to the
        tree, the app's keys."""
        if words is None:
            self.tree_view.focus()
            return
        self._go_home()
        self._keep_unsent_words(
            words,
            "The question was settled elsewhere (answered on another screen, or its agent ended)",
        )

    def _keep_unsent_words(self, words: Draft, why: str) -> None:
        """Words typed for a box that no longer takes them: into the prompt when it is empty
        (not sent), else quoted in a toast; never lost, never mixed into the prompt's own."""
        if not words.text.strip():
            return
        if self.prompt_bar.display and not self.prompt_view.text.strip():
            self.prompt_view.put_draft(words)
            kept = "what you were typing is in the prompt"
        else:
            kept = f"you were typing: {clipped(words.text, 200)}"
        self.notify(f"{why}; {kept}", title="Not sent", timeout=15)

    def _focused_query(self) -> str | None:
        """The open query whose block holds the focus, if any."""
        block = self._focused_block()
        return block.query_id if block is not None and block.entry.open else None

    def _focused_block(self) -> QueryBlock | None:
        """The question or approval block the focus is in (on it, or in its input)."""
        if self.focused is None:
            return None
        return next(
            (n for n in self.focused.ancestors_with_self if isinstance(n, QueryBlock)), None
        )

    # -- tasks and answers ---------------------------------------------------------------

    @on(Composer.Submitted, "#prompt")
    def _prompt_submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        text = event.text.strip()
        mode = self.prompt_bar.mode
        if mode.kind == "task":
            taken = bool(text) and self._start_task(text)
            self.prompt_view.settle_sent(taken)  # kept when refused: nothing typed is lost
            if taken:  # the words typed next are for this task
                self.prompt_bar.retarget(self._default_prompt_mode())
            return
        if mode.kind == "follow_up":
            self.prompt_view.settle_sent(bool(text) and self._follow_up(mode, event.text))
            self._follow_the_runs()  # it may have kept a target for the words just sent
            return
        self.prompt_view.settle_sent(taken=False)  # the steer or continue below resets the box
        if self.runtime is None or mode.agent_id is None:
            return
        agent_id = mode.agent_id
        if mode.kind == "continue":
            message = text or CONTINUE_DEFAULT
            if self._run(f"continue {mode.agent_name}", self.runtime.send, agent_id, message):
                self._go_home()
            return
        if not text:
            self.notify("Type a message first (esc leaves the prompt).", severity="warning")
            return
        agent = self.model.agents.get(agent_id)
        if agent is not None and not agent.status.is_live:
            # It ended while the words were typed: offer to continue it with them (a runtime
            # elsewhere would refuse the steer only a round trip later).
            self._offer_continue(agent_id, event.text)
            return
        try:
            self.runtime.steer(agent_id, event.text)
        except AgentEndedError:
            self._offer_continue(agent_id, event.text)  # it ended while the words were typed
        except AgentUIError as exc:
            self.notify(f"steer {mode.agent_name}: {exc}", severity="warning")
        else:
            self._go_home()
            if agent is not None and agent.status is AgentStatus.PAUSED:
                # The cursor is back in the prompt, where an r would be a word.
                self.notify(
                    f"{agent.name} is paused: it reads your message when it resumes "
                    "(esc to the tree, then r)."
                )

    def _follow_up(self, mode: PromptMode, text: str) -> bool:
        """Words for the task that runs, as a steer for its root (its next model call reads
        them; a paused one reads them with the call it makes on resume). True when sent."""
        if mode.agent_id is None:  # its root is not known yet
            if self.runtime_started:  # the server has not said which it is
                self.notify("Your task is still starting: your words stay in the prompt.")
                return False
            place = len(self._tasks_before_start) - 1 + (1 if self._initial_task else 0)
            self._follow_ups_before_start.append((place, text))  # steered once it starts
            return True
        agent = self.model.agents.get(mode.agent_id)
        if agent is not None and not agent.status.is_live:
            # It ended while the words were typed: offer to continue it with them (a runtime
            # elsewhere would refuse the steer only a round trip later).
            self._move_words_to_a_continue(agent.id, text)
            return False
        if agent is not None and agent.driver is not None:
            return self._give_to_a_driven_root(agent, text)
        if self.runtime is None:
            return False
        try:
            self.runtime.steer(mode.agent_id, text)
        except AgentEndedError:  # it ended since the screen last heard
            self._move_words_to_a_continue(mode.agent_id, text)
            return False
        except AgentUIError as exc:
            self.notify(f"{mode.agent_name}: {exc}", severity="warning")
            return False
        return True

    def _move_words_to_a_continue(self, agent_id: str, text: str) -> None:
        """The words move to the offer to continue the agent, not kept twice (the offer would
        keep the box's words as a draft of their own)."""
        self.prompt_view.clear()
        self._offer_continue(agent_id, text)

    def _give_to_a_driven_root(self, agent: AgentState, text: str) -> bool:
        """A scene's root reads no model call: the words answer the question it asks (the
        next round's input); with none open they stay, with what to do instead."""
        if agent.open_queries and self.runtime is not None:
            try:
                self.runtime.answer(agent.open_queries[0], text)
            except AgentUIError as exc:
                self.notify(f"{agent.name}: {exc}", severity="warning")
                return False
            return True
        self.notify(
            f"{agent.name} is a {agent.driver} that agentui runs: your words will answer its "
            "next question; steer the agents under it with s on the tree, or ctrl+t for a new "
            "task. Your words stay in the prompt.",
            severity="warning",
            timeout=8,
        )
        return False

    @on(TextArea.Changed, "#prompt")
    def _prompt_edited(self) -> None:
        # Emptied (sent, or erased): the prompt follows the runs again (see _follow_the_runs).
        if not self.prompt_view.text.strip():
            self._follow_the_runs()

    def _offer_continue(self, agent_id: str, text: str) -> None:
        """A steer for an agent that makes no further model call: keep the words, and offer
        to continue the agent with them instead."""
        agent = self.model.agents[agent_id]
        self.prompt_bar.set_mode(PromptMode("continue", agent_id, agent.name), text)
        self._focus_prompt()
        self.notify(
            f"{agent.name} has ended and will read no more messages. "
            "Enter continues it with your message; esc keeps it as it is.",
            title="Not steered",
            severity="warning",
            timeout=8,
        )

    def _run(self, what: str, command: Callable[..., None], *args: str) -> bool:
        try:
            command(*args)
        except AgentUIError as exc:
            self.notify(f"{what}: {exc}", severity="warning")
            return False
        return True

    def action_leave_prompt(self) -> None:
        """esc in the prompt: a steer or continue goes back to a new-task prompt (the cursor
        stays; its words wait for the next message to that agent); a new-task prompt gives
        the keys to the tree, where the commands are."""
        name = self.prompt_bar.mode.agent_name
        kept = self.prompt_bar.keep_agent_message()
        if self._back_to_default():
            if kept:
                self.notify(f"Your message to {name} is kept: s (or r) on {name} brings it back.")
            self._focus_prompt()
        else:
            self.keeper.chose()  # esc to the tree: its letters are wanted
            self._show_whether_keys_act()
            self.tree_view.focus()

    def _back_to_default(self) -> bool:
        """The prompt follows the runs again (a follow-up for the task that runs, else a new
        task); True when it was asked for something else (a steer, a continue, a new task)."""
        mode = self.prompt_bar.mode
        if mode.is_default:
            return False
        default = self._default_prompt_mode()
        if mode.for_one_agent:
            self.prompt_bar.set_mode(default, "")  # the words written before come back
        else:
            self.prompt_bar.retarget(default)  # a new task asked for: its words stay
        return True

    def _default_prompt_mode(self) -> PromptMode:
        """A follow-up for the task just started (until its root shows), else for the root of
        the selected agent while it runs, else for the newest root that runs; a new task once
        every root has ended."""
        starting = self._starting_root
        if starting is not None:
            return PromptMode("follow_up", starting or None, self._starting_name)
        root = self._root_that_runs()
        if root is None:
            return PromptMode()
        return PromptMode("follow_up", root.id, root.name, driven=root.driver is not None)

    def _root_that_runs(self) -> AgentState | None:
        fold = self._model
        if fold is None or self.replay is not None:
            return None
        agent = fold.agents.get(self.selected_id or "")
        while agent is not None and agent.parent_id is not None:
            agent = fold.agents.get(agent.parent_id)
        if agent is not None and agent.status.is_live:
            return agent
        for root_id in reversed(self._root_ids):
            root = fold.agents.get(root_id)
            if root is not None and root.status.is_live:
                return root
        return None

    def _follow_the_runs(self) -> None:
        """Point a prompt that follows the runs at the root that runs now. A steer, a continue
        or a new task asked for stay as they were asked; and words being typed stay addressed
        to the task they were typed for (a root that ended meanwhile: enter offers to continue
        it), only learning its name or id once it has started."""
        mode = self.prompt_bar.mode
        if not mode.is_default:
            return
        default = self._default_prompt_mode()
        if default == mode:
            return
        if self.prompt_view.text.strip():
            same_task = mode.kind == default.kind == "follow_up" and (
                mode.agent_id in (None, default.agent_id)
            )
            if not same_task:
                return
        self.prompt_bar.retarget(default)

    def _go_home(self) -> None:
        """After a message is sent or a question settled, the cursor goes back to the prompt
        (as in other agent terminals): words typed next stay words."""
        self._back_to_default()
        if self.prompt_bar.display:
            self._focus_prompt()
        else:
            self.tree_view.focus()

    def _start_task(self, task: str, profile: str | None = None) -> bool:
        """Start `task` (or keep it until the runtime has started); False when refused."""
        if self.replay is not None:
            self.notify("This is a replay: nothing can be started here.", severity="warning")
            return False
        if self.runtime is None or not self.runtime_started:
            self._tasks_before_start.append(task)
            self._starting_root = ""
            return True
        try:
            if profile is None:
                agent_id = self.runtime.start(task)
            else:
                agent_id = self.runtime.start(task, profile=profile)
        except AgentUIError as exc:
            self.notify(str(exc), severity="error")
            return False
        # Its node appears at the next flush. The cursor stays in the prompt, the place where
        # the person was typing: keys typed on meanwhile stay words, never commands, and they
        # are for this task.
        self._starting_root = agent_id
        # Its name, to say whose words they are until it shows ("" on an attached screen,
        # where the server makes the agent: "starting" until then).
        self._starting_name = self.runtime.node(agent_id).name if agent_id else ""
        self._show_started(agent_id)
        return True

    def _show_started(self, agent_id: str) -> None:
        """Select a root agent the person started, now or once its node is shown (an attached
        screen learns the id after the server's events may already have drawn it)."""
        if agent_id in self.model.agents:
            self._select(agent_id)
        elif agent_id:
            self._select_when_shown = agent_id
        if agent_id and self._starting_root == "":  # the server said which: follow it
            # Until it shows; shown already (its events came first): followed as any root.
            self._starting_root = None if agent_id in self.model.agents else agent_id
            self._follow_the_runs()

    def _not_started(self, task: str) -> None:
        """The server did not make the task (its refusal is said apart): the task's words are
        kept, and the prompt no longer waits for it."""
        if self._starting_root == "":
            self._starting_root = None
            self._follow_the_runs()
        self._keep_unsent_words(Draft(task, {}), "The task did not start")

    @on(AnswerInput.Left)
    @on(ApprovalBlock.Left)
    def _left_a_question(self) -> None:
        self.tree_view.focus()  # where the agents are; the question or approval stays open
        self._give_back_words_typed_at_an_approval()

    @on(AnswerInput.Answered)
    def _answered(self, event: AnswerInput.Answered) -> None:
        self._settle_query(lambda runtime: runtime.answer(event.query_id, event.text))

    @on(ApprovalBlock.Decided)
    def _decided(self, event: ApprovalBlock.Decided) -> None:
        self._settle_query(
            lambda runtime: runtime.approve(event.query_id, event.choice, event.reason or None)
        )
        self._give_back_words_typed_at_an_approval()

    def _settle_query(self, settle: Callable[[Runtime], None]) -> None:
        if self.runtime is None:  # a replay (queries come from a runtime)
            self.notify("This is a replay: nothing can be answered here.", severity="warning")
            return
        try:
            settle(self.runtime)
        except AgentUIError as exc:
            self.notify(str(exc), severity="warning")
        self._go_home()  # the toast about it goes once the query closes (see flush_events)
        self.transcript_view.follow()  # answered: what the agent does next is what to watch

    # -- which keys apply ----------------------------------------------------------------

    def _selected(self) -> AgentStatus | None:
        agent = self.model.agents.get(self.selected_id or "")
        return agent.status if agent is not None else None

    def _selected_is_driven(self) -> bool:
        fold = self._model  # None before anything happened: the first frame loads no fold
        agent = fold.agents.get(self.selected_id or "") if fold is not None else None
        return agent is not None and agent.driver is not None

    def _selected_waits(self) -> bool:
        agent = self.model.agents.get(self.selected_id or "")
        return agent is not None and bool(agent.open_queries)

    def _can_steer(self, action: str) -> bool:
        if self.replay is not None:
            return False
        # In the moment before the runtime has started only a new task can be asked for (it
        # starts with the runtime).
        return self.runtime_started or action == "new_task"

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        fold = self._model  # None: nothing has happened yet (the first frame loads no fold)
        if action == "keys_on":
            return self.keeper.reading and not isinstance(self.focused, TextArea)
        if action == "pane_key":
            # A key on a pane: not while the letters are words after a click (esc turns them
            # on first), nor a letter while a box waits for it (see on_event). The same action
            # from a modifier key or the palette is asked for by its own name, below.
            (asked,) = parameters
            assert isinstance(asked, str)
            if self.keeper.reading or (asked in TYPED_ACTIONS and self._box_for_typed_keys()):
                return False
            return self.check_action(asked, ())
        if action == "next_question" and (
            fold is None or not fold.open_queries or self.replay is not None
        ):
            return False  # hidden (and falls through) when nobody waits, or only in a recording
        status = self._selected() if fold is not None else None
        if status is None and action in AGENT_ACTIONS:
            return False  # no agent yet: the footer keeps its room for what works
        if action in READ_ONLY_REFUSED and not self._can_steer(action):
            # A replay can never steer: not offered. Before the runtime starts: greyed.
            return False if self.replay is not None else None
        live = status is not None and status.is_live
        # A director or another agent agentui runs itself reads no words: the runtime refuses
        # to steer, modify or continue it (its agents can be).
        model_runs = not self._selected_is_driven()
        applies: dict[str, bool] = {
            "pause": live and status is not AgentStatus.PAUSED,
            # resume a paused agent, or continue one that ended (a follow-up, or after a crash)
            "resume": status is AgentStatus.PAUSED
            or (model_runs and status not in (None, AgentStatus.DELETED, *LIVE_NOT_PAUSED)),
            "toggle_pause": live,
            "cancel": live,
            "interrupt": live,
            "delete": status is not None and status is not AgentStatus.DELETED,
            "modify": live and model_runs,
            "steer": model_runs and status is not None and status is not AgentStatus.DELETED,
            "toggle_all": fold is not None and bool(fold.agents),
            "toggle_monologue_filter": self.monologue_enabled,
        }
        if action == "next_question":
            return True  # somebody waits (checked above)
        if action == "scene_state":
            return fold is not None and bool(fold.scenes)  # hidden unless a scene is in the run
        if action == "answer_selected":
            # Offered only on a waiting agent; else enter is the tree's own (fold a node).
            return self.runtime is not None and self._selected_waits()
        if action in applies:
            return True if applies[action] else None  # None: shown greyed out, and refused
        return True

    def get_system_commands(self, screen: Screen) -> Iterable[SystemCommand]:
        # Textual's own Theme, Quit and Keys are offered below in the app's words (Help shows
        # every key): listed twice, a person cannot tell which is which.
        ours = {f"action_{key.action}" for key in KEYS if key.palette} | {"action_show_help_panel"}
        for command in super().get_system_commands(screen):
            if getattr(command.callback, "__name__", "") not in ours:
                yield command
        for key in KEYS:
            if key.palette and self.check_action(key.action, ()):
                # The footer's word first, so "All agents" finds what the footer calls so.
                title = f"{key.label}: {key.description}"
                yield SystemCommand(title, f"key: {display_key(key.key)}", self._runner(key.action))
        if self._provider_switch is not None and self.runtime_started:
            yield SystemCommand(
                "Switch provider/model…", "for the next task", self._open_provider_switch
            )

    def _open_provider_switch(self) -> None:
        from agentui.tui.app.provider_switch import provider_palette

        assert self._provider_switch is not None
        palette = provider_palette(self._provider_switch, self._open_overlay, self._switch_to)
        self._open_overlay(palette)

    def _switch_to(self, name: str, model: str) -> None:
        """New root agents run on `name` `model`; running agents keep theirs."""
        assert self._provider_switch is not None and self.runtime is not None
        try:
            provider = self._provider_switch.build(name, model)
        except AgentUIError as exc:
            self.notify(str(exc), title="Cannot switch", severity="error", timeout=10)
            return
        self.runtime.set_provider(provider)
        self.provider_notice = SWITCHED
        self._refresh_status()
        self.notify(f"New tasks run on {name} {model}.", title="Provider switched")

    def _runner(self, action: str) -> Callable[[], object]:
        if action == "interrupt":
            return self._interrupt_now
        return lambda: self.run_action(action)

    # -- actions on the selected agent ---------------------------------------------------

    def _command(self, name: str, call: Callable[[str], None]) -> None:
        if self.selected_id is None:
            self.notify("Select an agent first.", severity="warning")
            return
        self._run(name, call, self.selected_id)

    def action_pause(self) -> None:
        assert self.runtime is not None
        self._command("pause", self.runtime.pause)

    def action_resume(self) -> None:
        assert self.runtime is not None
        status = self._selected()
        if status is not None and status.is_final and self.selected_id is not None:
            # An ended agent continues from its conversation with a message from the person.
            name = self.model.agents[self.selected_id].name
            self.prompt_bar.set_mode(PromptMode("continue", self.selected_id, name), "")
            self._focus_prompt()
            return
        self._command("resume", self.runtime.resume)

    def action_toggle_pause(self) -> None:
        if self._selected() is AgentStatus.PAUSED:
            self.action_resume()
        else:
            self.action_pause()

    def action_cancel(self) -> None:
        assert self.runtime is not None
        self._command("cancel", self.runtime.cancel)

    def action_answer_selected(self) -> None:
        agent = self.model.agents.get(self.selected_id or "")
        if agent is not None and agent.open_queries:
            self._focus_question(agent.open_queries[0])
        else:
            self.tree_view.action_select_cursor()

    def action_steer(self) -> None:
        agent = self.model.agents.get(self.selected_id or "")
        if agent is None:
            self.notify("Select an agent first.", severity="warning")
            return
        if not agent.status.is_live:
            self._offer_continue(agent.id, "")
            return
        self.prompt_bar.set_mode(PromptMode("steer", agent.id, agent.name), "")
        self._focus_prompt()

    def action_interrupt(self) -> None:
        """esc twice: the first press says what the second will do, so an esc pressed to get
        out of something never stops an agent by itself."""
        agent = self.model.agents.get(self.selected_id or "")
        if agent is None or not agent.status.is_live or self.runtime is None:
            return
        now = self.clock.monotonic()
        armed, self._interrupt_armed = self._interrupt_armed, None
        if armed is None or armed[0] != agent.id or now - armed[1] > INTERRUPT_WINDOW_S:
            self._interrupt_armed = (agent.id, now)
            self._interrupt_toast = self.notify(
                f"esc again interrupts {agent.name} (r continues it later).", timeout=3
            )
            return
        self._interrupt_now()

    def _interrupt_now(self) -> None:
        """The palette's Interrupt: chosen by name, it is meant; no second press."""
        toast, self._interrupt_toast = self._interrupt_toast, None
        if toast is not None:
            self._unnotify(toast)  # what it said would happen has happened
        self._command(
            "interrupt",
            lambda agent_id: self.runtime.cancel(agent_id, "interrupted by the person"),  # type: ignore[union-attr]
        )

    def action_delete(self) -> None:
        agent = self.model.agents.get(self.selected_id or "")
        if agent is None:
            return
        below = self._descendants(agent.id)
        what = (
            f"{agent.name} and its {below} subagent{'s' if below != 1 else ''}"
            if below
            else agent.name
        )

        def confirmed(yes: bool | None) -> None:
            # The agent the dialog named, whatever is selected by the time of the answer.
            if yes and self.runtime is not None:
                self._command("delete", lambda _: self.runtime.delete(agent.id))  # type: ignore[union-attr]

        # Only work that runs is said to stop (a finished agent has none).
        running = any(a.status.is_live for a in self._subtree(agent.id))
        told = "its parent is told" if agent.parent_id else ""
        if running:
            after = f" Running work stops now{' and ' + told if told else ''}."
        else:
            after = f" {told[0].upper()}{told[1:]}." if told else ""
        self._open_overlay(ConfirmScreen(f"Delete {what}?{after}", "Delete", "Keep"), confirmed)

    def _subtree(self, agent_id: str) -> Iterable[AgentState]:
        agent = self.model.agents.get(agent_id)
        if agent is not None:
            yield agent
            for child in agent.children:
                yield from self._subtree(child)

    def _descendants(self, agent_id: str) -> int:
        children = [a.id for a in self.model.agents.values() if a.parent_id == agent_id]
        return len(children) + sum(self._descendants(c) for c in children)

    def action_modify(self) -> None:
        if self.selected_id is None or self.runtime is None:
            return
        agent_id = self.selected_id
        agent = self.model.agents.get(agent_id)
        if agent is None:
            return

        def apply(change: Modification | None) -> None:
            if change is None or (change.instructions is None and change.content is None):
                return
            if self.runtime is not None:
                self._command(
                    "modify",
                    lambda _: self.runtime.modify(  # type: ignore[union-attr]
                        agent_id, instructions=change.instructions, content=change.content
                    ),
                )

        # A modification not yet read by a model call is what the window starts from.
        pending = agent.pending_modification
        instructions = pending.instructions if pending is not None else None
        task = pending.content if pending is not None else None
        self._open_overlay(
            ModifyScreen(
                agent.name,
                instructions if instructions is not None else agent.conversation.instructions,
                task if task is not None else agent.task,
            ),
            apply,
        )

    # -- other actions -------------------------------------------------------------------

    def _focus_prompt(self) -> None:
        """The prompt takes the keys now, not after the keys already queued (`focus()` waits
        for them): `n` and the words typed right after it must all be words."""
        try:
            self.prompt_view.screen.set_focus(self.prompt_view)
        except NoScreen:
            self.prompt_view.focus()

    def action_new_task(self) -> None:
        """A new task, on purpose: while a root runs the prompt says "new task" until the task
        is sent or esc goes back; words already typed stay in the box."""
        self._back_to_default()
        if self.prompt_bar.mode.kind == "follow_up":
            self.prompt_bar.retarget(PromptMode("task", chosen=True))
        self._focus_prompt()

    def action_next_question(self) -> None:
        if self.screen is not self.screen_stack[0]:
            return  # an overlay is open: closing it brings the focus to the question
        queries = list(self.model.open_queries)
        if not queries:
            self.action_nobody_waiting()
            return
        current = self._focused_query()
        after = queries.index(current) + 1 if current in queries else 0
        self._focus_question(queries[after % len(queries)])

    async def action_pane_key(self, action: str) -> None:
        """A key on a pane (see keymap.bindings): the action it names."""
        await self.run_action(action)

    def action_keys_on(self) -> None:
        """esc after a click (the footer's Keys): the letters act again. The key itself is
        handled as it arrives (see _route_key); this is for the palette and a footer click."""
        if self.keeper.chose():
            self._show_whether_keys_act()

    def action_nobody_waiting(self) -> None:
        self.notify("Nobody is waiting for you.", timeout=3)

    def action_scene_state(self) -> None:
        scene = scene_for(self.model, self.selected_id)
        if scene is not None and not isinstance(self.screen, SceneStateScreen):
            self._open_overlay(SceneStateScreen(scene))

    def action_no_scene(self) -> None:
        """f2 with no scene in the run (the Scene binding is off then): say why nothing opens."""
        self.notify("No directed scene in this run (agentui --scene NAME plays one).")

    def action_toggle_folds(self) -> None:
        self.transcript_view.action_toggle_folds()

    def action_toggle_all(self) -> None:
        self.show_all = not self.show_all
        self._show_transcript()

    def action_toggle_monologue_filter(self) -> None:
        self.monologue_selected_only = not self.monologue_selected_only
        self._show_monologue()

    def action_help(self) -> None:
        if not isinstance(self.screen, HelpScreen):
            self._open_overlay(HelpScreen())

    def action_command_palette(self) -> None:
        if not isinstance(self.screen, CommandPalette) and self._make_room():
            super().action_command_palette()

    def action_change_theme(self) -> None:
        if not isinstance(self.screen, CommandPalette) and self._make_room():
            super().action_change_theme()

    async def action_quit(self) -> None:
        if self._quit_dialog is not None:
            if self.screen is self._quit_dialog:
                self._quit_dialog.dismiss(True)  # ctrl+q again: the deliberate second press
            return
        if isinstance(self.screen, ModifyScreen):
            # Its edits are not applied yet: they are not thrown away by a quit in passing.
            self.notify("Close the Modify window first (esc).", severity="warning", timeout=3)
            return
        if not self._live_to_cancel() and not self._unsent_words():
            await self._stop_runtime_and_exit()
            return

        async def confirmed(yes: bool | None) -> None:
            self._quit_dialog = None
            if yes:
                await self._stop_runtime_and_exit()

        dialog = ConfirmScreen(self._quit_question(), "Quit", "Stay", risky_key="ctrl+q")
        if self._open_overlay(dialog, confirmed):
            self._quit_dialog = dialog

    def _quit_question(self) -> str:
        """Counted again at every flush while the dialog is open: the answer is given to
        what is true when it is given."""
        running = self._live_to_cancel()
        unsent = "What you typed in the prompt has not been sent."
        if not running:
            if self._unsent_words():
                return f"{unsent} Quit and lose it?"
            return "Every agent has finished. Quit?"
        them = "them" if running != 1 else "it"
        plural = "s are" if running != 1 else " is"
        question = (
            f"{running} agent{plural} not finished (working, paused or waiting for you). "
            f"Quit and cancel {them}?"
        )
        return f"{unsent} {question}" if self._unsent_words() else question

    def _live_to_cancel(self) -> int:
        """Agents a quit would cancel: none in a replay, none on an attached screen (they run
        on where they are)."""
        return self.model.live_count() if self.replay is None and not self.attached_to else 0

    def _unsent_words(self) -> bool:
        return self.prompt_bar.display and bool(self.prompt_view.text.strip())

    # -- overlays and focus --------------------------------------------------------------

    def _make_room(self) -> bool:
        """One overlay at a time: a light one (help, palette) gives way to the next; one that
        holds a decision or typed text does not, and the new one is refused."""
        if len(self.screen_stack) == 1:
            self._focus_before = (self.focused, self._focused_query())
            return True
        top = self.screen
        if isinstance(top, LIGHT_OVERLAYS):
            self.pop_screen()
            return len(self.screen_stack) == 1
        name = "the dialog" if isinstance(top, ConfirmScreen) else "the Modify window"
        self.notify(f"Close {name} first (esc).", severity="warning", timeout=3)
        return False

    def _open_overlay(
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
            self.call_after_refresh(self._restore_focus)
        return popped

    def _restore_focus(self) -> None:
        """Back where the keys were before the overlay, if that place still takes them; else
        the question it was in (its block may have been rebuilt), the selected agent's
        waiting question, or the tree."""
        if len(self.screen_stack) != 1:
            return
        before, query_id = self._focus_before
        self._focus_before = (None, None)
        arrived, self._arrived_under_overlay = self._arrived_under_overlay, None
        writing = isinstance(before, TextArea) and _takes_keys(before)
        if arrived in self.model.open_queries and not writing and query_id is None:
            # It came while the dialog was open: it takes the cursor now, as it would have.
            self._focus_question(arrived, switch=False)
            if self._focused_query() == arrived:
                return
        if before is not None and _takes_keys(before):
            self.screen.set_focus(before)
            return
        if query_id is not None and query_id in self.model.open_queries:
            self._focus_question(query_id, switch=False)
            if self._focused_query() == query_id:
                return
        if self.focused is not None and _takes_keys(self.focused) and before is None:
            return
        waiting = self.model.agents.get(self.selected_id or "")
        if waiting is not None and waiting.open_queries:
            self._focus_question(waiting.open_queries[0], switch=False)
            if self._focused_query() is not None:
                return
        self.tree_view.focus()

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
        # Let the runtime cancel its agents and record their ends before the app goes.
        if self._runtime_stop is not None and self._runtime_worker is not None:
            self._runtime_stop.set()
            await self._runtime_worker.wait()
        self.exit(0)


def _takes_keys(widget: Widget) -> bool:
    """Still on screen, shown, and not part of a question that was settled meanwhile."""
    if not widget.is_attached or not widget.display or not widget.focusable:
        return False
    block = next((n for n in widget.ancestors_with_self if isinstance(n, QueryBlock)), None)
    return block is None or block.entry.open
