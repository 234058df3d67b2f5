"""The `agentui` command.

    agentui [TASK]                     open the app (asks for a task when none is given)
    agentui --scene NAME|FILE          play a directed scene in the app (round by round)
    agentui --resume [ID|last] [TASK]  reopen a saved session in the app
    agentui run [--json] TASK          run headless; one JSON event per line with --json
    agentui run --scene NAME|FILE      play a directed scene headless (stdin: each round's input)
    agentui sessions [--json]          list saved sessions
    agentui replay [ID|last] [--speed X]       play a session back, read-only
    agentui export [ID|last] --format md|json|rounds [-o FILE]
    agentui config path|show           where the config file is; every effective setting
    agentui profiles                   the agent profiles, where each came from, bad files
    agentui scenes                     the directed scenes agentui ships
    agentui serve [--port N]           run agents with no screen behind an HTTP + SSE API
    agentui attach URL                 the app on a runtime `agentui serve` runs elsewhere
    agentui web                        the app in a browser (textual-serve), on loopback
    agentui mcp list                   the configured MCP servers, their state and tools
    agentui acp                        agentui as an ACP agent on stdio (Zed, Toad)
    agentui --version

Settings come from the config file, then AGENTUI_* environment variables, then flags (see
core/config/settings.py). Without --provider, the first API key set picks the provider (Anthropic,
OpenAI, Google), else the offline scripted model runs. The app and `run` record a session unless `--no-session`. Textual is imported only when
a screen opens, so headless runs and the other commands start fast.
"""

from __future__ import annotations

import argparse
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from agentui.core.config.sources import ConfigError
from agentui.core.providers.scripted.defaults import default_pace
from agentui.core.session.naming import LAST, sessions_dir
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.cli.command_typo import mistyped_command
from agentui.tui.cli.early_keys import (
    release_typed_keys,
    take_typed_keys,
    typed_lines,
    unechoed_terminal,
)
from agentui.tui.cli.gc_policy import start_collecting
from agentui.tui.cli.options import (
    add_profile_option,
    add_provider_options,
    add_resume_option,
    add_scene_option,
    add_setting_options,
    add_theme_option,
    assembly_from,
    fail,
    port_number,
    positive_seconds,
    setting_flags,
    warn,
)

# What one command alone needs (the runtime and its assembly, resume, reading and listing
# sessions, the app, headless) is imported where that command runs.
if TYPE_CHECKING:
    from agentui.core.config.settings import LoadedConfig
    from agentui.core.runtime import Runtime
    from agentui.core.session.reader import SessionLog
    from agentui.core.session.resume import ResumePlan
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.runtime_start import RuntimeStart
    from agentui.tui.cli.assemble import Assembly
    from agentui.tui.cli.scene_start import SceneStarter
    from agentui.tui.headless.run import Steer


def _app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui",
        description="Run and steer trees of LLM agents in your terminal. Other commands: "
        "run (headless), sessions, replay, export, config, profiles, scenes, serve, attach, "
        "web, mcp, acp; "
        "`agentui COMMAND --help`.",
    )
    parser.add_argument("task", nargs="?", help="the task to start with (asked for when omitted)")
    add_scene_option(parser)
    add_profile_option(parser)
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    add_resume_option(parser, "reopen")
    parser.add_argument(
        "--no-monologue",
        action="store_true",
        help="do not narrate the agents' work in the sidebar (it is on by default)",
    )
    add_theme_option(parser)
    add_provider_options(parser, default_pace=default_pace())
    return parser


def _check_profile_use(args: argparse.Namespace) -> None:
    """`--profile` goes with a task (its name is looked up when the runtime, which loads the
    profiles, starts that task)."""
    if args.profile is not None and (args.task is None or args.scene is not None):
        raise AgentUIError(
            "--profile names the profile of a TASK's agent: give a task, not --scene"
        )


def _profile_start(args: argparse.Namespace) -> Callable[[Runtime], str] | None:
    """The task's agent started with `--profile` (None without it)."""
    _check_profile_use(args)
    if args.profile is None:
        return None
    task, profile = args.task, args.profile
    return lambda runtime: runtime.start(task, profile=profile)


