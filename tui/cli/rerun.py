"""`agentui rerun ID`: a saved session's task run again, headless, into a new session, with the
person's steers, modifies, cancels, deletes and answers given at the same moments, counted in
steps, not in wall time (core/session/rerun_plan.py defines how a moment is matched).

It runs on the provider and model the options pick (as `agentui run` picks them: the offline
scripted model without an API key), through the old run's workflow unless `--workflow` says
otherwise, under the old root's instructions or those of `--instructions FILE`. Then
`agentui diff ID NEW` compares the two. A directed scene is played again from the scene the
session recorded, each round's input as the person gave it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import anyio

from agentui.core.providers.scripted.defaults import default_pace
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import add_provider_options, assembly_from, fail, warn

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime


def rerun_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui rerun",
        description="Run a saved session's task again, into a new session, giving the "
        "person's steers, modifies and answers at the same steps (after main@3: once main "
        "has its step 3, before its next model call). Exit status 0 when the root completed.",
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
    from agentui.core.session.recording import RecordingRuntime
    from agentui.core.session.rerun_plan import rerun_plan
    from agentui.core.support.termination import end_on_termination_signals
    from agentui.tui.cli.assemble import build_provider, build_runtime
    from agentui.tui.cli.rerun_run import run_rerun
    from agentui.tui.cli.sessions import load_session

    made: list[Runtime] = []
    try:
        log = load_session(args.session)
        plan = rerun_plan(log.events, log.id)
        instructions = None if args.instructions is None else _read(args.instructions)
        if args.workflow is None:  # the old run's, whatever the config now says
            args.workflow = "six-step" if plan.six_step else "plain"
        assembly = assembly_from(args)
        provider = build_provider(assembly)
        if assembly.notice:
            print(f"agentui: {assembly.notice}", file=sys.stderr)

        def make_runtime() -> Runtime:
            runtime = build_runtime(assembly, provider)
            made.append(runtime)
            return runtime

        end_on_termination_signals()
        code = anyio.run(
            lambda: run_rerun(
                make_runtime, plan, instructions=instructions, json_output=args.json,
                scene_settings=assembly.loaded.config.scene, answers=args.answer,
                stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr,
            )
        )  # fmt: skip
    except AgentUIError as exc:
        return fail(str(exc))
    except KeyboardInterrupt:
        print("agentui: interrupted", file=sys.stderr)
        return 130
    for runtime in made:
        if isinstance(runtime, RecordingRuntime) and runtime.session.error:
            warn([runtime.session.error])
    return code


def _read(path: str) -> str:
    try:
        return Path(path).expanduser().read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentUIError(f"cannot read the instructions in {path}: {exc}") from None
