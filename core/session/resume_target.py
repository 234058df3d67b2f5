"""The session file a resume names, refused while another agentui has it open."""

from __future__ import annotations

from pathlib import Path

from agentui.core.session.errors import SessionError
from agentui.core.session.finding import find_session
from agentui.core.session.lock import is_locked


def session_to_resume(reference: str) -> Path:
    """The file `reference` names (`last`, an id, a unique id prefix, a path), unless another
    agentui has it open."""
    path = find_session(reference)
    if is_locked(path):
        raise SessionError(
            f"session {path.stem} is still open in another agentui; close that one first"
        )
    return path
