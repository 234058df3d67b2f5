"""Loading a session file: its header, its events and its conversation records.

Damage never costs more than the damaged lines. A line that does not parse (not UTF-8, not
JSON, or JSON that is not a valid event or record) is skipped with a warning naming it, and
everything written whole around it is kept. A line counts only when it ends with a newline:
the writer writes whole lines, so a final piece without one (or a last whole line that does
not parse) is the tail of a write cut short by a crash, which is skipped too but not counted
as damage. A damaged header leaves the events readable under a stand-in header; a file in
which nothing parses is not a session file.

Speed: a line as the writer writes it is parsed and checked in one step by pydantic-core from
the bytes (measured faster than `json.loads` alone, and than building events unchecked with
`model_construct`); only a line that fails that goes the slow way, which names the problem or
puts back what the writer left out (elision.py).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import get_args

from pydantic import ValidationError

from agentui.core.protocol.events import (
    AgentSpawned,
    AnyEvent,
    ConversationChanged,
    Event,
    TextDelta,
    ThinkingDelta,
    event_adapter,
)
from agentui.core.session.elision import Elision
from agentui.core.session.errors import SessionError
from agentui.core.session.records import FORMAT_VERSION, ConversationRecord, SessionHeader
from agentui.core.session.session_lines import LineProblem, first_error, header_of, json_object
from agentui.core.session.session_lines import read_header as read_header  # its own file
from agentui.core.session.session_log import SessionLog as SessionLog  # its own file

# Prefixes of the lines a quick scan (listing) checks but does not keep: text streams as many
# small events that change nothing a listing shows. `model_dump_json` writes `type` first.
_DELTA_MODELS: dict[bytes, type[Event]] = {
    b'{"type":"text:delta"': TextDelta,
    b'{"type":"thinking:delta"': ThinkingDelta,
}
_DELTA_PREFIXES = tuple(_DELTA_MODELS)

_KNOWN_TYPES: frozenset[str] = frozenset(
    member.model_fields["type"].default for member in get_args(get_args(AnyEvent)[0])
)

# Past this many, damaged lines are summed up in one warning instead of one each.
MAX_LINE_WARNINGS = 20

UNKNOWN = "unknown"  # what a stand-in header says for what only the lost header knew


@dataclass(slots=True)
class _Body:
    """What the lines after the header hold, gathered while reading."""

    events: list[Event] = field(default_factory=list)
    conversations: list[ConversationRecord] = field(default_factory=list)
    unknown_events: int = 0
    # Line number -> what of its text could not be put back (a delta it repeats was damaged).
    shortened: dict[int, str] = field(default_factory=dict)


@contextmanager
def collector_paused() -> Iterator[None]:
    """Hold off Python's cyclic garbage collector while a log is loaded or folded.

    Loading keeps every object it makes, and none of them form cycles; the collector would
    walk the growing heap again and again for nothing, a large share of the time a long log
    takes to read. Reference counting still frees what is dropped.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def read_session(path: Path, *, skip_deltas: bool = False) -> SessionLog:
    """Load a session file. `skip_deltas` checks text and thinking deltas but leaves them out
    (for listings: they change nothing a listing shows, yet damage in them still counts)."""
    with collector_paused():
        return _read_session(path, skip_deltas)


