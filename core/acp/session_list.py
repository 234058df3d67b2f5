"""`session/list`: the sessions ACP clients started here (session_records.py), as ACP lists them.

Only a session with a record has the working directory ACP's listing requires; one started in
agentui itself is listed once a client has loaded or resumed it. Its title is its task (from
agentui's listing of session files), its last activity its file's last change (a session never
prompted has no file: its start). Read in a worker thread: the listing may fold a session whose
summary is stale.
"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

from acp.schema import SessionInfo

from agentui.core.acp.markdown import one_line
from agentui.core.acp.session_records import all_records
from agentui.core.session.naming import session_path
from agentui.core.session.store import describe


def listed_sessions(cwd: str | None) -> list[SessionInfo]:
    """Newest start first; only those started in `cwd` when it is given."""
    listed: list[SessionInfo] = []
    for record in all_records():
        if cwd is not None and record.cwd != cwd:
            continue
        path = session_path(record.session_id)
        title: str | None = None
        updated = record.started
        if path.is_file():
            row = describe(path)
            title = one_line(row.task) if row.task else None
            updated = max(updated, _mtime(row.path, updated))
        listed.append(
            SessionInfo(
                session_id=record.session_id,
                cwd=record.cwd,
                title=title,
                updated_at=_iso(updated),
            )
        )
    return listed


def _mtime(path: Path, default: float) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return default


def _iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
