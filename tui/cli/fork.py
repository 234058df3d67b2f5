"""`agentui fork ID AGENT@STEP`: a new session whose root, NAME~1, starts from a copy of a saved
agent's conversation at one of its steps, and runs it headless (as `agentui run` prints).

`agentui steps ID AGENT` lists the steps. The fork runs on the provider and model the options
pick (by default as `agentui run` picks them: the offline scripted model without an API key),
under the agent's instructions at that step or those of `--instructions FILE`, with the agent's
profile (its tools, model, contract and budget) when it had one. Tool results
before the step are in the copy, so they are not run again; the calls of a model answer that
is the step itself run anew. Its `agent:forked` event names the session and step it came from.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.providers.scripted.defaults import default_pace
from agentui.tui.cli.options import add_provider_options, assembly_from, warn

if TYPE_CHECKING:
    from agentui.core.runtime import Runtime
    from agentui.tui.cli.headless_command import Prepared


def fork_parser() -> argparse.ArgumentParser:
    from agentui.tui.cli.run import _step_ref

    parser = argparse.ArgumentParser(
        prog="agentui fork",
        description="Start a new session from a saved agent's conversation at one of its "
        "steps (agentui steps ID AGENT lists them) and run it. Exit status 0 when it completed.",
    )
    parser.add_argument("session", help="the session: an id, the start of one, or last")
    parser.add_argument("step", type=_step_ref, metavar="AGENT@STEP", help="e.g. main@3")
    parser.add_argument(
        "--instructions", metavar="FILE", help="run the fork under the instructions in FILE"
    )
    parser.add_argument("--json", action="store_true", help="print one JSON event per line")
    parser.add_argument(
        "--answer", action="append", default=[], metavar="TEXT",
        help="answer to the next question an agent asks (repeatable); then stdin is read",
    )  # fmt: skip
    add_provider_options(parser, default_pace=default_pace())
    return parser


def main(argv: Sequence[str]) -> int:
    args = fork_parser().parse_args(argv)
    from agentui.core.agent.steps import ForkOrigin
    from agentui.core.session.fold import fold_session
    from agentui.core.session.saved_steps import all_steps, find_agent
    from agentui.tui.cli.headless_command import (
        RuntimeFactory,
        read_instructions,
        run_headless_command,
    )
    from agentui.tui.cli.sessions import load_session
    from agentui.tui.headless.run import run_headless

    def prepare() -> Prepared:
        log = load_session(args.session)
        agent = find_agent(fold_session(log, transcripts=False), args.step.agent)
        kept, messages = all_steps(log.events)[agent.id].conversation_at(args.step.step)
        instructions = kept if args.instructions is None else read_instructions(args.instructions)
        origin = ForkOrigin(agent.id, agent.name, args.step.step, session=log.id)

        def start(runtime: Runtime) -> str:
            # The origin's profile (its tools, model, contract and budget) holds for the fork,
            # as it does for a fork in the run; one no longer here is said, not dropped quietly.
            profile = agent.profile
            if profile is not None and profile not in runtime.profiles:
                warn([f"{agent.name}'s profile {profile!r} is not here now: the fork runs "
                      "without it (its tools, contract and budget)"])  # fmt: skip
                profile = None
            return runtime.start_from(
                agent.task, instructions, messages, origin=origin, profile=profile
            )

        async def run(make_runtime: RuntimeFactory) -> int:
            return await run_headless(
                make_runtime, agent.task, json_output=args.json, answers=args.answer,
                stdin=sys.stdin, stdout=sys.stdout, stderr=sys.stderr, start=start,
            )  # fmt: skip

        return assembly_from(args), run

    return run_headless_command(prepare)
