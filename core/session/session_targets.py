"""Where a session writer writes: a new session file, or a saved one continued (resume).

Apart from writer.py so that a resume's plan (resume_plan.py) can name its target without
importing the writer, which keeps a resume checkpoint when it closes a log.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from agentui.core.protocol.events import Event
from agentui.core.session.records import FORMAT_VERSION, SessionHeader
from agentui.core.session.summary import SummaryTracker


@dataclass(frozen=True, slots=True)
class NewSession:
    """Start a new session file in `directory` (default: `sessions_dir()`), named `session_id`
    when given: a front end that must name the session before its first event (the ACP door
    tells its client at `session/new`) draws it with `new_session_id`."""

    provider: str
    model: str
    directory: Path | None = None
    session_id: str | None = None


@dataclass(frozen=True, slots=True)
class ContinuedSession:
    """Append to a saved session (resume), from `append_at` (a torn tail is cut off first).

    `preamble` holds events to write before the runtime's own: those that close what the
    session left open. `format` is the file's (its header's): lines are left compact
    only in a file whose readers expect it. With `header` and `summary` (the row as the file
    stands) the writer keeps the file's summary up to date; without, it leaves none.
    """

    path: Path
    append_at: int
    preamble: Sequence[Event] = ()
    format: int = FORMAT_VERSION
    header: SessionHeader | None = None
    summary: SummaryTracker | None = None
