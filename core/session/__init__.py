"""Sessions: every run's events in an append-only JSON Lines file, and what is built from it.

    writer.py       SessionWriter: the service that writes a runtime's events (batched, off-loop)
    delta_merge.py  an agent's consecutive deltas as one event (what the writer writes)
    elision.py      text a line leaves out because earlier lines hold it, and putting it back
    summary.py      `<id>.summary.json`: a session's row in the listing, kept by the writer
    recording.py    RecordingRuntime: a Runtime that attaches its writer when it starts
    store.py        the listing (from summaries)
    finding.py      a session's file from `last`, its id, a start of one or its path
    reader.py       loading a file (damaged lines are skipped with a warning naming each)
    session_log.py  SessionLog: what a file holds, as the reader loads it
    fold.py         a log -> core/state's RunState (the one fold), records of old formats too
    resume.py       a saved session back in a runtime: what waited on the person waits again,
                    agents merely running come back interrupted (closed as cancelled)
    resume_plan.py  ResumePlan: what resume makes of a log, and how a runtime takes it up
    resume_open.py  the app's resume: the checkpoint when it stands, else the log folded
    checkpoint.py   `<id>.checkpoint`: a long log's plan, kept when its writer closes it
    checkpoint_file.py  its file read and checked (MAC, log) before the plan loads
    session_end.py  what each live agent was doing when its log ended (a crash's or a quit's)
    export.py       Markdown and JSON

The format (3): line 1 is a header (records.py), then events as `agentui run --json` prints
them, except that each agent's consecutive deltas are merged per flush and a response or result
that only repeats streamed text leaves it out. Conversations are events too
(`conversation:changed`). Format 2 files (conversation records between the events) and format 1
files (also one line per delta, nothing left out) are read as well. API keys never enter any of it.

Names are loaded on first use: the app records with the writer alone, and does not load export,
resume, the reader and the fold at every start.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from agentui.core.session.errors import SessionError
    from agentui.core.session.export import EXPORT_FORMATS, export_session
    from agentui.core.session.finding import find_session
    from agentui.core.session.fold import fold_session
    from agentui.core.session.naming import sessions_dir
    from agentui.core.session.reader import read_session
    from agentui.core.session.recording import RecordingRuntime
    from agentui.core.session.records import FORMAT_VERSION, ConversationRecord, SessionHeader
    from agentui.core.session.resume import ResumePlan, open_for_resume, plan_resume
    from agentui.core.session.session_lines import read_header
    from agentui.core.session.session_log import SessionLog
    from agentui.core.session.session_targets import ContinuedSession, NewSession
    from agentui.core.session.store import SessionInfo, list_sessions
    from agentui.core.session.writer import SessionWriter

_EXPORTS = {
    "EXPORT_FORMATS": "export",
    "FORMAT_VERSION": "records",
    "ContinuedSession": "session_targets",
    "ConversationRecord": "records",
    "NewSession": "session_targets",
    "RecordingRuntime": "recording",
    "ResumePlan": "resume",
    "SessionError": "errors",
    "SessionHeader": "records",
    "SessionInfo": "store",
    "SessionLog": "session_log",
    "SessionWriter": "writer",
    "export_session": "export",
    "find_session": "finding",
    "fold_session": "fold",
    "list_sessions": "store",
    "open_for_resume": "resume",
    "plan_resume": "resume",
    "read_header": "session_lines",
    "read_session": "reader",
    "sessions_dir": "naming",
}

__all__ = [
    "EXPORT_FORMATS",
    "FORMAT_VERSION",
    "ContinuedSession",
    "ConversationRecord",
    "NewSession",
    "RecordingRuntime",
    "ResumePlan",
    "SessionError",
    "SessionHeader",
    "SessionInfo",
    "SessionLog",
    "SessionWriter",
    "export_session",
    "find_session",
    "fold_session",
    "list_sessions",
    "open_for_resume",
    "plan_resume",
    "read_header",
    "read_session",
    "sessions_dir",
]


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    return getattr(importlib.import_module(f".{module}", __name__), name)
