"""What agentui keeps of an ACP session beyond its agentui session file: the working directory
the client gave when it started, and when.

ACP's `session/list` names each session's working directory, which agentui's session files do
not hold; and a session created but never prompted has no file at all (one is made at its first
event), yet a client (acpx) comes back for it with `session/load`. So `session/new` writes a
small record per session, as does the first `session/load` or `session/resume` of a session
made elsewhere (`agentui` itself). Records are the person's own, as session files are: 0600
files in a 0700 folder, `data_dir()/acp-sessions/<id>.json`.
"""

from __future__ import annotations

import json
import logging
from dataclasses import asdict, dataclass
from pathlib import Path

from agentui.core.session.private_file import make_private_folder, write_private
from agentui.core.support.paths import data_dir

log = logging.getLogger("agentui.acp")

SUFFIX = ".json"


@dataclass(frozen=True, slots=True)
class SessionRecord:
    session_id: str
    cwd: str  # absolute, as ACP asks of a session's working directory
    started: float  # seconds since the epoch


def records_dir() -> Path:
    return data_dir() / "acp-sessions"


def write_record(record: SessionRecord) -> bool:
    """Keep `record`; False (and said in the log) when it could not be written: the session
    still runs, only listing it and loading it before its first prompt need the record."""
    folder = records_dir()
    try:
        make_private_folder(folder)
        write_private(folder / f"{record.session_id}{SUFFIX}", json.dumps(asdict(record)))
    except OSError as exc:
        log.warning("cannot record session %s in %s: %s", record.session_id, folder, exc)
        return False
    return True


def read_record(session_id: str) -> SessionRecord | None:
    """The session's record; None when there is none or it cannot be read (said in the log)."""
    return _read(records_dir() / f"{session_id}{SUFFIX}")


def all_records() -> list[SessionRecord]:
    """Every readable record, newest start first."""
    try:
        paths = [p for p in records_dir().iterdir() if p.suffix == SUFFIX]
    except FileNotFoundError:
        return []
    except OSError as exc:
        log.warning("cannot list %s: %s", records_dir(), exc)
        return []
    records = [record for path in paths if (record := _read(path)) is not None]
    return sorted(records, key=lambda record: record.started, reverse=True)


def _read(path: Path) -> SessionRecord | None:
    try:
        data = json.loads(path.read_text("utf-8"))
        record = SessionRecord(str(data["session_id"]), str(data["cwd"]), float(data["started"]))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, KeyError, TypeError) as exc:
        log.warning("cannot read the session record %s: %s", path, exc)
        return None
    return record if record.session_id == path.stem else None