def _read_session(path: Path, skip_deltas: bool) -> SessionLog:
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise SessionError(f"no session file at {path}") from None
    except OSError as exc:
        raise SessionError(f"cannot read {path}: {exc.strerror or exc}") from None
    pieces = data.split(b"\n")
    tail = pieces.pop()  # b"" when the file ends with a newline, as the writer leaves it
    if not pieces:
        raise SessionError(f"{path}: not a session file: it has no header line")
    header: SessionHeader | None = None
    try:
        header = header_of(pieces[0])
    except LineProblem as exc:
        header_problem = str(exc)
    if header is not None and header.format > FORMAT_VERSION:
        raise SessionError(
            f"{path}: written in session format {header.format} by agentui {header.agentui}; "
            f"this agentui reads format {FORMAT_VERSION} and older: upgrade it"
        )

    body = _Body()
    # Format 1 never leaves anything out: nothing to follow for putting it back.
    elision = Elision() if header is None or header.format >= 2 else None
    damaged: dict[int, str] = {}  # line number -> what is wrong with it
    tail_notes: list[str] = []
    valid_bytes = len(data) - len(tail)
    last = len(pieces) - 1
    first_recovered = False  # a header-less file whose line 1 is an event
    for index in range(0 if header is None else 1, len(pieces)):
        line = pieces[index]
        skipped = skip_deltas and line.startswith(_DELTA_PREFIXES)
        if skipped:
            delta = _valid_delta(line)
            if delta is not None:
                if elision is not None:
                    elision.observe(delta)
                first_recovered = first_recovered or index == 0
                continue
        try:
            shortened = _add(body, line, elision, keep=not skipped)
        except LineProblem as exc:
            if index == 0:
                continue  # the damaged header: reported once, below
            if index == last and not tail:
                tail_notes.append(
                    f"{path}:{index + 1}: skipped a damaged last line "
                    f"(the session ended in the middle of a write): {exc}"
                )
                valid_bytes -= len(line) + 1
                continue
            damaged[index + 1] = str(exc)
        else:
            first_recovered = first_recovered or index == 0
            if shortened is not None:
                body.shortened[index + 1] = shortened
    if tail:
        tail_notes.append(
            f"{path}:{len(pieces) + 1}: skipped an incomplete last line "
            "(the session ended in the middle of a write)"
        )

    warnings: list[str] = []
    damaged_lines = list(damaged)
    if header is not None:
        note = renamed_note(path, header.id)
        if note is not None:
            warnings.append(note)
    if header is None:
        if not body.events and not body.conversations:
            raise SessionError(f"{path}: not a session file: {header_problem}")
        header = _stand_in_header(path, body.events)
        if not first_recovered:
            damaged_lines.insert(0, 1)
        warnings.append(
            f"{path}:1: the session header is damaged ({header_problem}): its events are "
            "recovered under a stand-in header (id from the file name, start from the first "
            "event, provider and model unknown)"
        )
    warnings += _line_warnings(path, damaged)
    warnings += [f"{path}:{n}: {what}" for n, what in body.shortened.items()]
    warnings += tail_notes
    if body.unknown_events:
        warnings.append(
            f"{path}: left out {body.unknown_events} event(s) of types this agentui does not "
            "know (written by a newer version)"
        )
    for agent_id in _conversation_gaps(body.conversations, body.events):
        warnings.append(
            f"{path}: agent {agent_id!r} lost part of its saved conversation with a damaged "
            "line; continuing it sends the model what is left"
        )
    return SessionLog(
        path,
        header,
        events=body.events,
        conversations=body.conversations,
        warnings=warnings,
        valid_bytes=valid_bytes,
        unknown_events=body.unknown_events,
        damaged_lines=damaged_lines,
    )


def _line_warnings(path: Path, damaged: dict[int, str]) -> list[str]:
    numbers = list(damaged)  # in line order
    out = [f"{path}:{n}: skipped a damaged line: {damaged[n]}" for n in numbers[:MAX_LINE_WARNINGS]]
    rest = numbers[MAX_LINE_WARNINGS:]
    if rest:
        shown = ", ".join(str(n) for n in rest[:10]) + (", ..." if len(rest) > 10 else "")
        out.append(f"{path}: skipped {len(rest)} more damaged lines (lines {shown})")
    return out


def _stand_in_header(path: Path, events: list[Event]) -> SessionHeader:
    """What can be known of a session whose header line is lost: enough to list and resume it."""
    task = next((e.task for e in events if isinstance(e, AgentSpawned) and e.parent_id is None), "")
    return SessionHeader(
        agentui=UNKNOWN,
        id=path.stem,
        started=events[0].ts if events else _mtime(path),
        task=task,
        provider=UNKNOWN,
        model=UNKNOWN,
    )


