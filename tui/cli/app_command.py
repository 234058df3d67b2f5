"""`agentui [TASK]`: the app in this terminal, on a new task, a scene or a resumed session.

Its first frame is drawn from the few settings it needs, read as given when they are plainly
valid (first_frame.py); the rest are validated after it (runtime_start.py). A resumed session
or a scene is read before the screen opens, and the settings with it.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from agentui.core.providers.scripted.defaults import default_pace
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.app_keys import key_map_from
from agentui.tui.cli.app_run import run_app
from agentui.tui.cli.command_typo import mistyped_command
from agentui.tui.cli.early_keys import release_typed_keys, unechoed_terminal
from agentui.tui.cli.options import (
    add_profile_option,
    add_provider_options,
    add_resume_option,
    add_scene_option,
    add_theme_option,
    assembly_from,
    fail,
    setting_flags,
    warn,
)
from agentui.tui.cli.profile_start import check_profile_use

# The runtime, resume and the app itself are imported once the app is being built.
if TYPE_CHECKING:
    from agentui.core.config.sources import GatheredSettings
    from agentui.core.session.resume_plan import ResumePlan
    from agentui.core.state import RunState
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.runtime_start import RuntimeStart
    from agentui.tui.cli.assemble import Assembly
    from agentui.tui.cli.scene_start import SceneStarter


def app_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui",
        description="Run and steer trees of LLM agents in your terminal. Other commands: "
        "run (headless), sessions, replay, steps, fork, rerun, diff, export, search, config, "
        "profiles, scenes, serve, "
        "attach, web, mcp, acp; "
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


class _Version(argparse.Action):
    """--version: the installed version is looked up only when asked for."""

    def __call__(self, parser: argparse.ArgumentParser, *args: object) -> None:
        from agentui import core

        print(f"agentui {core.__version__}")
        parser.exit()


def main(argv: Sequence[str], commands: Sequence[str]) -> int:
    """The app; `commands` are the other commands' names (a task that looks like one
    mistyped is said, not started)."""
    # A command mistyped before its own arguments (`agentui stpes last`) is said as a typo,
    # not as the app's "unrecognized arguments"; `agentui -- WORD` says WORD is the task.
    first = argv[0] if argv and not argv[0].startswith("-") else None
    typo = None if "--" in argv else mistyped_command(first, commands)
    if typo is not None and len(argv) > 1:
        release_typed_keys()
        return fail(typo)
    args = app_parser().parse_args(argv)
    typo = None if "--" in argv else mistyped_command(args.task, commands)
    if typo is not None:
        release_typed_keys()
        return fail(typo)
    with unechoed_terminal():  # keys typed while it starts are the app's, not the shell's
        return run_app(build_app, args)


def build_app(args: argparse.Namespace) -> AgentUIApp:
    """The app the parsed options describe (resumed, when `--resume`); raises AgentUIError."""
    from agentui.core.config.sources import gather_settings
    from agentui.tui.cli.first_frame import (
        first_frame,
        plain_frame_settings,
        validated_frame_settings,
    )
    from agentui.tui.cli.theme_setting import check_theme

    if args.script is not None:  # a path mistyped is said before the screen, as bad options are
        from agentui.core.providers.scripted.script_file import read_script

        read_script(Path(args.script))
    gathered = gather_settings(setting_flags(args))
    plain = plain_frame_settings(gathered)
    read_first = plain is None or args.scene is not None
    assembly = assembly_from(args, gathered) if read_first else None  # a bad setting: said first
    check_profile_use(args)
    if assembly is not None:
        frame = validated_frame_settings(assembly.loaded)
        start = _read_before_the_screen(args, assembly)
    else:
        assert plain is not None
        frame = plain
        start = _start_validating_after(args, gathered)
    first = first_frame(frame, script=args.script)
    if first.theme is not None:
        check_theme(first.theme, frame.theme_origin)
    key_map = key_map_from(gathered.data.get("keys"), gathered.origin("keys"))
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.parsed_css_cache import ParsedCss, cache_file
    from agentui.tui.app.textual_compat import parse_css_through

    runtime = start.runtime
    app = AgentUIApp(
        runtime_factory=runtime.runtime,
        # In the thread that loads the runtime's modules: the settings are validated there and
        # the provider built (an SDK is slow to import).
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
        key_map=key_map,
    )
    parse_css_through(app, ParsedCss.read(cache_file()))  # parsed at the last start, kept
    return app


class _AppStart(NamedTuple):  # not a dataclass: made in a quarter of the time (first_frame.py)
    """How the app starts: its runtime, and what was read before the screen opened."""

    runtime: RuntimeStart
    state: RunState | None = None  # a resumed session's
    notice: str = ""  # the session's (a resume)
    start_with: SceneStarter | None = None


def _read_before_the_screen(args: argparse.Namespace, assembly: Assembly) -> _AppStart:
    """A resumed session or a scene, read (and said, when wrong) before the screen opens."""
    from agentui.tui.app.runtime_start import RuntimeStart

    if args.resume is None:
        return _AppStart(RuntimeStart(lambda: assembly), start_with=_scene_start(args, assembly))
    plan, notice = _resumed(args)
    return _resumed_start(args, replace(assembly, resume=plan), notice)


def _start_validating_after(args: argparse.Namespace, gathered: GatheredSettings) -> _AppStart:
    """The settings validated after the first frame (the frame's own were plainly valid). A
    resumed session is still read before the screen opens (and said, when wrong); only one
    that left a scene unfinished needs the scene's settings at once."""
    from agentui.tui.app.runtime_start import RuntimeStart

    if args.resume is None:
        return _AppStart(RuntimeStart(lambda: assembly_from(args, gathered)))
    plan, notice = _resumed(args)
    if plan.state.scene_roots:
        return _resumed_start(args, replace(assembly_from(args, gathered), resume=plan), notice)
    return _AppStart(
        RuntimeStart(lambda: replace(assembly_from(args, gathered), resume=plan)),
        state=plan.state,
        notice=notice,
    )


def _resumed_start(args: argparse.Namespace, assembly: Assembly, notice: str) -> _AppStart:
    """The app on `assembly.resume`, its settings validated before the screen opened."""
    from agentui.tui.app.runtime_start import RuntimeStart

    plan = assembly.resume
    assert plan is not None
    return _AppStart(
        RuntimeStart(lambda: assembly),
        state=plan.state,
        notice=notice,
        start_with=_scene_start(args, assembly, plan),
    )


def _resumed(args: argparse.Namespace) -> tuple[ResumePlan, str]:
    """The session `--resume` names, its warnings said, and the status bar's notice."""
    from agentui.core.session.checkpoint_file import CheckpointReading
    from agentui.core.session.resume_target import session_to_resume

    path = session_to_resume(args.resume)
    # The app shows the fold and replays nothing: a checkpoint may stand in for the log. Its
    # file is read and checked in a thread while the plan's modules load.
    reading = CheckpointReading(path)
    from agentui.core.session.resume_open import show_found
    from agentui.tui.app.status_notices import resumed_notice
    from agentui.tui.cli.resume_notice import resume_outcome

    plan = show_found(path, reading)
    warn(plan.log.warnings)
    outcome = resume_outcome(plan, rows=False)
    return plan, resumed_notice(plan.log.id, outcome)


def _scene_start(
    args: argparse.Namespace, assembly: Assembly, plan: ResumePlan | None = None
) -> SceneStarter | None:
    """The scene `--scene` names, or the one a resumed session left unfinished; else None."""
    settings = assembly.loaded.config.scene
    if args.scene is not None:
        if args.task is not None:
            raise AgentUIError("give a task or --scene, not both")
        from agentui.tui.cli.scene_start import new_scene

        return new_scene(args.scene, settings)
    if plan is None or not plan.state.scene_roots:
        # No scene in the session: the scene's modules (and the runtime's they bring) load
        # after the first frame, with the runtime.
        return None
    from agentui.tui.cli.scene_start import unfinished_scene_of

    return unfinished_scene_of(plan.state, settings)
