"""What the shell is told of a session when the app closes: saved, saved up to a time, or not
saved. A session that cannot be reopened is never offered to `agentui --resume`."""

from __future__ import annotations

import time

from agentui.core.session.writer import SessionWriter
from agentui.core.support.terminal_text import visible_controls


def what_was_saved(
    session: SessionWriter, resume: str = "agentui --resume", reopens: str = "reopens"
) -> str | None:
    """The closing line's news (None: no session was begun); `resume` is the command that
    reopens it (`agentui serve --resume` for a server's)."""
    session_id = session.session_id
    if session_id is None:
        return None
    reopen = f"`{resume} {session_id}`"
    if session.error is None:
        return f"session {session_id} saved; {reopen} {reopens} it"
    why = visible_controls(session.error)  # it names a file, and says why the disk refused
    if not session.saved:
        return f"this session was not saved ({why})"
    if session.written_ts is None:  # resumed, and none of this run's events are in it
        return (
            f"session {session_id} was not saved from this run on ({why}); "
            f"{reopen} reopens it as it was"
        )
    saved = time.strftime("%H:%M:%S", time.localtime(session.written_ts))
    return f"session {session_id} saved only up to {saved} ({why}); {reopen} reopens what was saved"
