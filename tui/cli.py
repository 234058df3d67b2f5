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
    agentui --version

Settings come from the config file, then AGENTUI_* environment variables, then flags (see
core/config.py). Without --provider, the first API key set picks the provider (Anthropic,
OpenAI, Google), else the offline scripted model runs. The app and `run` record a session unless `--no-session`. Textual is imported only when
a screen opens, so headless runs and the other commands start fast.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

import anyio

from agentui.core.config import (
    ConfigError,
    Flag,
    LoadedConfig,
    PositiveSeconds,
    Seconds,
    checked_number,
    format_settings,
    load_config,
)
from agentui.core.errors import AgentUIError
from agentui.core.providers.anthropic.defaults import (
    DEFAULT_MODEL,
    DEFAULT_NARRATOR_MODEL,
    DEFAULT_THINKING_BUDGET,
    DEFAULT_TIMEOUT_S,
    MIN_THINKING_BUDGET,
)
from agentui.core.providers.openai.defaults import DEFAULT_MODEL as OPENAI_DEFAULT_MODEL
from agentui.core.session.naming import LAST, sessions_dir
from agentui.core.terminal_text import visible_controls

# What one command alone needs (the runtime and its assembly, resume, reading and listing
# sessions, the app, headless) is imported where that command runs.
if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.core.session.reader import SessionLog
    from agentui.core.session.resume import ResumePlan

    from .app import AgentUIApp
    from .assemble import Assembly
    from .headless import Steer
    from .scene_start import SceneStarter


def _thinking_budget(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a whole number: {text!r}") from None
    if value != 0 and value < MIN_THINKING_BUDGET:
        raise argparse.ArgumentTypeError(
            f"at least {MIN_THINKING_BUDGET} tokens, or 0 for no thinking (got {value})"
        )
    return value


def _positive_seconds(text: str) -> float:
    return _number(text, PositiveSeconds)


def _seconds(text: str) -> float:
    return _number(text, Seconds)


def _number(text: str, kind: Any) -> Any:
    """Checked as the settings' numbers are: finite and in range (core/config.py)."""
    try:
        return checked_number(text, kind)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _add_setting_options(parser: argparse.ArgumentParser) -> None:
    """Options that override a setting of the config file (and its environment variable)."""
    model = parser.add_argument_group("model (override the config file and AGENTUI_* variables)")
    model.add_argument(
        "--provider",
        metavar="NAME",
        help="scripted, anthropic, openai, google, or replay:DIR (default: the provider of "
        "the first key set: ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or "
        "GOOGLE_API_KEY; else scripted)",
    )
    model.add_argument(
        "--base-url",
        metavar="URL",
        help="the provider's endpoint, e.g. a local OpenAI-compatible server "
        "(http://localhost:11434/v1 for Ollama); default: OPENAI_BASE_URL, "
        "ANTHROPIC_BASE_URL or GOOGLE_GEMINI_BASE_URL, else the public API",
    )
    model.add_argument(
        "--model",
        metavar="ID",
        help=f"model id, or haiku / sonnet / opus (default on Claude: {DEFAULT_MODEL}; on "
        f"OpenAI: {OPENAI_DEFAULT_MODEL}; a local server's model must be named)",
    )
    model.add_argument(
        "--narrator-model",
        metavar="ID",
        help=f"model that writes the monologue (default on Claude: {DEFAULT_NARRATOR_MODEL})",
    )
    steering = parser.add_argument_group("workflow and approvals")
    steering.add_argument(
        "--workflow",
        choices=("six-step", "plain"),
        help="six-step: clarify, ask, split into subagents, work, resolve (default); "
        "plain: the bare agentic loop",
    )
    steering.add_argument(
        "--yes",
        action="store_const",
        const="yes",
        dest="approval_policy",
        help="run tools that need approval (the python tool) without asking",
    )
    limits = parser.add_argument_group("limits (override the config file's [limits])")
    limits.add_argument("--max-iterations", type=int, metavar="N")
    limits.add_argument("--tool-timeout", type=_positive_seconds, metavar="SECONDS")


def _add_provider_options(parser: argparse.ArgumentParser, *, default_pace: float) -> None:
    _add_setting_options(parser)
    claude = parser.add_argument_group("network models (Claude, OpenAI, Gemini)")
    claude.add_argument(
        "--thinking-budget",
        type=_thinking_budget,
        default=DEFAULT_THINKING_BUDGET,
        metavar="TOKENS",
        help="tokens for thinking, 0 for none: on Claude the budget of models before 4.6, "
        "room on top of the answer's for later ones; on Gemini its budget, its thoughts shown "
        "(0: the least its model takes); on OpenAI room for reasoning "
        f"(default {DEFAULT_THINKING_BUDGET})",
    )
    claude.add_argument(
        "--timeout",
        type=_positive_seconds,
        default=DEFAULT_TIMEOUT_S,
        metavar="SECONDS",
        help=f"longest wait for the API to send more before a request fails "
        f"(default {DEFAULT_TIMEOUT_S:g})",
    )
    claude.add_argument(
        "--record",
        metavar="DIR",
        help="save every model exchange as a JSON file in DIR (play back: --provider replay:DIR)",
    )
    scripted = parser.add_argument_group("offline scripted model")
    scripted.add_argument("--script", metavar="FILE", help="play this JSON/TOML script")
    scripted.add_argument(
        "--pace",
        type=_seconds,
        default=default_pace,
        metavar="SECONDS",
        help=f"seconds between streamed chunks (default {default_pace:g})",
    )
    parser.add_argument(
        "--no-session",
        action="store_true",
        help=f"do not record this run as a session (they are kept in {sessions_dir()})",
    )


def _add_theme_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--theme", metavar="NAME", help="the theme to draw with (default: the last one picked)"
    )


