"""The palette's "Search all sessions…": `agentui search` inside the app.

A palette of its own: the words typed are searched in every saved session on this machine
(core/session/search_index.py, the index `agentui search` keeps; its words in order, case and
accents ignored, the last word as a prefix), newest first, one row a match:
`session · agent · time · line`, the match marked in its line.

A running agentui cannot open another session inside itself (its runtime, its fold and its
screen are the one session it was started with), so picking a match offers the two commands
that open it as `agentui search` suggests, `agentui replay SESSION --from SEQ` (watch it from
that point) and `agentui --resume SESSION` (continue it), and copies the one chosen to the
clipboard (and to the copied file), to run in a terminal.

The index is brought up to date and asked in a thread (a first search reads every session
file), one search at a time; a problem with it is said once in a toast.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from agentui.core.support.terminal_text import clipped
from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.palette_match import marked

if TYPE_CHECKING:
    from agentui.core.session.search_index import Match, Results
    from agentui.tui.app.app import AgentUIApp

SEPARATOR = " · "
LIMIT = 50  # the newest matches listed
_BEFORE_MATCH = 30  # characters kept before a match in a line too long to show whole
_ROW_MARGIN = 10  # the palette's border and padding around a row


def open_session_search(app: AgentUIApp) -> None:
    """The palette's entry: a palette of the saved sessions' matches of what is typed."""
    app.open_overlay(
        CommandPalette(
            providers=[_matches_of(app)],
            placeholder="Search all sessions: type words (newest matches first)",
        )
    )


def replay_command(match: Match) -> str:
    return f"agentui replay {match.session} --from {match.seq}"


def resume_command(match: Match) -> str:
    return f"agentui --resume {match.session}"


def match_row(match: Match, width: int) -> Text:
    """`session · agent · time · line` in `width` cells, the line cut around its match (and
    the match marked); every part shown with its controls visible."""
    when = datetime.fromtimestamp(match.ts).strftime("%Y-%m-%d %H:%M")
    head = SEPARATOR.join((shown(match.session), shown(match.agent), when, ""))
    line, start, end = match.line, match.start, match.end
    room = max(width - len(head), 20)
    if start > _BEFORE_MATCH and len(line) > room:
        cut = start - _BEFORE_MATCH
        line, start, end = "…" + line[cut + 1 :], _BEFORE_MATCH, end - cut
    before, found, after = (
        shown(part).replace("\t", " ") for part in (line[:start], line[start:end], line[end:])
    )
    row = Text(head, style="dim")
    row.append(clipped(before, room))
    room -= len(before)
    if room > 0:
        row.append(clipped(found, room), style="bold reverse")
        room -= len(found)
    if room > 0:
        row.append(clipped(after, room))
    return row


def _matches_of(app: AgentUIApp) -> type[Provider]:
    """A palette provider of the saved sessions' matches of the words typed."""
    said: set[str] = set()  # problems with the index said already, once each
    # One search at a time, held by the thread itself: a keystroke cancels the palette's
    # search, never the thread already running, and an asyncio lock would be let go then.
    # A search still waiting when a newer query was typed is skipped.
    one_at_a_time = threading.Lock()
    latest = [""]

    def search_if_latest(query: str) -> Results | None:
        from agentui.core.session.search_index import search

        with one_at_a_time:
            return search(query, limit=LIMIT) if query == latest[0] else None

    class Matches(Provider):
        async def discover(self) -> Hits:
            return
            yield  # nothing before a word is typed

        async def search(self, query: str) -> Hits:
            from agentui.core.session.search_index import SearchIndexError, fts_query

            if fts_query(query) is None:
                return
            latest[0] = query
            try:
                results = await asyncio.to_thread(search_if_latest, query)
            except SearchIndexError as exc:
                _say_once(app, said, f"Cannot search the sessions: {exc}")
                return
            if results is None:
                return  # a newer query is searched instead
            for note in results.notes:
                _say_once(app, said, note)
            width = max(app.size.width - _ROW_MARGIN, 40)
            for order, match in enumerate(results.matches):
                row = match_row(match, width)
                yield Hit(
                    1.0 - order / (LIMIT + 1),  # newest first, as listed
                    row,
                    partial(_offer_commands, app, match),
                    text=row.plain,
                    help=escape(f"{match.kind}: enter offers the commands that open it"),
                )
            if results.more:
                yield Hit(
                    0.0,
                    Text(f"(the newest {LIMIT}: more words find fewer)", style="dim italic"),
                    lambda: None,
                )

    return Matches


def _say_once(app: AgentUIApp, said: set[str], message: str) -> None:
    if message not in said:
        said.add(message)
        app.notify(shown(message), severity="warning", timeout=8)


def _offer_commands(app: AgentUIApp, match: Match) -> None:
    """The second palette: the two commands that open the match's session, either copied."""
    commands = [
        (f"Replay from this point: {replay_command(match)}", replay_command(match)),
        (f"Resume (continue) the session: {resume_command(match)}", resume_command(match)),
    ]
    copy: Callable[[str], object] = partial(_copy_command, app)
    app.open_overlay(
        CommandPalette(
            providers=[_commands_of(commands, copy)],
            placeholder="Open it in a terminal with which command? (enter copies it)",
        )
    )


def _copy_command(app: AgentUIApp, command: str) -> None:
    app.copy_export.copy(
        command,
        "the command",
        told="a running agentui cannot open another session: run it in a terminal",
    )


def _commands_of(commands: list[tuple[str, str]], copy: Callable[[str], object]) -> type[Provider]:
    class Commands(Provider):
        async def discover(self) -> Hits:
            for title, command in commands:
                yield DiscoveryHit(Text(shown(title)), partial(copy, command))

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for title, command in commands:
                score = matcher.match(title)
                if score > 0:
                    # A session id from a file name: plain text, never markup.
                    yield Hit(score, marked(matcher, shown(title)), partial(copy, command))

    return Commands
