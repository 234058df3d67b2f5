"""JSON text that is safe to print on a terminal and keeps every string exact.

`json.dumps(..., ensure_ascii=False)` escapes C0 controls but lets DEL, C1 controls and the bidi
overrides and isolates through raw (a terminal obeys C1's CSI and OSC; a bidi override
reorders what a person reads), and lone surrogates, which UTF-8 cannot carry. They can stand
only inside JSON strings, so each is written as its `\\uXXXX` escape: a JSON reader gets the
exact string back, a terminal shows six harmless characters. Everything else stays readable
(ensure_ascii=True would escape every accented letter).
"""

from __future__ import annotations

import json
import re
from typing import Any

_ESCAPED = re.compile("[\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def terminal_json(data: Any, **options: Any) -> str:
    """`json.dumps(data, ensure_ascii=False, **options)` with terminal controls escaped."""
    text = json.dumps(data, ensure_ascii=False, **options)
    return _ESCAPED.sub(lambda found: f"\\u{ord(found.group()):04x}", text)
