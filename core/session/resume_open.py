"""Opening a session to resume it in the app, which shows the fold and replays nothing: its
checkpoint when one stands for the log as it is (checkpoint.py), else the log read and folded
(resume.py). Either way the plan holds no events (its `history` and its log's `events` are
empty); `serve`, ACP and a headless rewind, which replay them, open the log whole
(`resume.open_for_resume`).

Apart from resume.py so that a plan loaded from a checkpoint brings only what the first frame
needs: the reader, the closing rules and the workflow's trail load only to fold the log.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from agentui.core.session.checkpoint import load_checkpoint
from agentui.core.session.checkpoint_file import CheckpointReading
from agentui.core.session.resume_plan import ResumePlan
from agentui.core.session.resume_target import session_to_resume


def open_to_show(reference: str) -> ResumePlan:
    """Find, check and load a session to resume in the app (no events kept)."""
    return show_found(session_to_resume(reference))


def show_found(path: Path, reading: CheckpointReading | None = None) -> ResumePlan:
    """The session at `path` (session_to_resume's) loaded to resume in the app; `reading`:
    its checkpoint's, begun earlier."""
    kept = load_checkpoint(path, reading)
    if kept is not None:
        return kept
    from agentui.core.session.reader import read_session
    from agentui.core.session.resume import plan_resume

    plan = plan_resume(read_session(path))
    return replace(plan, log=replace(plan.log, events=[], conversations=[]), history=[])
