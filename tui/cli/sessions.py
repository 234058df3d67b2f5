"""`agentui sessions`: the saved sessions, oldest first; and a saved session read by reference
(an id, the start of one, or `last`) for `replay` and `export`."""

from __future__ import annotations

import argparse
import shutil
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from agentui.core.session.naming import sessions_dir
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.cli.options import warn

if TYPE_CHECKING:
    from agentui.core.session.reader import SessionLog


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui sessions",
        description=f"List saved sessions, oldest first (kept in {sessions_dir()}).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per session")
    args = parser.parse_args(argv)
    from agentui.core.session.store import list_sessions

    infos = list_sessions()
    if args.json:
        for info in infos:
            print(terminal_json(info.row()))  # a task may hold anything
        return 0
    if not infos:
        print(f"No sessions yet (they are kept in {sessions_dir()}).")
        return 0
    rows = [("ID", "STARTED", "STATUS", "AGENTS", "TOKENS", "TASK")]
    for info in infos:
        task = visible_controls(" ".join(info.task.split()) or info.problem)
        if info.tasks > 1:  # a session holds every task typed in it: the first names it
            task = f"(+{info.tasks - 1} more) {task}"
        ident = visible_controls(info.id)  # from a file name, which may hold anything
        status = visible_controls(info.status)  # from the summary file, which may too
        rows.append(
            (ident, _started(info.started), status, str(info.agents), f"{info.tokens:,}", task)
        )
    widths = [max(len(row[i]) for row in rows) for i in range(5)]
    room = max(shutil.get_terminal_size((100, 24)).columns - sum(widths) - 10, 20)
    for row in rows:
        cells = [
            row[0].ljust(widths[0]),
            row[1].ljust(widths[1]),
            row[2].ljust(widths[2]),
            row[3].rjust(widths[3]),
            row[4].rjust(widths[4]),
            clipped(row[5], room),
        ]
        print("  ".join(cells).rstrip())
    warn([note for info in infos if (note := info.renamed_note()) is not None])
    return 0


def _started(timestamp: float) -> str:
    """A start time as the listing shows it; "?" for one no clock can show (a summary file
    that says 1e300 or nan)."""
    try:
        return datetime.fromtimestamp(timestamp).astimezone().strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):
        return "?"


def load_session(reference: str) -> SessionLog:
    """The session `reference` names, its warnings said; raises AgentUIError."""
    from agentui.core.session.reader import read_session
    from agentui.core.session.store import find_session

    log = read_session(find_session(reference))
    warn(log.warnings)
    return log
