"""Where sessions live and how they are named.

Sessions are `<id>.jsonl` files in `data_dir()/sessions` (`platformdirs.user_data_dir("agentui")`
unless AGENTUI_DATA_DIR says otherwise). An id is the UTC start time plus a short random
suffix, `20260101T093000Z-4f1c`: ids sort by start to the second, and two sessions started in
the same second still get different files. (Apart from the listing in store.py so that the
command line can name them without loading the session reader.)
"""

from __future__ import annotations

import os
from datetime import UTC, datetime
from pathlib import Path

from agentui.core.support.paths import data_dir

SUFFIX = ".jsonl"
LAST = "last"  # the id that means the newest session


def sessions_dir() -> Path:
    return data_dir() / "sessions"


def new_session_id(started: float) -> str:
    stamp = datetime.fromtimestamp(started, UTC).strftime("%Y%m%dT%H%M%SZ")
    return f"{stamp}-{os.urandom(2).hex()}"


def session_path(session_id: str, directory: Path | None = None) -> Path:
    return (directory if directory is not None else sessions_dir()) / f"{session_id}{SUFFIX}"
