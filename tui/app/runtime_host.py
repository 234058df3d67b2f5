"""Where the run the screen shows comes from, one object per mode: a runtime in this process
(LocalHost), one on a server (AttachedHost, `agentui attach`), or a recording (ReplayHost).

The host starts its source after the first frame (core's modules load in a thread meanwhile),
gives the flush its events, takes the tasks typed before the runtime has started, and says
what the status bar shows and what a quit would cancel. Everything that differs between the
modes is here, as methods, not as checks spread over the screen.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, TypedDict, Unpack, cast

from textual.command import CommandInput, CommandPalette
from textual.worker import Worker

from agentui.core.protocol.commands import Mode
from agentui.core.support.errors import AgentUIError
from agentui.tui.app import textual_compat
from agentui.tui.app.replay_feed import ReplayFeed
from agentui.tui.app.status_notices import OFFLINE, REPLAY_FINISHED, REPLAYING
from agentui.tui.app.widgets.composer import Draft
from agentui.tui.cli.gc_policy import start_collecting

# The runtime and what it needs load after the first frame (see LocalHost.load_then_start).
if TYPE_CHECKING:
    import anyio

    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.protocol.commands import AttachedPort, EventStream, RuntimePort
    from agentui.core.runtime import Runtime
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.provider_switch import ProviderSwitch
    from agentui.tui.app.runtime_start import Prepared
    from agentui.tui.app.widgets.status_bar import StatusBar

MAX_PROFILE_TOASTS = 2  # more bad profile files than this get one toast that counts them


class HostOptions(TypedDict, total=False):
    """What a live run's host is given beyond its runtime (the app passes them on)."""

    # Slow work the runtime needs (validating the settings, building the provider loads an
    # SDK): done in the thread that loads core's modules after the first frame. It gives the
    # narrator's settings and the provider switch; an AgentUIError there ends the app.
    prepare_runtime: Callable[[], Prepared] | None
    # The same settings' check alone, for a quit before the runtime started.
    check_settings: Callable[[], object] | None
    initial_profile: str | None  # the profile the first task's agent runs with
    # What starts with the runtime instead of a task: a directed scene (its root's id).
    start_with: Callable[[Runtime], str] | None
    # The status bar's provider and model until the runtime (which has them) has started.
    provider_label: tuple[str, str]
    provider_switch: ProviderSwitch | None  # the palette's "Switch provider"
    provider_notice: str  # why this provider runs (the key that picked it, offline)
    notice: str  # the session's (a resume): it stays whatever the provider


class RuntimeHost:
    """What every mode answers; a recording's answers are ReplayHost's."""

    read_only = False  # a replay: nothing is started, answered or steered
    mode = Mode.LOCAL  # what core's table of commands allows here
    narrates_here = True  # the monologue's narrator runs here (attached: on the server)

    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self.runtime: RuntimePort | None = None
        self.started = False  # the runtime's commands work from then on
        self.events: EventStream | ReplayFeed | None = None  # what the flush drains
        self.provider_switch: ProviderSwitch | None = None  # the palette's "Switch provider"
        # Why the provider runs (the key that picked it, offline): a switch replaces it.
        self.provider_notice = ""

    @property
    def done(self) -> bool:
        """A recording has played to its end (a live run never is)."""
        return False

    @property
    def local_runtime(self) -> Runtime | None:
        """The runtime when it runs in this process: what only it does (a scene's start, a
        provider switch, a new root's name at once) needs it."""
        return None

    def start(self) -> None:
        """After the first frame: start the source of events."""

    def now(self, fold: RunState) -> float:
        """The time the screen's clocks read: now, or a recording's last moment."""
        return self.app.main.clock.now()

    def show_status(self, bar: StatusBar, fold: RunState | None) -> None:
        raise NotImplementedError

    def quit_cancels(self, fold: RunState) -> int:
        """Agents a quit would cancel."""
        return fold.live_count()

    def start_task(self, task: str, profile: str | None = None) -> bool:
        """Start `task`; False when refused (said why)."""
        raise NotImplementedError

    def follow_up_before_start(self, text: str) -> bool:
        """Words for a task sent before its root is known; True when they are kept to send."""
        return False

    def unsent_words(self) -> list[str]:
        """Tasks and words typed for a runtime that never started."""
        return []

    def settings_problem(self) -> str | None:
        return None

    async def stop(self) -> None:
        """Let the runtime cancel its agents and record their ends before the app goes."""


