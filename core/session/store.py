"""How sessions are listed (found: finding.py; their files and ids: naming.py).

Each session file has its row for the listing beside it in `<id>.summary.json` (summary.py).
A session is listed and found by its file's name, which is its id unless the file was copied
or renamed: then the id inside it is kept apart (`SessionInfo.header_id`) and said, and the
copy is a session of its own rather than a second row under the first one's id.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agentui.core.session.errors import SessionError
from agentui.core.session.finding import find_session, modified_at, session_files
from agentui.core.session.fold import fold_session
from agentui.core.session.lock import is_locked
from agentui.core.session.reader import read_session, renamed_note
from agentui.core.session.summary import SessionSummary, read_summary, write_summary


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One line of `agentui sessions`."""

    id: str
    path: Path
    started: float
    task: str
    # A RunState.status, "running" while a process writes it, "damaged (N lines skipped)"
    # when lines were lost, or "unreadable".
    status: str
    agents: int
    tokens: int
    problem: str = ""  # why it is unreadable, or what its damaged lines lost
    # The id inside the file when its name (`id`, by which it is found) differs: a copy or a
    # rename. None when they agree, or when the file is unreadable.
    header_id: str | None = None
    tasks: int = 0  # root agents (0: not known, a summary from before they were counted)

    def row(self) -> dict[str, Any]:
        """As `agentui sessions --json` prints it (and `GET /sessions` answers)."""
        return {
            "id": self.id,
            "started": self.started,
            "task": self.task,
            "status": self.status,
            "agents": self.agents,
            "tokens": self.tokens,
            "path": str(self.path),
            "problem": self.problem,
            "header_id": self.header_id,
            "tasks": self.tasks,
        }

    def renamed_note(self) -> str | None:
        """One line saying the file's name is not the id inside it, or None."""
        return renamed_note(self.path, self.header_id) if self.header_id is not None else None


def describe(path: Path) -> SessionInfo:
    """A session's row: from its summary when that describes the file as it is, else read.

    A session being written is described by its summary as of its last flush that changed
    the row. Reading a session that has no valid summary leaves one behind for next time.
    """
    try:
        stat = path.stat()
    except OSError as exc:
        return SessionInfo(path.stem, path, 0.0, "", "unreadable", 0, 0, str(exc))
    running = is_locked(path)
    summary = read_summary(path)
    if summary is None or not (running or summary.describes(stat)):
        summarized = _summarize(path, stat, save=not running)
        if isinstance(summarized, str):
            return SessionInfo(path.stem, path, stat.st_mtime, "", "unreadable", 0, 0, summarized)
        summary = summarized
    status = summary.status
    if summary.damaged_lines:
        skipped = summary.damaged_lines
        status = f"damaged ({skipped} line{'s' if skipped != 1 else ''} skipped)"
    if running:
        status = "running"
    return SessionInfo(
        path.stem,  # listed as it is found: by its file's name
        path,
        summary.started,
        summary.task,
        status,
        summary.agents,
        summary.tokens,
        summary.problem,
        header_id=summary.id if summary.id != path.stem else None,
        tasks=summary.tasks,
    )


def _summarize(path: Path, stat: os.stat_result, *, save: bool) -> SessionSummary | str:
    """Read and fold the whole file for its row (or say why it is unreadable); `save` keeps
    the row beside the file."""
    try:
        log = read_session(path, skip_deltas=True)
    except SessionError as exc:
        return str(exc)
    state = fold_session(log, transcripts=False)
    # The listing says a rename on a line of its own (SessionInfo.renamed_note), not here.
    lost = [w for w in log.warnings if w != renamed_note(path, log.header.id)]
    problem = f"{state.status}; " + "; ".join(lost) if log.damaged_lines else ""
    summary = SessionSummary(
        id=log.header.id,  # what the file says, which its name may not (a copy)
        started=log.header.started,
        task=log.header.task,
        status=state.status,
        agents=len(state.agents),
        tokens=state.tokens,
        tasks=len(state.roots()),
        damaged_lines=len(log.damaged_lines),
        problem=problem,
        size=stat.st_size,
        mtime_ns=stat.st_mtime_ns,
    )
    if save and _unchanged(path, stat):
        # A folder we cannot write to only costs the next listing its speed.
        with contextlib.suppress(OSError):
            write_summary(path, summary)
    return summary


def _unchanged(path: Path, stat: os.stat_result) -> bool:
    try:
        now = path.stat()
    except OSError:
        return False
    return (now.st_size, now.st_mtime_ns) == (stat.st_size, stat.st_mtime_ns)


def list_sessions(directory: Path | None = None) -> list[SessionInfo]:
    """Every session, oldest first."""
    infos = [describe(p) for p in session_files(directory)]
    return sorted(infos, key=lambda i: (i.started, modified_at(i.path), i.id))


__all__ = ["SessionInfo", "describe", "find_session", "list_sessions", "session_files"]
