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
    add_resume_option,
    add_scene_option,
    assembly_from,
    fail,
    warn,
)
from agentui.tui.cli.profile_start import profile_start

# The runtime and the headless printer are imported once the options are good.
if TYPE_CHECKING:
    from agentui.core.agent.steps import StepRef
    from agentui.core.runtime import Runtime
    from agentui.tui.headless.run import Steer


def _steer(spec: str) -> Steer:
    from agentui.tui.headless.run import Steer

    try:
        return Steer.parse(spec)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _step_ref(text: str) -> StepRef:
    from agentui.core.agent.steps import StepRef

    try:
        return StepRef.parse(text)
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
    add_resume_option(parser, "go on from")
    parser.add_argument(
        "--rewind",
        type=_step_ref,
        metavar="AGENT@STEP",
        help="with --resume: take agent AGENT (a name or id) back to step STEP (`agentui "
        "steps ID AGENT` lists them) and run it on from there; --steer for it goes with it",
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
    if (args.resume is None) != (args.rewind is None):
        parser.error("--resume ID and --rewind AGENT@STEP go together: a headless resume goes on "
                     "from a step")  # fmt: skip
    if args.resume is not None:
        if args.task is not None or args.scene is not None or args.profile is not None:
            parser.error("--resume goes on from the session's own task: give no TASK, --scene "
                         "or --profile")  # fmt: skip
        return _resumed(args)
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


def _resumed(args: argparse.Namespace) -> int:
    """`--resume ID --rewind AGENT@STEP`: the session goes on from that step (rewind_run.py)."""
    from dataclasses import replace

    from agentui.core.support.termination import end_on_termination_signals
    from agentui.tui.cli.assemble import build_provider, build_runtime
    from agentui.tui.cli.rewind_run import resumed_for_rewind, run_rewound

    made: list[Runtime] = []
    try:
        plan = resumed_for_rewind(args.resume)
        warn(plan.log.warnings)
        assembly = replace(assembly_from(args), resume=plan)
        provider = build_provider(assembly)
        if assembly.notice:
            print(f"agentui: {assembly.notice}", file=sys.stderr)

        def make_runtime() -> Runtime:
            runtime = build_runtime(assembly, provider)  # adopts the session's agents
            made.append(runtime)
            return runtime

        end_on_termination_signals()
        code = anyio.run(
            lambda: run_rewound(
                make_runtime, plan, args.rewind, json_output=args.json, answers=args.answer,
                steers=args.steer, stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
            )
        )  # fmt: skip
    except AgentUIError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        return 130
    from agentui.core.session.recording import RecordingRuntime

    for runtime in made:
        if isinstance(runtime, RecordingRuntime) and runtime.session.error:
            warn([runtime.session.error])
    return code
