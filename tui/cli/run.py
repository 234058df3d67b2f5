"""`agentui run`: one task (or a scene) without the app; text, or one JSON event per line.

Exit status 0 when the root agent completed; answers come from --answer, then stdin.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

import anyio

from agentui.core.providers.scripted.defaults import default_pace
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import (
    add_profile_option,
    add_provider_options,
    add_scene_option,
    assembly_from,
    fail,
    warn,
)
from agentui.tui.cli.profile_start import profile_start

# The runtime and the headless printer are imported once the options are good.
if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.tui.headless.run import Steer


def _steer(spec: str) -> Steer:
    from agentui.tui.headless.run import Steer

    try:
        return Steer.parse(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def run_parser() -> argparse.ArgumentParser:
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


def main(argv: Sequence[str]) -> int:
    parser = run_parser()
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
        start = profile_start(args)
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
