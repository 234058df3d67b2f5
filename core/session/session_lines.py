"""A session file's lines, each a JSON object, and its first one, the header: what the reader
(reader.py) checks of every line, and the header alone, read to sort sessions or find the newest
(`--resume` without an id) without loading the reader's event models.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentui.core.session.errors import SessionError
from agentui.core.session.records import SessionHeader
from agentui.core.support.validation import error_location


class LineProblem(Exception):
    """A line that does not parse (kept apart from pydantic's errors to name the line)."""


def json_object(line: bytes) -> dict[str, Any]:
    if not line.strip():
        raise LineProblem("the line is empty")
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LineProblem(f"not UTF-8 text (a bad byte at column {exc.start + 1})") from None
    try:
        value = json.loads(text)
    except ValueError as exc:
        raise LineProblem(f"not valid JSON ({exc})") from None
    if not isinstance(value, dict):
        raise LineProblem("not a JSON object")
    return value


def header_of(line: bytes) -> SessionHeader:
    value = json_object(line)
    if value.get("record") != "header":
        raise LineProblem("the first line is not a session header")
    try:
        return SessionHeader.model_validate(value)
    except ValidationError as exc:
        raise LineProblem(f"bad header: {first_error(exc)}") from None


def first_error(exc: ValidationError) -> str:
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
        return header_of(line)
    except LineProblem as exc:
        raise SessionError(f"{path}: not a session file: {exc}") from None
