"""Loading a session file: its header, its events and its conversation records.

A line counts only when it ends with a newline: the writer writes whole lines, so a final piece
without one is the tail of a write cut short by a crash. That piece, or a last whole line that
does not parse, is skipped with a warning. Any other line that does not parse means the file was
damaged or edited: that is an error naming the line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, get_args

from pydantic import ValidationError

from ..events import AnyEvent, Event, event_adapter
from ..validation import error_location
from .errors import SessionCorruptError, SessionError
from .records import FORMAT_VERSION, ConversationRecord, SessionHeader

# Prefixes of the lines a quick scan (listing) may skip unparsed: text streams as many small
# events that change nothing a listing shows. `model_dump_json` writes `type` first.
_DELTA_PREFIXES = (b'{"type":"text:delta"', b'{"type":"thinking:delta"')

_KNOWN_TYPES: frozenset[str] = frozenset(
    member.model_fields["type"].default for member in get_args(get_args(AnyEvent)[0])
)


@dataclass(slots=True)
class SessionLog:
    """Everything a session file holds, in file order."""

    path: Path
    header: SessionHeader
    events: list[Event] = field(default_factory=list)
    conversations: list[ConversationRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Where the last whole, valid line ends: a resumed session appends from here.
    valid_bytes: int = 0
    # Events of types this version does not know (a newer agentui wrote them): left out.
    unknown_events: int = 0

    @property
    def id(self) -> str:
        return self.header.id

    @property
    def last_seq(self) -> int:
        return self.events[-1].seq if self.events else 0


class _Problem(Exception):
    """A line that does not parse (kept apart from pydantic's errors to name the line)."""


def read_session(path: Path, *, skip_deltas: bool = False) -> SessionLog:
    """Load a session file. `skip_deltas` leaves text and thinking deltas out (for listings)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SessionError(f"no session file at {path}") from None
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
    pieces = data.split(b"\n")
    tail = pieces.pop()  # b"" when the file ends with a newline, as the writer leaves it
    warnings: list[str] = []
    if tail:
        warnings.append(
            f"{path}:{len(pieces) + 1}: skipped an incomplete last line "
            "(the session ended in the middle of a write)"
        )
    valid_bytes = len(data) - len(tail)
    if not pieces:
        raise SessionError(f"{path}: not a session file: it has no header line")
    try:
        header = _header(pieces[0])
    except _Problem as exc:
        raise SessionError(f"{path}: not a session file: {exc}") from None
    if header.format > FORMAT_VERSION:
        raise SessionError(
            f"{path}: written in session format {header.format} by agentui {header.agentui}; "
            f"this agentui reads format {FORMAT_VERSION} and older: upgrade it"
        )
    log = SessionLog(path, header, warnings=warnings, valid_bytes=valid_bytes)
    last = len(pieces) - 1
    for index in range(1, len(pieces)):
        line = pieces[index]
        if skip_deltas and line.startswith(_DELTA_PREFIXES):
            continue
        try:
            _add(log, line)
        except _Problem as exc:
            if index == last and not tail:
                warnings.append(
                    f"{path}:{index + 1}: skipped a damaged last line "
                    f"(the session ended in the middle of a write): {exc}"
                )
                log.valid_bytes -= len(line) + 1
                continue
            raise SessionCorruptError(str(path), index + 1, str(exc)) from None
    if log.unknown_events:
        warnings.append(
            f"{path}: left out {log.unknown_events} event(s) of types this agentui does not "
            "know (written by a newer version)"
        )
    return log


def _json(line: bytes) -> dict[str, Any]:
    if not line.strip():
        raise _Problem("the line is empty")
    try:
        value = json.loads(line)
    except ValueError as exc:
        raise _Problem(f"not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise _Problem("not a JSON object")
    return value


def _header(line: bytes) -> SessionHeader:
    value = _json(line)
    if value.get("record") != "header":
        raise _Problem("the first line is not a session header")
    try:
        return SessionHeader.model_validate(value)
    except ValidationError as exc:
        raise _Problem(f"bad header: {_first_error(exc)}") from None


def _add(log: SessionLog, line: bytes) -> None:
    value = _json(line)
    record = value.get("record")
    if record == "conversation":
        try:
            log.conversations.append(ConversationRecord.model_validate(value))
        except ValidationError as exc:
            raise _Problem(f"bad conversation record: {_first_error(exc)}") from None
        return
    if record is not None:
        raise _Problem(f"unknown record {record!r}")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise _Problem("neither an event (no `type`) nor a record")
    if kind not in _KNOWN_TYPES:
        log.unknown_events += 1
        return
    try:
        log.events.append(event_adapter.validate_python(value))
    except ValidationError as exc:
        raise _Problem(f"bad {kind} event: {_first_error(exc)}") from None


def _first_error(exc: ValidationError) -> str:
    error = exc.errors()[0]
    where = error_location(error, "")
    return f"{where}: {error['msg']}" if where else error["msg"]


def read_header(path: Path) -> SessionHeader:
    """Only the header line: enough to sort sessions or find the newest."""
    try:
        with path.open("rb") as file:
            line = file.readline()
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
    if not line.endswith(b"\n"):
        raise SessionError(f"{path}: not a session file: it has no header line")
    try:
        return _header(line)
    except _Problem as exc:
        raise SessionError(f"{path}: not a session file: {exc}") from None
