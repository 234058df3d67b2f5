"""JSON text that is safe to print on a terminal and keeps every string exact.

`json.dumps(..., ensure_ascii=False)` escapes C0 controls but lets DEL, C1 controls, the bidi
overrides and isolates and the invisible characters through raw (a terminal obeys C1's CSI and
OSC; a bidi override reorders what a person reads; a zero-width, tag or format character, a
Hangul filler or a run of variation selectors hides text), and lone surrogates, which UTF-8
cannot carry. They can stand only inside JSON strings, so each is written as its `\\uXXXX`
escape (a pair of them past U+FFFF): a JSON reader gets the exact string back, a terminal shows
harmless characters. Everything else stays readable (ensure_ascii=True would escape every
accented letter). Unlike the screen (core/support/terminal_text.py), JSON escapes every one of
them wherever it stands, joiners inside emoji and words and an emoji's presentation selector
too: a program reads the escape as the character, so nothing is lost.
"""

from __future__ import annotations

import json
import re
from typing import Any

from agentui.core.support.terminal_text import HIDDEN, HIDDEN_CLASS

# The characters the screen shows as stand-ins (terminal_text.py), C0 aside: json escapes it.
_ESCAPED = re.compile(f"[{HIDDEN_CLASS}]")


def terminal_json(data: Any, **options: Any) -> str:
    """`json.dumps(data, ensure_ascii=False, **options)` with terminal controls escaped."""
    return escaped_controls(json.dumps(data, ensure_ascii=False, **options))


def escaped_controls(json_text: str) -> str:
    """JSON text (from any writer that leaves non-ASCII raw, such as pydantic's
    `model_dump_json`) with terminal controls and invisible characters escaped. Every character
    escaped is outside ASCII, so it can only stand inside a string, where its escape means it."""
    return _ESCAPED.sub(_escape, json_text)


def _escape(found: re.Match[str]) -> str:
    code = ord(found.group())
    if code not in HIDDEN:  # the spans of HIDDEN_CLASS hold others
        return found.group()
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # past the BMP JSON writes a UTF-16 surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"
