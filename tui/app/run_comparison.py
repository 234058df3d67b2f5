"""The palette's "Compare runs…": `agentui diff A B` inside the app (screens/runs_diff.py).

The palette lists the saved sessions on this machine (core/session/store.py's listing, what
`agentui sessions` prints, newest first, listed in a worker thread). With a session of its
own (a local run whose log has begun) the app compares the one picked (A) with this run (B),
or, from the list's first row, two saved runs; without one (a replay, an attached screen,
`--no-session`, no task yet) a first pick is A and a second pick, from the same list less A,
is B.

Each log is read and outlined in a worker thread, never on the event loop; this run's once
its writer holds what the screen has drawn (agent_comparison.session_outline). A log that is
missing or unreadable is said in the window, once; damaged lines skipped are said beside the
comparison.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING

from rich.text import Text
from textual.app import SystemCommand
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider
from textual.markup import escape

from agentui.core.protocol.commands import Mode
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.palette_match import marked

if TYPE_CHECKING:
    from agentui.core.session.run_outline import RunOutline
    from agentui.core.session.store import SessionInfo
    from agentui.tui.app.app import AgentUIApp

COMPARE_RUNS = "Compare runs…"
COMPARE_RUNS_HELP = "a saved run beside this one, as agentui diff A B"
COMPARE_SAVED_HELP = "two saved runs side by side, as agentui diff A B"
TWO_SAVED = "Two saved runs instead (not this one)…"
SEPARATOR = " · "


@dataclass(frozen=True, slots=True)
class ReadRuns:
    """Two runs' outlines, and what the reader should know about them (damage, lag)."""

    a: RunOutline
    b: RunOutline
    notes: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Run:
    """One side of the comparison: a saved session's file, or this run (path None)."""

    label: str
    path: Path | None = None


def compare_runs_command(app: AgentUIApp) -> SystemCommand:
    """The palette's entry, its help saying what it will compare here."""
    help_text = COMPARE_RUNS_HELP if this_run(app) is not None else COMPARE_SAVED_HELP
    return SystemCommand(COMPARE_RUNS, help_text, partial(choose_runs, app))


def this_run(app: AgentUIApp) -> tuple[str, Path] | None:
    """This run's session id and file, when it is a local run whose log has begun."""
    runtime = app.host.runtime
    if app.host.mode is not Mode.LOCAL or runtime is None:
        return None
    from agentui.core.session.writer import SessionWriter  # loaded with the runtime

    writer = getattr(runtime, "session", None)
    if not isinstance(writer, SessionWriter) or writer.path is None:
        return None
    return writer.session_id or writer.path.stem, writer.path


def choose_runs(app: AgentUIApp) -> None:
    """The palette of saved sessions: the run to compare with this one, or the first of two."""
    current = this_run(app)
    if current is None:
        choose_two_saved(app)
        return
    session, path = current
    chosen = partial(_with_this_run, app, Run(f"{session} (this run)"))
    instead = (TWO_SAVED, partial(choose_two_saved, app))
    app.open_overlay(
        CommandPalette(
            providers=[_sessions_of({path}, chosen, instead)],
            placeholder=f"Compare this run ({visible_controls(session)}) with which saved run…",
        )
    )


def choose_two_saved(app: AgentUIApp) -> None:
    """The palette of saved sessions for the first run (A); then another for the second."""
    app.open_overlay(
        CommandPalette(
            providers=[_sessions_of(set(), partial(_second_run, app))],
            placeholder="Compare runs: the first (A)…",
        )
    )


def _second_run(app: AgentUIApp, first: SessionInfo) -> None:
    label = visible_controls(first.id)
    app.open_overlay(
        CommandPalette(
            providers=[_sessions_of({first.path}, partial(_two_saved, app, first))],
            placeholder=f"Compare {label} (A) with which run (B)…",
        )
    )


def _with_this_run(app: AgentUIApp, current: Run, other: SessionInfo) -> None:
    open_runs_comparison(app, Run(other.id, other.path), current)


def _two_saved(app: AgentUIApp, first: SessionInfo, second: SessionInfo) -> None:
    open_runs_comparison(app, Run(first.id, first.path), Run(second.id, second.path))


def open_runs_comparison(app: AgentUIApp, a: Run, b: Run) -> None:
    """The window of two runs compared; their logs read when it opens."""
    from agentui.tui.app.screens.runs_diff import RunsComparisonScreen

    app.open_overlay(RunsComparisonScreen(a.label, b.label, partial(read_runs, app, a, b)))