class ReplayHost(RuntimeHost):
    """A recording plays into the same screen: read-only, no runtime."""

    read_only = True
    mode = Mode.REPLAY

    def __init__(self, app: AgentUIApp, feed: ReplayFeed) -> None:
        super().__init__(app)
        self.feed = feed

    @property
    def done(self) -> bool:
        return self.feed.done

    def start(self) -> None:
        self.events = self.feed
        if self.feed.start_agent is not None:  # `--from SEQ`: that event's agent
            self.app.main.select_when_shown(self.feed.start_agent)
        self.app.run_worker(self.feed.play(), name="replay")

    def now(self, fold: RunState) -> float:
        return fold.last_ts

    def show_status(self, bar: StatusBar, fold: RunState | None) -> None:
        # Its clock is the recording's span.
        notice = REPLAY_FINISHED if self.feed.done else REPLAYING
        bar.show(fold, "replay", "", None, notice)

    def quit_cancels(self, fold: RunState) -> int:
        return 0  # nothing runs in a recording

    def start_task(self, task: str, profile: str | None = None) -> bool:
        self.app.notify("This is a replay: nothing can be started here.", severity="warning")
        return False


class LocalHost(RuntimeHost):
    """A runtime in this process, built after the first frame from validated settings."""

    def __init__(
        self,
        app: AgentUIApp,
        runtime_factory: Callable[[], RuntimePort],
        *,
        initial_task: str | None,
        monologue: MonologueConfig | None,
        **options: Unpack[HostOptions],
    ) -> None:
        super().__init__(app)
        self._runtime_factory = runtime_factory
        self._prepare_runtime = options.get("prepare_runtime")
        self._check_settings = options.get("check_settings")  # see `settings_problem`
        self._initial_task = initial_task
        self._initial_profile = options.get("initial_profile")
        self._start_with = options.get("start_with")
        self.monologue_config = monologue
        self._provider_label = options.get("provider_label", ("", ""))
        self.provider_switch = options.get("provider_switch")
        self.provider_notice = options.get("provider_notice", "")
        self.notice = options.get("notice", "")
        self._tasks_before_start: list[str] = []  # typed in the moment before it started
        # Words typed before the runtime started for a task sent before it (the task's place
        # among those sent then, the words): they steer it once it has started.
        self._follow_ups_before_start: list[tuple[int, str]] = []
        # Created with the runtime: anyio events need the running loop.
        self._runtime_stop: anyio.Event | None = None
        self._runtime_worker: Worker[None] | None = None

    @property
    def local_runtime(self) -> Runtime | None:
        if self.runtime is None:
            return None
        from agentui.core.runtime import Runtime  # loaded by now: the runtime runs

        return self.runtime if isinstance(self.runtime, Runtime) else None

    # -- start ---------------------------------------------------------------------------

    def start(self) -> None:
        """Core's modules load in a thread (keys typed meanwhile show at once), then the
        runtime starts on the loop."""
        # The coroutine function, not a coroutine: one made before an app that exits first
        # runs the worker would never be awaited. (Kept typed: mypy infers no result type
        # from a coroutine function alone.)
        self._loading: Worker[None] = self.app.run_worker(
            self._load_then_start, name="load core", exit_on_error=True
        )

    async def _load_then_start(self) -> None:
        try:
            await self._prepare()
            self._start_runtime()
        except AgentUIError as exc:  # a bad setting or script: said on the shell, with the
            # words typed meanwhile (`unsent_words`; nothing ran them)
            self.app.start_failure.say(str(exc))
            return
        start_collecting()  # `agentui` starts with it off (launch.py)

    async def _prepare(self) -> None:
        prepared = await asyncio.to_thread(self._load_for_the_runtime)
        if prepared is not None:
            self.monologue_config = prepared.monologue
            self.provider_switch = prepared.provider_switch
            self.app.nudges.settings = prepared.attention

    def _load_for_the_runtime(self) -> Prepared | None:
        from agentui.tui.app.core_loading import import_runtime_modules

        import_runtime_modules()
        return self._prepare_runtime() if self._prepare_runtime is not None else None

    def _start_runtime(self) -> None:
        import anyio  # loaded by the runtime's modules by now; not needed for the first frame

        self._runtime_stop = anyio.Event()
        self.runtime = self._runtime_factory()
        self._listen(self.runtime)
        problems = self.runtime.profiles.problems  # the person's own profile files
        if len(problems) <= MAX_PROFILE_TOASTS:
            for problem in problems:
                self.app.notify(
                    problem, title="Profile file skipped", severity="warning", timeout=15
                )
        elif problems:
            # A toast each would cover the screen: one says how many, and where to read them.
            self.app.notify(
                f"{len(problems)} profile files were left out; `agentui profiles` says why.",
                title="Profile files skipped",
                severity="warning",
                timeout=15,
            )
        self._runtime_worker = self.app.run_worker(
            self._host_runtime(self.runtime), name="runtime", exit_on_error=True
        )

    def _listen(self, runtime: RuntimePort) -> None:
        """What the runtime tells the screen besides its events (an attached one's server)."""

    async def _host_runtime(self, runtime: RuntimePort) -> None:
        """Keep the runtime's task group open for the life of the app, in a task of its own."""
        from agentui.core.monologue.attach import attach_monologue
        from agentui.core.monologue.config import MonologueConfig

        async with runtime:
            from agentui.core.bus import Subscription  # loaded with the runtime

            events = self.events = runtime.subscribe(maxsize=4096)
            if isinstance(events, Subscription):  # a local runtime's (an attached one streams)
                # Folded at the screen's pace: an agent's deltas are joined between two reads.
                events.join_deltas = True
            local = self.local_runtime
            if self.narrates_here and local is not None:
                narrator = self.monologue_config or MonologueConfig(
                    enabled=self.app.monologue_enabled
                )
                attach_monologue(local, local.provider, narrator)
            self.runtime_has_started()
            assert self._runtime_stop is not None
            await self._runtime_stop.wait()

    def runtime_has_started(self) -> None:
        if not self.app.screen_stack:
            # The app closed while core loaded (a quit at once): nothing to draw or to start,
            # and Textual's screen calls would raise.
            return
        main = self.app.main
        self.started = True
        main.refresh_status()
        self.app.refresh_bindings()
        # A palette opened before listed what could be done then: the same words searched
        # again (under a dialog too; none yet in one still composing, which searches later).
        for screen in self.app.screen_stack:
            if isinstance(screen, CommandPalette):
                for search in screen.query(CommandInput):
                    textual_compat.search_palette_again(search)
        queued = [(self._initial_task, self._initial_profile)] if self._initial_task else []
        queued += [(task, None) for task in self._tasks_before_start]
        self._tasks_before_start.clear()
        main.addressing.starting_root = None
        started: list[str] = []  # each queued task's root ("": refused, or not known yet)
        for task, profile in queued:
            if self.start_task(task, profile):
                started.append(main.addressing.starting_root or "")
            else:  # said why; the words are not lost
                started.append("")
                main.keep_unsent_words(Draft(task, {}), "A task did not start")
                if task == self._initial_task and main.selected_id is None:
                    main.transcript_view.border_title = "transcript"  # not "starting" it
        self._steer_words_typed_while_starting(started)
        main.addressing.follow_the_runs()
        local = self.local_runtime
        if self._start_with is not None and local is not None:
            start, self._start_with = self._start_with, None
            try:
                main.select_when_shown(start(local))
            except AgentUIError as exc:
                self.app.notify(str(exc), severity="error")

    def _steer_words_typed_while_starting(self, started: list[str]) -> None:
        """Words sent for a task in the moment before it started go to it now, in order; kept
        in the prompt when it did not start (or its root is not known here yet)."""
        words, self._follow_ups_before_start = self._follow_ups_before_start, []
        for place, text in words:
            root_id = started[place] if place < len(started) else ""
            if not root_id or self.runtime is None:
                self.app.main.keep_unsent_words(Draft(text, {}), "Your task did not start here yet")
                continue
            try:
                self.runtime.steer(root_id, text)
            except AgentUIError as exc:
                self.app.notify(str(exc), severity="warning")
                self.app.main.keep_unsent_words(
                    Draft(text, {}), "Your words did not reach the task"
                )

    # -- tasks ---------------------------------------------------------------------------

    def start_task(self, task: str, profile: str | None = None) -> bool:
        """Start `task` (or keep it until the runtime has started); False when refused."""
        main = self.app.main
        if self.runtime is None or not self.started:
            self._tasks_before_start.append(task)
            main.addressing.starting_root = ""
            return True
        try:
            if profile is None:
                agent_id = self.runtime.start(task)
            else:
                agent_id = self.runtime.start(task, profile=profile)
        except AgentUIError as exc:
            self.app.notify(str(exc), severity="error")
            return False
        # Its node appears at the next flush. The cursor stays in the prompt, the place where
        # the person was typing: keys typed on meanwhile stay words, never commands, and they
        # are for this task.
        main.addressing.starting_root = agent_id
        # Its name, to say whose words they are until it shows ("" on an attached screen,
        # where the server makes the agent: "starting" until then).
        local = self.local_runtime
        main.addressing.starting_name = local.node(agent_id).name if local and agent_id else ""
        main.select_when_shown(agent_id)
        return True

    def follow_up_before_start(self, text: str) -> bool:
        if self.started:  # the server has not said which root it is
            self.app.notify("Your task is still starting: your words stay in the prompt.")
            return False
        place = len(self._tasks_before_start) - 1 + (1 if self._initial_task else 0)
        self._follow_ups_before_start.append((place, text))  # steered once it starts
        return True

    def unsent_words(self) -> list[str]:
        follow_ups = [text for _, text in self._follow_ups_before_start]
        return [*self._tasks_before_start, *follow_ups]

    def settings_problem(self) -> str | None:
        """After the app ended before its runtime started (a quick quit): what is wrong with the
        settings nobody had checked yet, so a broken file is not passed over in silence."""
        if self.started or self.app.start_failure.why is not None or self._check_settings is None:
            return None
        try:
            self._check_settings()
        except AgentUIError as exc:
            return str(exc)
        return None

    # -- status and stop -----------------------------------------------------------------

    def _provider(self) -> tuple[str, str]:
        if self.runtime is not None:
            return self.runtime.provider.name, self.runtime.provider.model
        return self._provider_label

    def _place(self) -> tuple[str, str]:
        """(alarm, place): where the agents run, when that is worth saying."""
        return "", ""

    def show_status(self, bar: StatusBar, fold: RunState | None) -> None:
        name, model_id = self._provider()
        parts = [part for part in (self.provider_notice, self.notice) if part]
        alarm, place = self._place()
        notice = " · ".join(parts) or (OFFLINE if name == "scripted" else "")
        now = self.app.main.clock.now()
        bar.show(fold, name, model_id, now, notice, alarm=alarm, place=place)

    async def stop(self) -> None:
        if self._runtime_stop is not None and self._runtime_worker is not None:
            self._runtime_stop.set()
            await self._runtime_worker.wait()


