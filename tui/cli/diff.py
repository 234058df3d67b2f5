"""`agentui diff A B [--json]`: two runs compared, per agent, their steps aligned and the first
point where they part marked (core/session/run_diff.py says how agents and steps are matched).

A and B are sessions (an id, the start of one, or last), or `SESSION:AGENT` to compare one
agent of each: `agentui diff last:main~1 last:main` compares a fork with its origin. Exit
status 0 when they did the same work, 1 when they differ, 2 when one cannot be read.
"""

from __future__ import annotations

import argparse
import gc
import json
import shutil
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import fail

if TYPE_CHECKING:
    from agentui.core.session.run_diff import RunDiff
    from agentui.core.session.run_outline import AgentOutline, RunOutline

MIN_WIDTH = 60


def diff_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui diff",
        description="Compare two runs: per agent, the steps aligned, tool calls and their "
        "arguments, answers, tokens, cost and time, and the first point where they diverge. "
        "Exit status 0 when they did the same work, 1 when they differ.",
    )
    parser.add_argument("a", metavar="A", help="a session (id, start of one, or last), or "
                        "SESSION:AGENT for one agent of it (e.g. last:main~1)")  # fmt: skip
    parser.add_argument("b", metavar="B", help="the other, the same way")
    parser.add_argument("--json", action="store_true", help="one JSON document")
    return parser


def main(argv: Sequence[str]) -> int:
    args = diff_parser().parse_args(argv)
    try:
        result = compare(args.a, args.b)
    except AgentUIError as exc:
        return fail(str(exc))
    # Two logs and their outline live until the command ends and hold no cycle: out of the
    # collector's way (it would walk them all at its next full pass, long for a long log).
    gc.freeze()
    out = sys.stdout
    if args.json:
        from agentui.tui.cli.diff_json import diff_document

        out.write(json.dumps(diff_document(result), ensure_ascii=False) + "\n")
    else:
        from agentui.tui.cli.diff_text import diff_lines

        width = max(MIN_WIDTH, shutil.get_terminal_size((80, 24)).columns)
        for line in diff_lines(result, width):
            out.write(line + "\n")
    return 1 if result.diverged else 0


def compare(a: str, b: str) -> RunDiff:
    """The two references read and compared; raises AgentUIError, in words."""
    from agentui.core.session.run_diff import RunDiff, diff_agents, diff_runs

    a_session, _, a_agent = a.partition(":")
    b_session, _, b_agent = b.partition(":")
    if bool(a_agent) != bool(b_agent):
        raise AgentUIError("compare two sessions, or two agents (SESSION:AGENT, both of them)")
    outlines: dict[str, RunOutline] = {}
    a_run = _outline(a_session, outlines)
    b_run = _outline(b_session, outlines)
    if not a_agent:
        return diff_runs(a_run, b_run)
    one, other = _agent(a_run, a_agent), _agent(b_run, b_agent)
    return RunDiff(a_run, b_run, agents=[diff_agents(one, other)])


def _outline(reference: str, read: dict[str, RunOutline]) -> RunOutline:
    """A session's outline, read once however often it is named."""
    from agentui.core.session.run_outline import run_outline
    from agentui.core.session.store import find_session
    from agentui.tui.cli.sessions import load_session

    key = find_session(reference).stem
    if key not in read:
        log = load_session(reference)
        read[key] = run_outline(log.events, log.id)
    return read[key]


def _agent(run: RunOutline, name: str) -> AgentOutline:
    found = run.agent(name)
    if found is None:
        names = ", ".join(run.agents) or "none"
        raise AgentUIError(f"session {run.session} has no agent {name!r}; its agents: {names}")
    return found