def _app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui",
        description="Run and steer trees of LLM agents in your terminal. Other commands: "
        "run (headless), sessions, replay, export, config, profiles, scenes; "
        "`agentui COMMAND --help`.",
    )
    parser.add_argument("task", nargs="?", help="the task to start with (asked for when omitted)")
    _add_scene_option(parser)
    _add_profile_option(parser)
    parser.add_argument("--version", action=_Version, nargs=0, help="show the version and exit")
    parser.add_argument(
        "--resume",
        nargs="?",
        const=LAST,
        metavar="ID",
        help="reopen a saved session: `last` (the default), an id or the start of one",
    )
    parser.add_argument(
        "--no-monologue",
        action="store_true",
        help="do not narrate the agents' work in the sidebar (it is on by default)",
    )
    _add_theme_option(parser)
    _add_provider_options(parser, default_pace=0.02)
    return parser


def _add_scene_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--scene",
        metavar="NAME|FILE",
        help="play a directed scene instead of a task: a shipped one (`agentui scenes` lists "
        "them) or the path of a .toml scene file",
    )


def _add_profile_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--profile",
        metavar="NAME",
        help="the agent profile the task's agent runs with (`agentui profiles` lists them)",
    )


def _profile_start(args: argparse.Namespace) -> Callable[[Runtime], str] | None:
    """The task's agent started with `--profile` (None without it); the name is looked up when
    the runtime, which loads the profiles, starts it."""
    if args.profile is None:
        return None
    if args.task is None or args.scene is not None:
        raise AgentUIError(
            "--profile names the profile of a TASK's agent: give a task, not --scene"
        )
    task, profile = args.task, args.profile
    return lambda runtime: runtime.start(task, profile=profile)


