"""`agentui export [ID|last]`: a session's agent tree, every agent's transcript and the
monologue, as markdown, JSON or a scene's rounds."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from agentui.core.session.naming import LAST
from agentui.core.support.errors import AgentUIError
from agentui.tui.cli.options import fail


def main(argv: Sequence[str]) -> int:
    from agentui.core.session.export import EXPORT_FORMATS, export_session
    from agentui.tui.cli.sessions import load_session

    parser = argparse.ArgumentParser(
        prog="agentui export",
        description="Write a session's agent tree, every agent's transcript and the monologue.",
    )
    parser.add_argument("session", nargs="?", default=LAST, help="id, start of one, or last")
    parser.add_argument("--format", choices=EXPORT_FORMATS, default="md", help="default md")
    parser.add_argument("-o", "--output", metavar="FILE", help="write here (default: stdout)")
    args = parser.parse_args(argv)
    try:
        text = export_session(load_session(args.session), args.format)
    except AgentUIError as exc:
        return fail(str(exc))
    if args.output is None:
        sys.stdout.write(text)
        return 0
    try:
        Path(args.output).expanduser().write_text(text, "utf-8")
    except OSError as exc:
        return fail(f"cannot write {args.output}: {exc.strerror or exc}", 1)
    return 0
