"""`agentui search TEXT`: the saved sessions' matches of TEXT, newest first, one a line:

    SESSION · AGENT · TIME · LINE

LINE is the line of the transcript (a streamed block, a tool call or result, a task, a question,
an answer, a steer) that holds the match. The index it asks is kept beside the sessions
(core/session/search_index.py); what went wrong with it is said on stderr, never fatal.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from datetime import datetime
from typing import TYPE_CHECKING

from agentui.core.session.naming import sessions_dir
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.cli.options import positive_whole_number, warn

if TYPE_CHECKING:
    from agentui.core.session.search_index import Match

SEPARATOR = " · "
# Characters kept before a match when its line is too long to show whole.
_BEFORE_MATCH = 30


def search_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="agentui search",
        description=(
            "Search every saved session's transcripts (text, thinking, tool calls and results, "
            "tasks, questions, answers, steers) for TEXT: its words in order, case and accents "
            "ignored, the last word as a prefix. Matches come newest first."
        ),
    )
    parser.add_argument("text", nargs="+", help="the words to find")
    parser.add_argument(
        "--limit",
        type=positive_whole_number,
        default=20,
        metavar="N",
        help="show at most N matches (default 20)",
    )
    parser.add_argument("--json", action="store_true", help="one JSON object per match")
    return parser


def main(argv: Sequence[str]) -> int:
    args = search_parser().parse_args(argv)
    from agentui.core.session.search_index import SearchIndexError, fts_query, search

    text = " ".join(args.text)
    if fts_query(text) is None:
        print(f"agentui search: {text!r} holds no word to search for", file=sys.stderr)
        return 2
    try:
        results = search(text, limit=args.limit)
    except SearchIndexError as exc:
        print(f"agentui search: {visible_controls(str(exc))}", file=sys.stderr)
        return 1
    warn(results.notes)
    if args.json:
        for match in results.matches:
            print(terminal_json(match.row()))  # exact strings, terminal controls escaped
        return 0
    if not results.matches:
        print(f"No match for {visible_controls(text)!r} in {sessions_dir()}.")
        return 0
    width = shutil.get_terminal_size((120, 24)).columns
    for match in results.matches:
        print(_row(match, width))
    if results.more:
        print(f"(the newest {args.limit}; --limit N shows more)")
    newest = results.matches[0]
    print(
        f"Open one: agentui --resume {newest.session}  (continue it)  or  "
        f"agentui replay {newest.session} --from {newest.seq}  (watch it from that point)"
    )
    return 0


def _row(match: Match, width: int) -> str:
    """`session · agent · time · line`, the line cut around its match to fit `width`."""
    when = datetime.fromtimestamp(match.ts).strftime("%Y-%m-%d %H:%M:%S")
    head = SEPARATOR.join(
        (visible_controls(match.session), visible_controls(match.agent), when, "")
    )
    room = max(width - len(head) - 1, 40)
    line, start = match.line, match.start
    if start > _BEFORE_MATCH and len(line) > room:
        cut = start - _BEFORE_MATCH
        line = "…" + line[cut + 1 :]
    text = " ".join(visible_controls(line).split("\t"))
    return head + clipped(text.strip(), room)
