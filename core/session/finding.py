"""How a session file is found: by `last`, its id, a unique start of one, or its path.

Apart from the listing (store.py), which reads and folds sessions for their rows: finding one by
its id reads no session, so `agentui --resume ID` brings neither the reader's rules nor the fold
before its first frame (`last` reads each file's header).
"""

from __future__ import annotations

from pathlib import Path

from agentui.core.session.errors import SessionError
from agentui.core.session.naming import LAST, SUFFIX, sessions_dir


def session_files(directory: Path | None = None) -> list[Path]:
    folder = directory if directory is not None else sessions_dir()
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())
    except (FileNotFoundError, NotADirectoryError):  # never made (it could not be): none yet
        return []
    except OSError as exc:
        raise SessionError(f"cannot read {folder}: {exc.strerror or exc}") from None


def find_session(reference: str, directory: Path | None = None) -> Path:
    """The file for `last`, a full id, a unique start of one, or a path to a session file."""
    given = Path(reference).expanduser()
    if reference != LAST and given.suffix == SUFFIX and given.is_file():
        return given
    files = session_files(directory)
    if not files:
        raise SessionError(f"there are no sessions yet (in {directory or sessions_dir()})")
    if reference == LAST:
        return max(files, key=_newest_first_key)
    exact = [p for p in files if p.stem == reference]
    if exact:
        return exact[0]
    matches = [p for p in files if p.stem.startswith(reference)]
    if len(matches) == 1:
        return matches[0]
    if not matches:
        raise SessionError(f"no session {reference!r}; `agentui sessions` lists them")
    shown = ", ".join(p.stem for p in matches[:5])
    more = f" and {len(matches) - 5} more" if len(matches) > 5 else ""
    raise SessionError(f"{reference!r} matches {len(matches)} sessions ({shown}{more})")


def _newest_first_key(path: Path) -> tuple[float, float, str]:
    from agentui.core.session.session_lines import read_header  # not the reader's event models

    try:
        started = read_header(path).started
    except SessionError:
        from agentui.core.session.reader import read_session

        try:  # a damaged header: sorted by the stand-in header, as the listing sorts it
            started = read_session(path, skip_deltas=True).header.started
        except SessionError:
            started = float("-inf")  # an unreadable file is never `last`
    return (started, modified_at(path), path.stem)


def modified_at(path: Path) -> float:
    """The file's modification time; 0 when it cannot be read."""
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0