class AttachedHost(LocalHost):
    """`agentui attach`: the runtime (and its narrator) run behind an address; the screen
    drives it over the network and leaves its agents running when it quits."""

    mode = Mode.ATTACHED
    narrates_here = False  # the screen shows the server's narrator

    def __init__(
        self,
        app: AgentUIApp,
        address: str,
        runtime_factory: Callable[[], AttachedPort],
        *,
        initial_task: str | None,
        monologue: MonologueConfig | None,
        **options: Unpack[HostOptions],
    ) -> None:
        super().__init__(
            app, runtime_factory, initial_task=initial_task, monologue=monologue, **options
        )
        self.address = address

    @property
    def local_runtime(self) -> Runtime | None:
        return None  # it runs on the server

    async def _prepare(self) -> None:
        """An attached screen's runtime needs none of core's runtime modules."""

    def _listen(self, runtime: RuntimePort) -> None:
        main = self.app.main

        def warned(message: str) -> None:
            self.app.notify(message, severity="warning")

        # Made by the factory this host was given: an AttachedPort (see host_for).
        cast("AttachedPort", runtime).listen(
            warned=warned,
            started=main.select_when_shown,
            not_started=self._not_started,
            connection=main.refresh_status,
        )

    def _not_started(self, task: str) -> None:
        """The server did not make the task (its refusal is said apart): the task's words are
        kept, and the prompt no longer waits for it."""
        addressing = self.app.main.addressing
        if addressing.starting_root == "":
            addressing.starting_root = None
            addressing.follow_the_runs()
        main = self.app.main
        main.keep_unsent_words(Draft(task, {}), "The task did not start")

    def _place(self) -> tuple[str, str]:
        # Where the agents run, and whether the screen is still hearing from it.
        connected = getattr(self.runtime, "connected", False)
        text = getattr(self.runtime, "connection_text", f"connecting to {self.address}")
        if connected or not self.started:
            return "", text
        return text, ""

    def quit_cancels(self, fold: RunState) -> int:
        return 0  # they run on where they are


def host_for(
    app: AgentUIApp,
    runtime_factory: Callable[[], RuntimePort] | None,
    replay: ReplayFeed | None,
    attached_to: str | None,
    *,
    initial_task: str | None,
    monologue: MonologueConfig | None,
    **options: Unpack[HostOptions],
) -> RuntimeHost:
    """The host for the mode the app was given: a replay, a runtime behind an address, or a
    runtime in this process."""
    if replay is not None:  # read-only: no runtime, the recorded events play
        return ReplayHost(app, replay)
    if runtime_factory is None:
        raise ValueError("the app needs a runtime factory, or a replay to play")
    if attached_to is not None:  # `agentui attach`: the runtime runs behind this address
        # attach.py gives a RemoteRuntime's factory, which drives as an AttachedPort.
        attached = cast("Callable[[], AttachedPort]", runtime_factory)
        return AttachedHost(
            app, attached_to, attached, initial_task=initial_task, monologue=monologue, **options
        )
    return LocalHost(
        app, runtime_factory, initial_task=initial_task, monologue=monologue, **options
    )
