"""Keeping a resume checkpoint (checkpoint.py) of a session whose writer has closed its log:
the log read and planned as `--resume` would plan it, once, in a worker thread.

Apart from checkpoint.py, which the writer and the app's resume load early: this brings the
reader and the resume's rules (resume.py), which need the writer's targets.
"""

from __future__ import annotations

import logging
from pathlib import Path

from agentui.core.session.checkpoint import log_fingerprint, write_checkpoint
from agentui.core.session.errors import SessionError
from agentui.core.session.reader import read_session
from agentui.core.session.resume import plan_resume

log = logging.getLogger("agentui.session")

# Below this a log reads whole in well under 0.1 s: no checkpoint is kept for it.
CHECKPOINT_FROM_BYTES = 1 << 20


def keep_checkpoint(session: Path, *, from_bytes: int | None = None) -> bool:
    """Read `session` whole, fold it as a resume would, and keep the plan beside it (a log of
    at least `from_bytes`, default CHECKPOINT_FROM_BYTES). True when one was written.

    Call it once nothing writes the log any more (the writer has closed it). Runs for as long
    as a resume without a checkpoint would (in a worker thread: see writer.py).
    """
    threshold = CHECKPOINT_FROM_BYTES if from_bytes is None else from_bytes
    try:
        before = log_fingerprint(session)
        if before["size"] < threshold:
            return False
        plan = plan_resume(read_session(session))
        if log_fingerprint(session) != before:
            return False  # written meanwhile: the plan may not be the file's
    except FileNotFoundError:
        return False  # the log is gone (moved or removed meanwhile): nothing to keep
    except (OSError, SessionError) as exc:
        log.warning("no resume checkpoint for %s: %s", session, exc)
        return False
    return write_checkpoint(session, plan, before)
