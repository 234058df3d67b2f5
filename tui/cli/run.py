"""`agentui run`: one task (or a scene) without the app; text, or one JSON event per line.

Exit status 0 when the root agent completed; answers come from --answer, then stdin.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.providers.scripted.defaults import default_pace
from agentui.tui.cli.options import (
    add_profile_option,
    add_provider_options,
    add_resume_option,
    add_scene_option,
    assembly_from,
    warn,
)
from agentui.tui.cli.profile_start import profile_start

# The runtime and the headless printer are imported once the options are good.
if TYPE_CHECKING:
    from agentui.core.agent.steps import StepRef
    from agentui.tui.cli.headless_command import Prepared
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
    from agentui.tui.cli.assemble import monologue_config
    from agentui.tui.cli.headless_command import RuntimeFactory, run_headless_command

    def prepare() -> Prepared:
        from agentui.tui.headless.run import run_headless

        assembly = assembly_from(args)
        start = profile_start(args)
        if args.scene is not None:
            from agentui.tui.cli.scene_start import new_scene

            start = new_scene(args.scene, assembly.loaded.config.scene)  # a bad one: exit 2

        async def run(make_runtime: RuntimeFactory) -> int:
            return await run_headless(
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

        return assembly, run

    return run_headless_command(prepare)


def _resumed(args: argparse.Namespace) -> int:
    """`--resume ID --rewind AGENT@STEP`: the session goes on from that step (rewind_run.py)."""
    from dataclasses import replace

    from agentui.tui.cli.headless_command import RuntimeFactory, run_headless_command
    from agentui.tui.cli.rewind_run import resumed_for_rewind, run_rewound

    def prepare() -> Prepared:
        plan = resumed_for_rewind(args.resume)
        warn(plan.log.warnings)

        async def run(make_runtime: RuntimeFactory) -> int:  # its runtimes adopt the session
            return await run_rewound(
                make_runtime, plan, args.rewind, json_output=args.json, answers=args.answer,
                steers=args.steer, stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
            )  # fmt: skip

        return replace(assembly_from(args), resume=plan), run

    return run_headless_command(prepare)