def _conversation_gaps(conversations: list[ConversationRecord], events: list[Event]) -> list[str]:
    """Agents with a change (a format-2 record, then a `conversation:changed`) that keeps more
    messages than the changes before it hold: a damaged line lost one."""
    held: dict[str, int] = {}
    gaps: dict[str, None] = {}
    changes = [(r.agent_id, r.keep, len(r.append)) for r in conversations] + [
        (e.agent_id, e.keep, len(e.append)) for e in events if isinstance(e, ConversationChanged)
    ]
    for agent_id, keep, appended in changes:
        have = held.get(agent_id, 0)
        if keep > have:
            gaps[agent_id] = None
        held[agent_id] = min(have, keep) + appended
    return list(gaps)


def _add(body: _Body, line: bytes, elision: Elision | None, *, keep: bool = True) -> str | None:
    """Check one line and, when `keep`, add what it holds; raise LineProblem when damaged.

    Returns what of the line's text could not be put back, if anything.
    """
    shortened: list[str] = []
    item = _parse_quickly(line)
    if item is None:
        item = _parse(line, elision, shortened)
        if item is None:
            body.unknown_events += 1
            return None
    if isinstance(item, ConversationRecord):
        body.conversations.append(item)
        return None
    if elision is not None:
        elision.observe(item)
    if keep:
        body.events.append(item)
    return shortened[0] if shortened else None


def _parse_quickly(line: bytes) -> Event | ConversationRecord | None:
    """A line as the writer writes it, parsed and checked from its bytes in one step.

    Only a yes is final: anything it rejects goes through `_parse`, which names the problem,
    so the quick and the slow way always count the same damaged lines.
    """
    try:
        if line.startswith(b'{"type":"'):
            if b'"record"' in line:
                return None  # the slow way says whether it is an event or a record
            event: Event = event_adapter.validate_json(line)
            return event
        if line.startswith(b'{"record":"conversation",'):
            return ConversationRecord.model_validate_json(line)
    except ValueError:  # pydantic's ValidationError is one
        return None
    return None


def _parse(
    line: bytes, elision: Elision | None, shortened: list[str]
) -> Event | ConversationRecord | None:
    """Check one line; None for an event of a type this version does not know."""
    value = json_object(line)
    record = value.get("record")
    if record == "conversation":
        try:
            return ConversationRecord.model_validate(value)
        except ValidationError as exc:
            raise LineProblem(f"bad conversation record: {first_error(exc)}") from None
    if record is not None:
        raise LineProblem(f"unknown record {record!r}")
    kind = value.get("type")
    if not isinstance(kind, str):
        raise LineProblem("neither an event (no `type`) nor a record")
    if kind not in _KNOWN_TYPES:
        return None
    if elision is not None:
        missing = elision.restore(value)
        if missing is not None:
            shortened.append(missing)
    try:
        parsed: Event = event_adapter.validate_python(value)
        return parsed
    except ValidationError as exc:
        raise LineProblem(f"bad {kind} event: {first_error(exc)}") from None


def _valid_delta(line: bytes) -> Event | None:
    """The quick check of a delta a listing leaves out: pydantic parses the bytes itself.

    Only a yes is final: anything it rejects goes through the full check, which names the
    problem, so a listing and a full read always count the same damaged lines.
    """
    if b'"record"' in line:
        return None
    try:
        return _DELTA_MODELS[line[: line.index(b'",') + 1]].model_validate_json(line)
    except (ValueError, KeyError):
        return None


def _mtime(path: Path) -> float:
    try:
        return path.stat().st_mtime
    except OSError:
        return 0.0


def renamed_note(path: Path, header_id: str) -> str | None:
    """What to say of a session file whose name is not the id inside it (a copy, a rename),
    or None when they agree."""
    if header_id == path.stem:
        return None
    return (
        f"{path.name} holds session {header_id} (the id in its first line): "
        f"it is listed and opened as {path.stem}"
    )