class _Version(argparse.Action):
    """--version: the installed version is looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from agentui import core

        print(f"agentui {core.__version__}")
        parser.exit()


def _steer(spec: str) -> Steer:
    from agentui.tui.headless.run import Steer

    try:
        return Steer.parse(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _run_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui run",
        description="Run one task without the app. Exit status 0 when the root agent completed.",
    )
    parser.add_argument("task", nargs="?", help="the task (or --scene)")
    add_scene_option(parser)
    add_profile_option(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON event per line")
    parser.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="TEXT",
        help="answer to the next question an agent asks (repeatable); then stdin is read",
    )
    parser.add_argument(
        "--steer",
        action="append",
        default=[],
        type=_steer,
        metavar="AGENT: MESSAGE",
        help="queue MESSAGE into agent AGENT's next model call (e.g. 'main: be brief'), once it "
        "runs (repeatable); a stdin line '/steer AGENT MESSAGE' does the same mid-run",
    )
    parser.add_argument(
        "--monologue",
        action="store_true",
        help="also narrate the agents' work (monologue events; on stderr without --json)",
    )
    add_provider_options(parser, default_pace=default_pace())
    return parser


# -- settings ----------------------------------------------------------------------------------


def _accepts(function: Callable[..., Any], parameter: str) -> bool:
    from inspect import signature  # only for this check: not loaded on every start

    return parameter in signature(function).parameters


# -- headless ----------------------------------------------------------------------------------


def _run(argv: Sequence[str]) -> int:
    parser = _run_parser()
    args = parser.parse_args(argv)
    if (args.task is None) == (args.scene is None):
        parser.error("give a TASK or --scene NAME|FILE (one of them)")
    from agentui.core.session.recording import RecordingRuntime
    from agentui.tui.cli.assemble import build_provider, build_runtime, monologue_config

    made: list[Runtime] = []
    try:
        assembly = assembly_from(args)
        provider = build_provider(assembly)  # fails fast on a bad script or option
        if assembly.notice:
            print(f"agentui: {assembly.notice}", file=sys.stderr)
        start = _profile_start(args)
        if args.scene is not None:
            from agentui.tui.cli.scene_start import new_scene

            start = new_scene(args.scene, assembly.loaded.config.scene)  # a bad one: exit 2
        from agentui.core.support.termination import end_on_termination_signals
        from agentui.tui.headless.run import run_headless

        def make_runtime() -> Runtime:
            runtime = build_runtime(assembly, provider)  # it closes the provider at its end
            made.append(runtime)
            return runtime

        end_on_termination_signals()  # SIGTERM, SIGHUP: the same orderly end as Ctrl+C
        code = anyio.run(
            lambda: run_headless(
                make_runtime,
                args.task or "",
                json_output=args.json,
                answers=args.answer,
                steers=args.steer,
                monologue=monologue_config(assembly, enabled=args.monologue),
                stdin=sys.stdin,
                stdout=sys.stdout,
                stderr=sys.stderr,
                start=start,
            )
        )
    except AgentUIError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        return 130
    from agentui.core.support.termination import termination_received

    if termination_received() is not None:
        # The signal killed the python tool's process, and the run ended on that before the
        # interruption reached it: still an interrupted run, as the person asked.
        print("agentui: interrupted", file=sys.stderr)
        return 130
    for runtime in made:
        if isinstance(runtime, RecordingRuntime) and runtime.session.error:
            warn([runtime.session.error])
    return code


# -- the app -----------------------------------------------------------------------------------


def _run_app(build: Callable[[argparse.Namespace], AgentUIApp], args: argparse.Namespace) -> int:
    from agentui.tui.app.terminal_watch import served_to_a_browser
    from agentui.tui.cli.app_terminal import missing_terminal
    from agentui.tui.cli.terminal_size import use_the_terminals_own_size

    try:
        app = build(args)  # reads what is said before the screen: a bad one comes first
    except AgentUIError as exc:
        return _fail_keeping_words(str(exc), [])
    if (no_terminal := missing_terminal()) is not None:
        # Before anything starts; a bad setting (checked after the first frame) is said
        # instead, as it would have been first with a terminal.
        return fail(app.settings_problem() or no_terminal)
    if not served_to_a_browser():  # textual-serve's COLUMNS is the tab's size
        use_the_terminals_own_size()
    from agentui.core.support.termination import end_on_termination_signals
    from agentui.tui.app.terminal_watch import exit_when_the_app_is_cut_off

    # SIGTERM: quit in order, as the Quit dialog does; SIGHUP (the terminal is gone): exit.
    end_on_termination_signals(app.stop_in_order, exit_on_hangup=True)
    exit_when_the_app_is_cut_off()  # also when SIGHUP's handler cannot run, and under `web`
    app.run()
    start_error = app.start_error or app.settings_problem()
    if start_error is not None:
        return _fail_keeping_words(start_error, app.unsent_words())
    _say_where_the_session_is(app)
    return app.return_code or 0


def _fail_keeping_words(message: str, unsent: list[str]) -> int:
    """The app could not start: `message`, then what the person typed for it, none of it run:
    `unsent` (the app's words) continued by keys it never read, taken from the terminal so
    that they do not run in the shell once agentui has ended."""
    later = typed_lines(take_typed_keys())
    if unsent:
        later[0] = unsent.pop() + later[0]
    words = [" ".join(line.split()) for line in [*unsent, *later]]
    return fail("\n".join([message, *(f"not sent: {line}" for line in words if line)]))


def _say_where_the_session_is(app: AgentUIApp) -> None:
    """After the screen is gone: which session this was, and how to open it again."""
    if app.attached_to is not None:
        print(
            f"agentui: detached; the agents run on at {app.attached_to} "
            f"(`agentui attach {app.attached_to}` reopens them)",
            file=sys.stderr,
        )
        return
    from agentui.core.session.writer import SessionWriter  # loaded with the runtime already
    from agentui.tui.cli.session_outcome import what_was_saved

    session = getattr(app.runtime, "session", None)
    if isinstance(session, SessionWriter) and app.model.agents:
        said = what_was_saved(session)
        if said is not None:
            print(f"agentui: {said}", file=sys.stderr)


def _app(argv: Sequence[str], commands: Sequence[str]) -> int:
    args = _app_parser().parse_args(argv)
    # `agentui -- WORD` says WORD is the task, whatever it looks like.
    typo = None if "--" in argv else mistyped_command(args.task, commands)
    if typo is not None:
        release_typed_keys()
        return fail(typo)
    with unechoed_terminal():  # keys typed while it starts are the app's, not the shell's
        return _run_app(_build_app, args)


def _build_app(args: argparse.Namespace) -> AgentUIApp:
    """The app the parsed options describe (resumed, when `--resume`); raises AgentUIError.

    Its first frame is drawn from the few settings it needs, read as given when they are
    plainly valid (first_frame.py); the rest are validated after it (runtime_start.py). A
    resumed session or a scene is read before the screen opens, and the settings with it."""
    from agentui.core.config.sources import gather_settings
    from agentui.tui.app.runtime_start import RuntimeStart
    from agentui.tui.cli.first_frame import (
        first_frame,
        plain_frame_settings,
        validated_frame_settings,
    )

    if args.script is not None:  # a path mistyped is said before the screen, as bad options are
        from agentui.core.providers.scripted.script_file import read_script

        read_script(Path(args.script))
    gathered = gather_settings(setting_flags(args))
    plain = plain_frame_settings(gathered)
    read_first = plain is None or args.resume is not None or args.scene is not None
    assembly = assembly_from(args, gathered) if read_first else None  # a bad setting: said first
    _check_profile_use(args)
    if assembly is not None:
        frame = validated_frame_settings(assembly.loaded)
        start = _read_before_the_screen(args, assembly)
    else:
        assert plain is not None
        frame = plain
        start = _AppStart(RuntimeStart(lambda: assembly_from(args, gathered)))
    first = first_frame(frame, script=args.script)
    if first.theme is not None:
        _check_theme(first.theme, frame.theme_origin)
    from agentui.tui.app.app import AgentUIApp

    runtime = start.runtime
    return AgentUIApp(
        runtime_factory=runtime.runtime,
        # In the thread that loads the runtime's modules: the settings are validated there and
        # the provider built (an SDK takes 0.3 to 0.7 s to import).
        prepare_runtime=runtime.prepare,
        check_settings=runtime.check,
        initial_task=args.task,
        initial_profile=args.profile,  # a name no profile has: the task is kept in the prompt
        state=start.state,
        notice=start.notice,
        # the status bar says why this provider runs: no key (offline), or the key that picked it
        provider_notice=first.provider_notice,
        provider_label=first.provider_label,  # the provider itself is built after the first frame
        monologue_shown=first.monologue_shown,
        theme=first.theme,
        start_with=start.start_with,
    )


@dataclass(frozen=True, slots=True)
class _AppStart:
    """How the app starts: its runtime, and what was read before the screen opened."""

    runtime: RuntimeStart
    state: RunState | None = None  # a resumed session's
    notice: str = ""  # the session's (a resume)
    start_with: SceneStarter | None = None


def _read_before_the_screen(args: argparse.Namespace, assembly: Assembly) -> _AppStart:
    """A resumed session or a scene, read (and said, when wrong) before the screen opens."""
    from agentui.tui.app.runtime_start import RuntimeStart

    plan = None
    notice = ""
    if args.resume is not None:
        from agentui.core.session.resume import open_for_resume

        plan = open_for_resume(args.resume)
        assembly = replace(assembly, resume=plan)
        warn(plan.log.warnings)
        count = len(plan.interrupted)
        interrupted = f": {count} interrupted agent{'s' if count != 1 else ''}" if count else ""
        notice = f"resumed {plan.log.id}{interrupted}"
    return _AppStart(
        RuntimeStart(lambda: assembly),
        state=plan.state if plan is not None else None,
        notice=notice,
        start_with=_scene_start(args, assembly, plan),
    )


def _scene_start(
    args: argparse.Namespace, assembly: Assembly, plan: ResumePlan | None
) -> SceneStarter | None:
    """The scene `--scene` names, or the one a resumed session left unfinished; else None."""
    from agentui.tui.cli.scene_start import new_scene, unfinished_scene_of

    settings = assembly.loaded.config.scene
    if args.scene is not None:
        if args.task is not None:
            raise AgentUIError("give a task or --scene, not both")
        return new_scene(args.scene, settings)
    return unfinished_scene_of(plan.state, settings) if plan is not None else None


def _add_theme(options: dict[str, Any], app_class: type, loaded: LoadedConfig) -> None:
    theme = loaded.config.theme
    if theme is not None and _accepts(app_class, "theme"):
        _check_theme(theme, loaded.origin("theme"))
        options["theme"] = theme


def _check_theme(name: str, where: str) -> None:
    """A theme named in config, a variable or --theme must exist: a bad setting, like any
    other, stops before the screen opens (exit 2) instead of drawing something else."""
    from difflib import get_close_matches

    from textual.theme import BUILTIN_THEMES

    from agentui.tui.app.theme_files import load_themes

    themes, skipped = load_themes()  # otherwise a broken file's warning shows in the app
    known = sorted({theme.name for theme in themes} | set(BUILTIN_THEMES))
    if name not in known:
        close = get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        # It may be the theme of a file that could not be read: why each was skipped.
        broken = [f"theme file skipped: {warning}" for warning in skipped]
        raise AgentUIError(
            "\n".join(
                [
                    f"{where}: theme: unknown theme {name!r}{hint}; the themes are: "
                    + ", ".join(known),
                    *broken,
                ]
            )
        )


# -- the app on a runtime elsewhere --------------------------------------------------------------


def _attach_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui attach",
        description="Open the app on a runtime that `agentui serve` runs, here or on another "
        "machine: the agents keep running when this screen closes.",
    )
    parser.add_argument(
        "url", metavar="URL", help="the server's address, e.g. http://127.0.0.1:8765"
    )
    parser.add_argument(
        "--token-file",
        type=Path,
        metavar="FILE",
        help="the file holding the server's token (default: AGENTUI_TOKEN, else the file "
        "`agentui serve` writes on this machine)",
    )
    add_theme_option(parser)
    return parser


def _attach(argv: Sequence[str]) -> int:
    return _run_app(_build_attached_app, _attach_parser().parse_args(argv))


def _build_attached_app(args: argparse.Namespace) -> AgentUIApp:
    """The app on the server at `args.url`, once it has answered (raises AgentUIError)."""
    from urllib.parse import urlsplit, urlunsplit

    from agentui.core.remote.client import DEFAULT_PORT, RemoteClient, RemoteError, read_token
    from agentui.core.remote.remote_runtime import RemoteProvider, RemoteRuntime
    from agentui.core.remote.token_file import default_token_path

    url = args.url.rstrip("/")
    if "://" not in url:
        url = f"http://{url}"  # as printed by `agentui serve`, or just host:port
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError as exc:
        raise AgentUIError(f"{args.url} is not an address to attach to: {exc}") from None
    if parts.scheme == "http" and port is None:
        # A host alone: where `agentui serve` listens by default.
        url = urlunsplit(parts._replace(netloc=f"{parts.netloc}:{DEFAULT_PORT}"))
    from_variable = os.environ.get("AGENTUI_TOKEN")
    token = from_variable or read_token(args.token_file)
    token_file = args.token_file

    async def ask() -> Any:
        client = RemoteClient(url, token)
        try:
            return await client.info()
        finally:
            await client.aclose()

    try:
        info = anyio.run(ask)  # unreachable or refusing: one message, before the screen opens
    except RemoteError as exc:
        if exc.status != 401:
            raise
        source = "AGENTUI_TOKEN" if from_variable else str(args.token_file or default_token_path())
        raise AgentUIError(
            f"{url} refused the token from {source}: give the file `agentui serve` printed "
            "(--token-file) or its token in AGENTUI_TOKEN"
        ) from None
    from agentui.core.config.settings import load_config
    from agentui.core.monologue.config import MonologueConfig

    loaded = load_config(setting_flags(args))

    from agentui.tui.app.app import AgentUIApp

    options: dict[str, Any] = {
        "attached_to": url,
        "provider_label": (info.provider, info.model),
        # The server narrates (or not); the sidebar shows what it sends.
        "monologue": MonologueConfig(enabled=info.narrator),
    }
    _add_theme(options, AgentUIApp, loaded)
    provider = RemoteProvider(info.provider, info.model)
    # A silent stream is a dead one after a few missed heartbeats, not after a fixed minute.
    idle_timeout = max(3 * info.heartbeat_s, 10.0)

    def remote() -> RemoteRuntime:
        client = RemoteClient(url, token, idle_timeout=idle_timeout)
        # After a 401 the token is read again from its file: the server may have made anew.
        again = None if from_variable else (lambda: read_token(token_file))
        return RemoteRuntime(client, provider, read_token=again)

    return AgentUIApp(runtime_factory=remote, **options)


# -- the app in a browser ---------------------------------------------------------------------


def _web(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui web",
        description="Serve the app to a browser (textual-serve): each browser tab runs its own "
        "agentui with the options after `--`.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default loopback)")
    parser.add_argument("--port", type=port_number, default=8000, help="port (default 8000)")
    parser.add_argument(
        "--allow-remote",
        action="store_true",
        help="bind an address other than loopback: anyone who reaches it runs agents as you",
    )
    parser.add_argument("app_args", nargs=argparse.REMAINDER, help="options for agentui itself")
    args = parser.parse_args(argv)
    from agentui.core.remote.auth import is_loopback

    if not is_loopback(args.host) and not args.allow_remote:
        return fail(
            f"{args.host} is reachable from other machines and textual-serve has no login; "
            "add --allow-remote to bind it anyway"
        )
    from shlex import join

    from agentui.tui.cli.web import GuardedServer

    if args.port == 0:
        return fail("agentui web needs a fixed port (the browser's page names it)")
    app_args = [a for a in args.app_args if a != "--"]
    # Checked once here: a bad option would otherwise give every browser tab a dead terminal.
    _app_parser().parse_args(app_args)
    # Each browser tab's app starts as `agentui` does (launch.py: the collector off until then).
    command = join([sys.executable, "-m", "agentui.tui.cli.launch", *app_args])
    if not is_loopback(args.host):
        warn([f"serving on {args.host}: anyone who reaches port {args.port} runs agents as you"])
    try:
        GuardedServer(command, host=args.host, port=args.port, title="agentui").serve()
    except OSError as exc:  # the port is taken, the address is not this machine's, ...
        return fail(f"cannot serve on {args.host}:{args.port}: {exc.strerror or exc}")
    return 0


# -- sessions ----------------------------------------------------------------------------------


def _sessions(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui sessions",
        description=f"List saved sessions, oldest first (kept in {sessions_dir()}).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per session")
    args = parser.parse_args(argv)
    from agentui.core.session.store import list_sessions

    infos = list_sessions()
    if args.json:
        for info in infos:
            print(terminal_json(info.row()))  # a task may hold anything
        return 0
    if not infos:
        print(f"No sessions yet (they are kept in {sessions_dir()}).")
        return 0
    rows = [("ID", "STARTED", "STATUS", "AGENTS", "TOKENS", "TASK")]
    for info in infos:
        started = datetime.fromtimestamp(info.started).astimezone().strftime("%Y-%m-%d %H:%M")
        task = visible_controls(" ".join(info.task.split()) or info.problem)
        ident = visible_controls(info.id)  # from a file name, which may hold anything
        rows.append((ident, started, info.status, str(info.agents), f"{info.tokens:,}", task))
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    room = max(shutil.get_terminal_size((100, 24)).columns - sum(widths) - 10, 20)
    for row in rows:
        cells = [
            row[0].ljust(widths[0]),
            row[1].ljust(widths[1]),
            row[2].ljust(widths[2]),
            row[3].rjust(widths[3]),
            row[4].rjust(widths[4]),
            clipped(row[5], room),
        ]
        print("  ".join(cells).rstrip())
    return 0


def _load_session(reference: str) -> SessionLog:
    from agentui.core.session.reader import read_session
    from agentui.core.session.store import find_session

    log = read_session(find_session(reference))
    warn(log.warnings)
    return log


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui replay",
        description="Play a saved session back in the app, read-only, at its recorded pace.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument(
        "--speed",
        type=positive_seconds,
        default=1.0,
        metavar="X",
        help="how many times faster than recorded (default 1; long pauses are shortened)",
    )
    add_theme_option(parser)
    return parser


def _replay(argv: Sequence[str]) -> int:
    return _run_app(_build_replay, _replay_parser().parse_args(argv))


def _build_replay(args: argparse.Namespace) -> AgentUIApp:
    from agentui.core.config.settings import load_config

    loaded = load_config(setting_flags(args))
    log = _load_session(args.session)
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.replay_feed import ReplayFeed

    options: dict[str, Any] = {}
    _add_theme(options, AgentUIApp, loaded)
    return AgentUIApp(replay=ReplayFeed(log.events, args.speed), **options)


def _export(argv: Sequence[str]) -> int:
    from agentui.core.session.export import EXPORT_FORMATS, export_session

    parser = argparse.ArgumentParser(
        prog="agentui export",
        description="Write a session's agent tree, every agent's transcript and the monologue.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument("--format", choices=EXPORT_FORMATS, default="md", help="default md")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = export_session(_load_session(args.session), args.format)
    except AgentUIError as exc:
        return fail(str(exc))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).expanduser().write_text(text, "utf-8")
    except OSError as exc:
        return fail(f"cannot write {args.output}: {exc.strerror or exc}", 1)
    return 0


# -- config ------------------------------------------------------------------------------------


def _config(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui config", description="Where the config file is, and what is in effect."
    )
    commands = parser.add_subparsers(dest="command", required=True, metavar="path|show")
    commands.add_parser("path", help="print the config file's path")
    show = commands.add_parser(
        "show",
        help="every effective setting and where it came from",
        description="Every effective setting as TOML, with its source: default, file, "
        "env VARIABLE or flag --option. Options given here show their effect.",
    )
    add_setting_options(show)
    add_theme_option(show)
    show.add_argument("--no-monologue", action="store_true")
    args = parser.parse_args(argv)
    from agentui.core.config.settings import config_path, format_settings, load_config

    if args.command == "path":
        print(config_path())
        return 0
    try:
        loaded = load_config(setting_flags(args))
    except ConfigError as exc:
        return fail(str(exc))
    sys.stdout.write(visible_controls(format_settings(loaded)))  # values from a file
    from agentui.core.tools.sandbox_mode import choose_sandbox

    print(visible_controls(f"# {choose_sandbox().describe()}"))
    return 0


# -- profiles ----------------------------------------------------------------------------------


def _profiles(argv: Sequence[str]) -> int:
    from agentui.core.profiles.catalog import agents_dir, load_catalog

    directory = agents_dir()
    parser = argparse.ArgumentParser(
        prog="agentui profiles",
        description="List the agent profiles (built-in, and your own in "
        f"{directory}): name, kind (text, json object, json schema), where each came from, "
        "and the files that could not be loaded, with why.",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON document: the profiles and the bad files"
    )
    args = parser.parse_args(argv)
    from agentui.core.config.settings import load_config
    from agentui.core.tools.builtin import builtin_tools
    from agentui.core.tools.mcp.config import McpConfig
    from agentui.tui.cli.profiles import format_profiles, profiles_document

    catalog = load_catalog(directory)
    try:
        mcp = load_config().config.mcp
    except ConfigError:
        mcp = McpConfig()  # a bad config is reported by the commands that use it
    # An MCP server's tools are listed once it runs: names of a configured one are not missing.
    catalog.problems += catalog.naming_missing_tools(builtin_tools().names(), mcp.may_offer)
    if args.json:
        print(terminal_json(profiles_document(catalog, directory), indent=2))
        return 0
    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(visible_controls(format_profiles(catalog, directory, columns)))
    return 0


# -- scenes ------------------------------------------------------------------------------------


def _scenes(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui scenes",
        description="List the directed scenes agentui ships: name, title and characters "
        "(play one with agentui --scene NAME).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON document: the scenes")
    args = parser.parse_args(argv)
    from agentui.core.scene.scene_loading import shipped_scenes
    from agentui.tui.cli.scenes import format_scenes, scenes_document

    if args.json:
        print(terminal_json(scenes_document(shipped_scenes()), indent=2))
        return 0

    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(visible_controls(format_scenes(shipped_scenes(), columns)))
    return 0


# The network doors and interop: loaded only when named, so other commands never import them.
_COMMAND_MODULES = {
    "serve": "serve",
    "mcp": "mcp",
    "acp": "acp",
}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    commands: dict[str, Callable[[Sequence[str]], int]] = {
        "run": _run,
        "sessions": _sessions,
        "replay": _replay,
        "export": _export,
        "config": _config,
        "profiles": _profiles,
        "scenes": _scenes,
        "attach": _attach,
        "web": _web,
    }
    if argv and argv[0] in _COMMAND_MODULES:
        # Commands with a module of their own (each exposes `main(argv) -> int`).
        from importlib import import_module

        commands[argv[0]] = import_module(f".{_COMMAND_MODULES[argv[0]]}", __package__).main
    if argv and argv[0] in commands:
        if argv[0] != "attach":  # the app turns the collector on once its runtime runs
            start_collecting()
        if argv[0] not in ("attach", "replay"):  # commands with no screen in this terminal
            release_typed_keys()  # echo back: `run` may read the person's answers
        try:
            return commands[argv[0]](argv[1:])
        except BrokenPipeError:
            # The reader went away (`agentui sessions | head -1`): stop quietly, and keep
            # Python from failing again when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    return _app(argv, [*commands, *_COMMAND_MODULES])


if __name__ == "__main__":
    sys.exit(main())
