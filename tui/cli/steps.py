"""`agentui steps [ID|last] AGENT`: an agent's steps with their numbers, to pick one for
`agentui run --resume ID --rewind AGENT@STEP` or `agentui fork ID AGENT@STEP`.

One line a step: its number, its kind (task, model, tool, answer, steer; core/agent/steps.py),
and what it holds on one line; a step a rewind set aside is marked so (it stays in the log).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence

from agentui.core.session.naming import LAST
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.cli.options import fail


def steps_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui steps",
        description="List an agent's steps (each model answer, tool results, answer or steer) "
        "with their numbers: AGENT@STEP names one for --rewind and agentui fork.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument(
        "agent", nargs="?", default=None, help="name or id (default: the session's first root)"
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per step")
    return parser


def main(argv: Sequence[str]) -> int:
    args = steps_parser().parse_args(argv)
    from agentui.core.session.fold import fold_session
    from agentui.core.session.saved_steps import all_steps, find_agent
    from agentui.tui.cli.sessions import load_session

    try:
        log = load_session(args.session)
        state = fold_session(log, transcripts=False)
        roots = state.roots()
        if args.agent is None and not roots:
            return fail(f"session {log.id} has no agent")
        agent = find_agent(state, args.agent) if args.agent is not None else roots[0]
    except AgentUIError as exc:
        return fail(str(exc))
    steps = all_steps(log.events)[agent.id].steps
    out = sys.stdout
    if args.json:
        for step in steps:
            row = {"agent": agent.name, "agent_id": agent.id, "step": step.number,
                   "kind": step.kind, "seq": step.seq, "messages": step.messages,
                   "summary": step.summary, "set_aside": step.set_aside}  # fmt: skip
            out.write(json.dumps(row, ensure_ascii=False) + "\n")
        return 0
    if not steps:
        return fail(f"{agent.name} has no steps in session {log.id}", 1)
    out.write(visible_controls(f"{agent.name} ({agent.id}) in session {log.id}") + "\n")
    for step in steps:
        aside = "  (set aside by a rewind)" if step.set_aside else ""
        line = f"{agent.name}@{step.number:<4} {step.kind:<7} {step.summary}{aside}"
        out.write(visible_controls(line) + "\n")
    hint = (
        f"Go on from a step: agentui run --resume {log.id} --rewind {agent.name}@N; "
        f"or a new session from it: agentui fork {log.id} {agent.name}@N"
    )
    print(visible_controls(hint), file=sys.stderr)
    return 0
