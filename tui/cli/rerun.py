"""`agentui rerun ID`: a saved session's task run again, headless, into a new session, with the
person's steers, modifies, cancels, deletes and answers given at the same moments, counted in
steps, not in wall time (core/session/rerun_plan.py defines how a moment is matched).

It runs on the provider and model the options pick (as `agentui run` picks them: the offline
scripted model without an API key), through the old run's workflow unless `--workflow` says
otherwise, under the old root's instructions or those of `--instructions FILE`. Roots the
person started after the first (more tasks typed in the app, forks) start again at the step
the run had made when they were started. Then
`agentui diff ID NEW` compares the two. A directed scene is played again from the scene the
session recorded, each round's input as the person gave it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.providers.scripted.defaults import default_pace
from agentui.tui.cli.options import add_provider_options, assembly_from

if TYPE_CHECKING:
    from agentui.tui.cli.headless_command import Prepared


def rerun_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui rerun",
        description="Run a saved session's task again, into a new session, giving the "
        "person's steers, modifies and answers at the same steps (after main@3: once main "
        "has its step 3, before its next model call), and the tasks typed after the first at "
        "the step they were typed at. Exit status 0 when every root completed.",
    )
    parser.add_argument("session", help="the session: an id, the start of one, or last")
    parser.add_argument(
        "--instructions", metavar="FILE", help="run the root under the instructions in FILE"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON event per line "
                        "(a question the old run did not answer is declined)")  # fmt: skip
    parser.add_argument(
        "--answer", action="append", default=[], metavar="TEXT",
        help="answer to the next question the old run did not answer (repeatable); "
        "then stdin is read",
    )  # fmt: skip
    add_provider_options(parser, default_pace=default_pace())
    return parser


def main(argv: Sequence[str]) -> int:
    args = rerun_parser().parse_args(argv)
    from agentui.core.session.rerun_plan import rerun_plan
    from agentui.tui.cli.headless_command import (
        RuntimeFactory,
        read_instructions,
        run_headless_command,
    )
    from agentui.tui.cli.rerun_run import run_rerun
    from agentui.tui.cli.sessions import load_session

    def prepare() -> Prepared:
        log = load_session(args.session)
        plan = rerun_plan(log.events, log.id)
        instructions = None if args.instructions is None else read_instructions(args.instructions)
        if args.workflow is None:  # the old run's, whatever the config now says
            args.workflow = "six-step" if plan.six_step else "plain"
        assembly = assembly_from(args)

        async def run(make_runtime: RuntimeFactory) -> int:
            return await run_rerun(
                make_runtime, plan, instructions=instructions, json_output=args.json,
                scene_settings=assembly.loaded.config.scene, answers=args.answer,
                stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
            )  # fmt: skip

        return assembly, run

    return run_headless_command(prepare)
