"""The one way text from a model, tool, task or file is made safe to show in a terminal.

A terminal obeys control characters: ESC starts sequences that set the window title, clear the
screen, move the cursor or write the clipboard; CR overprints a line; bidi overrides reorder what
a person reads. Untrusted text therefore reaches a screen only through `visible_controls`, which
turns every such character into a visible stand-in and leaves all other text exactly as it was.
"""

from __future__ import annotations

import re

# Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
_BIDI_CONTROLS = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]

# C0 (bar newline and tab), DEL, C1, the bidi controls above and lone surrogates (which a
# terminal's UTF-8 cannot carry: see core/support/utf8.py): nothing else is touched.
_UNSAFE = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _stand_ins() -> dict[int, str]:
    # C0 and DEL have their own glyphs in Unicode's Control Pictures block (U+2400-U+2421).
    table = {code: chr(0x2400 + code) for code in range(0x20) if code not in (0x09, 0x0A)}
    table[0x7F] = "\u2421"
    # C1 has no pictures; a Python-style escape names the byte unambiguously.
    table.update({code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})
    table.update({code: f"<U+{code:04X}>" for code in _BIDI_CONTROLS})
    table.update({code: f"<U+{code:04X}>" for code in range(0xD800, 0xE000)})
    return table


_STAND_INS = _stand_ins()


def clipped(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with `…` as the last one when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def visible_controls(text: str) -> str:
    """`text` with every terminal control made visible: `\\x1b[2J` becomes `␛[2J`.

    Newline and tab pass through. CRLF becomes LF; any other CR shows as `␍` so it cannot
    overprint. C1 characters show as `\\x85`-style escapes, bidi controls and lone surrogates as
    `<U+202E>`.
    """
    if _UNSAFE.search(text) is None:
        return text
    return text.replace("\r\n", "\n").translate(_STAND_INS)
