"""An advisory lock on an open session file, so one session is never written by two processes.

The writer holds an exclusive `flock` for as long as it has the file open; the operating system
drops it when the process ends, even on SIGKILL. Listing and resume test for it without
waiting. Where `fcntl` does not exist (Windows) nothing is locked and nothing reads as locked.
"""

from __future__ import annotations

from pathlib import Path
from typing import IO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]  # no fcntl on Windows: no locks there


def try_lock(file: IO[bytes]) -> bool:
    """Take the exclusive lock on an open file; False when another open file holds it."""
    if fcntl is None:  # pragma: no cover - Windows
        return True
    try:
        fcntl.flock(file.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def is_locked(path: Path) -> bool:
    """True while some process writes this session (it holds the lock)."""
    if fcntl is None:  # pragma: no cover - Windows
        return False
    try:
        with path.open("rb") as file:
            try:
                fcntl.flock(file.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(file.fileno(), fcntl.LOCK_UN)
    except OSError:
        return False
    return False