class _Version(argparse.Action):
    """--version: the installed version is looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from agentui import core

        print(f"agentui {core.__version__}")
        parser.exit()


def _steer(spec: str) -> Steer:
    from .headless import Steer

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
    _add_scene_option(parser)
    _add_profile_option(parser)
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
    _add_provider_options(parser, default_pace=0.0)
    return parser


# -- settings ----------------------------------------------------------------------------------


def _dest(option: str) -> str:
    return {"--yes": "approval_policy"}.get(option, option[2:].replace("-", "_"))


def _flags(args: argparse.Namespace) -> dict[str, Flag]:
    """The settings the person gave as options (absent ones are None and left out)."""
    options = {
        "provider": "--provider",
        "model": "--model",
        "base_url": "--base-url",
        "narrator_model": "--narrator-model",
        "theme": "--theme",
        "limits.max_iterations": "--max-iterations",
        "limits.tool_timeout_s": "--tool-timeout",
        "workflow": "--workflow",
        "approval.policy": "--yes",
    }
    flags = {
        key: Flag(option, getattr(args, _dest(option), None)) for key, option in options.items()
    }
    if getattr(args, "no_monologue", False):
        flags["monologue.enabled"] = Flag("--no-monologue", False)
    return {key: flag for key, flag in flags.items() if flag.value is not None}


def _assembly(args: argparse.Namespace) -> Assembly:
    """The settings (config file, AGENTUI_* variables, options) and this run's own options,
    settled on a provider. Raises ConfigError for a bad setting."""
    from .assemble import RunOptions, settle

    options = RunOptions(
        script=args.script,
        pace_s=args.pace,
        thinking_budget=args.thinking_budget,
        timeout_s=args.timeout,
        record=args.record,
        keep_session=not args.no_session,
    )
    return settle(load_config(_flags(args)), options)


def _fail(message: str, code: int = 2) -> int:
    for line in message.splitlines():  # a message may quote a file or a model
        print(f"agentui: {visible_controls(line)}", file=sys.stderr)
    return code


def _warn(warnings: Sequence[str]) -> None:
    for warning in warnings:
        print(f"agentui: warning: {visible_controls(warning)}", file=sys.stderr)


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

    from .assemble import build_provider, build_runtime, monologue_config

    made: list[Runtime] = []
    try:
        assembly = _assembly(args)
        provider = build_provider(assembly)  # fails fast on a bad script or option
        if assembly.notice:
            print(f"agentui: {assembly.notice}", file=sys.stderr)
        start = _profile_start(args)
        if args.scene is not None:
            from .scene_start import new_scene

            start = new_scene(args.scene, assembly.loaded.config.scene)  # a bad one: exit 2
        from agentui.core.termination import end_on_termination_signals

        from .headless import run_headless

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
        return _fail(str(exc))
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        return 130
    for runtime in made:
        if isinstance(runtime, RecordingRuntime) and runtime.session.error:
            _warn([runtime.session.error])
    return code


# -- the app -----------------------------------------------------------------------------------


def _run_app(build: Callable[[argparse.Namespace], AgentUIApp], args: argparse.Namespace) -> int:
    try:
        app = build(args)
    except AgentUIError as exc:
        return _fail(str(exc))
    from agentui.core.termination import end_on_termination_signals

    # SIGTERM: quit in order, as the Quit dialog does; SIGHUP (the terminal is gone): exit.
    end_on_termination_signals(app.stop_in_order, exit_on_hangup=True)
    app.run()
    _say_where_the_session_is(app)
    return app.return_code or 0


def _say_where_the_session_is(app: AgentUIApp) -> None:
    """After the screen is gone: which session this was, and how to open it again."""
    session = getattr(app.runtime, "session", None)
    session_id = getattr(session, "session_id", None)
    if isinstance(session_id, str) and app.model.agents:
        print(
            f"agentui: session {session_id} saved; `agentui --resume {session_id}` reopens it",
            file=sys.stderr,
        )


def _app(argv: Sequence[str]) -> int:
    return _run_app(_build_app, _app_parser().parse_args(argv))


def _build_app(args: argparse.Namespace) -> AgentUIApp:
    """The app the parsed options describe (resumed, when `--resume`); raises AgentUIError."""
    from .assemble import build_provider, build_runtime, monologue_config, status_notice

    assembly = _assembly(args)
    plan = None
    if args.resume is not None:
        from agentui.core.session.resume import open_for_resume

        plan = open_for_resume(args.resume)
    assembly = replace(assembly, resume=plan)
    provider = build_provider(assembly)  # fails fast on a bad script or option, before the screen
    notice = ""
    if plan is not None:
        _warn(plan.log.warnings)
        count = len(plan.interrupted)
        interrupted = f": {count} interrupted agent{'s' if count != 1 else ''}" if count else ""
        notice = f"resumed {plan.log.id}{interrupted}"
    from .app import AgentUIApp  # Textual loads only for the app

    profile_start = _profile_start(args)
    options: dict[str, Any] = {
        "initial_task": args.task if profile_start is None else None,
        "notice": notice,
        # the status bar says why this provider runs: no key (offline), or the key that picked it
        "provider_notice": status_notice(assembly),
        "monologue": monologue_config(assembly, enabled=assembly.loaded.config.monologue.enabled),
        "provider_label": (provider.name, provider.model),
    }
    from .provider_switch import ProviderSwitch  # the palette's "Switch provider/model…"

    options["provider_switch"] = ProviderSwitch(assembly, started_with=provider)
    if plan is not None:
        options["state"] = plan.state
    options["start_with"] = profile_start or _scene_start(args, assembly, plan)
    _add_theme(options, AgentUIApp, assembly.loaded)
    return AgentUIApp(runtime_factory=lambda: build_runtime(assembly, provider), **options)


def _scene_start(
    args: argparse.Namespace, assembly: Assembly, plan: ResumePlan | None
) -> SceneStarter | None:
    """The scene `--scene` names, or the one a resumed session left unfinished; else None."""
    from .scene_start import new_scene, unfinished_scene_of

    settings = assembly.loaded.config.scene
    if args.scene is not None:
        if args.task is not None:
            raise AgentUIError("give a task or --scene, not both")
        return new_scene(args.scene, settings)
    return unfinished_scene_of(plan.state, settings) if plan is not None else None


def _add_theme(options: dict[str, Any], app_class: type, loaded: LoadedConfig) -> None:
    theme = loaded.config.theme
    if theme is not None and _accepts(app_class, "theme"):
        _check_theme(theme)
        options["theme"] = theme


def _check_theme(name: str) -> None:
    """A theme named in config, a variable or --theme must exist: a bad setting, like any
    other, stops before the screen opens (exit 2) instead of drawing something else."""
    from textual.theme import BUILTIN_THEMES

    from .theme_files import load_themes

    themes, _ = load_themes()  # a broken file's warning shows in the app
    known = sorted({theme.name for theme in themes} | set(BUILTIN_THEMES))
    if name not in known:
        raise AgentUIError(f"unknown theme {name!r}; the themes are: {', '.join(known)}")


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
            print(
                json.dumps(
                    {
                        "id": info.id,
                        "started": info.started,
                        "task": info.task,
                        "status": info.status,
                        "agents": info.agents,
                        "tokens": info.tokens,
                        "path": str(info.path),
                        "problem": info.problem,
                    },
                    ensure_ascii=False,
                )
            )
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
            row[5] if len(row[5]) <= room else row[5][: room - 1] + "…",
        ]
        print("  ".join(cells).rstrip())
    return 0


def _load_session(reference: str) -> SessionLog:
    from agentui.core.session.reader import read_session
    from agentui.core.session.store import find_session

    log = read_session(find_session(reference))
    _warn(log.warnings)
    return log


def _replay_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui replay",
        description="Play a saved session back in the app, read-only, at its recorded pace.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument(
        "--speed",
        type=_positive_seconds,
        default=1.0,
        metavar="X",
        help="how many times faster than recorded (default 1; long pauses are shortened)",
    )
    _add_theme_option(parser)
    return parser


def _replay(argv: Sequence[str]) -> int:
    return _run_app(_build_replay, _replay_parser().parse_args(argv))


def _build_replay(args: argparse.Namespace) -> AgentUIApp:
    loaded = load_config(_flags(args))
    log = _load_session(args.session)
    from .app import AgentUIApp  # Textual loads only for the app
    from .replay_feed import ReplayFeed

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
        return _fail(str(exc))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).expanduser().write_text(text, "utf-8")
    except OSError as exc:
        return _fail(f"cannot write {args.output}: {exc.strerror or exc}", 1)
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
    _add_setting_options(show)
    _add_theme_option(show)
    show.add_argument("--no-monologue", action="store_true")
    args = parser.parse_args(argv)
    if args.command == "path":
        from agentui.core.config import config_path

        print(config_path())
        return 0
    try:
        loaded = load_config(_flags(args))
    except ConfigError as exc:
        return _fail(str(exc))
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
    parser.parse_args(argv)
    from agentui.core.tools.builtin import builtin_tools

    from .profile_list import format_profiles

    catalog = load_catalog(directory)
    catalog.problems += catalog.naming_missing_tools(builtin_tools().names())
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
    parser.parse_args(argv)
    from agentui.core.scene.scene_loading import shipped_scenes

    from .scene_list import format_scenes

    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(visible_controls(format_scenes(shipped_scenes(), columns)))
    return 0


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
    }
    if argv and argv[0] in commands:
        try:
            return commands[argv[0]](argv[1:])
        except BrokenPipeError:
            # The reader went away (`agentui sessions | head -1`): stop quietly, and keep
            # Python from failing again when it flushes stdout at exit.
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            return 1
    return _app(argv)


if __name__ == "__main__":
    sys.exit(main())