async def read_runs(app: AgentUIApp, a: Run, b: Run) -> ReadRuns:
    """Both runs outlined (each log read in a worker thread); raises AgentUIError, in words,
    naming the run that cannot be read."""
    outlines: list[RunOutline] = []
    notes: list[str] = []
    for side, run in (("A", a), ("B", b)):
        try:
            if run.path is None:
                from agentui.tui.app.agent_comparison import session_outline

                read = await session_outline(app)
                outline, note = read.outline, read.note
            else:
                outline, note = await asyncio.to_thread(saved_outline, run.path)
        except AgentUIError as exc:
            raise AgentUIError(f"Cannot compare: run {side} ({run.label}): {exc}") from None
        except OSError as exc:
            why = exc.strerror or str(exc)
            raise AgentUIError(f"Cannot compare: run {side} ({run.label}): {why}") from None
        outlines.append(outline)
        if note:
            notes.append(f"{side}: {note}")
    return ReadRuns(outlines[0], outlines[1], notes)


def saved_outline(path: Path) -> tuple[RunOutline, str]:
    """A saved session's outline, and a note when damaged lines were skipped (in a worker
    thread)."""
    from agentui.core.session.reader import read_session
    from agentui.core.session.run_outline import run_outline

    log = read_session(path)
    skipped = len(log.damaged_lines)
    note = ""
    if skipped:
        lines = f"{skipped} damaged line{'s' if skipped != 1 else ''}"
        note = f"{log.id}: {lines} skipped; what they held is not compared."
    return run_outline(log.events, log.id), note


def session_row(info: SessionInfo) -> Text:
    """`id · started · status · task`, every part with its controls visible."""
    try:
        started = datetime.fromtimestamp(info.started).strftime("%Y-%m-%d %H:%M")
    except (OverflowError, ValueError, OSError):
        started = "?"
    task = " ".join(info.task.split()) or info.problem
    parts = (info.id, started, info.status, task)
    return Text(SEPARATOR.join(visible_controls(part) for part in parts))


def _sessions_of(
    skipped: set[Path],
    chosen: Callable[[SessionInfo], None],
    instead: tuple[str, Callable[[], None]] | None = None,
) -> type[Provider]:
    """A palette provider of the saved sessions, newest first, less `skipped`; listed once,
    in a worker thread, when the palette first asks. `instead`: a first row that does
    something else (its title, what it does)."""
    listed: list[SessionInfo] | None = None
    problem: list[str] = []

    async def sessions() -> list[SessionInfo]:
        nonlocal listed
        if listed is None:
            from agentui.core.session.store import list_sessions

            try:
                every = await asyncio.to_thread(list_sessions)
            except AgentUIError as exc:
                problem.append(str(exc))
                every = []
            listed = [info for info in reversed(every) if info.path not in skipped]
        return listed

    def nothing() -> Text:
        from agentui.core.session.naming import sessions_dir

        said = problem[0] if problem else f"No other saved run (they are kept in {sessions_dir()})"
        return Text(visible_controls(said), style="italic")

    class Sessions(Provider):
        async def discover(self) -> Hits:
            if instead is not None:
                yield DiscoveryHit(Text(instead[0], style="italic"), instead[1], text=instead[0])
            found = await sessions()
            if not found:
                yield DiscoveryHit(nothing(), lambda: None)
            for info in found:
                row = session_row(info)
                yield DiscoveryHit(row, partial(chosen, info), text=row.plain, help=_help(info))

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            if instead is not None and (score := matcher.match(instead[0])) > 0:
                yield Hit(score, marked(matcher, instead[0]), instead[1], text=instead[0])
            found = await sessions()
            for order, info in enumerate(found):
                row = session_row(info)
                score = matcher.match(row.plain)
                if score > 0:
                    # Newest first among equal matches, as listed.
                    score -= order / (len(found) + 1) / 1000
                    yield Hit(
                        score,
                        marked(matcher, row.plain),
                        partial(chosen, info),
                        text=row.plain,
                        help=_help(info),
                    )

    return Sessions


def _help(info: SessionInfo) -> str:
    """A hit's help, read by Textual as markup: escaped."""
    agents = f"{info.agents} agent{'s' if info.agents != 1 else ''}"
    return escape(visible_controls(f"{agents}, {info.tokens:,} tokens"))
