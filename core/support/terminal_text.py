"""The one way text from a model, tool, task or file is made safe to show in a terminal.

A terminal obeys control characters: ESC starts sequences that set the window title, clear the
screen, move the cursor or write the clipboard; CR overprints a line; bidi overrides reorder what
a person reads. Invisible characters (zero-width spaces and joiners, the soft hyphen, tag
characters, the line and paragraph separators) let text say to a model what a person cannot see,
or make two different strings look the same. Untrusted text therefore reaches a screen only
through `visible_controls`, which turns every such character into a visible stand-in and leaves
all other text exactly as it was.

Some invisible characters are part of ordinary writing, and stay where they do that work:
- U+200C (zero-width non-joiner) and U+200D (zero-width joiner) between two letters or marks of
  the scripts from Hebrew on (U+0590 and up): Persian writes ZWNJ inside words, Indic scripts
  and Sinhala use both to choose a letter's form. Between Latin, Greek or Cyrillic letters they
  do nothing a reader needs, and are shown.
- U+200D inside an emoji ZWJ sequence (a pictograph, its skin tone or emoji presentation
  selector, ZWJ, a pictograph): man ZWJ woman ZWJ girl is one family, three people without.
- Tag characters (U+E0020-U+E007F) in an emoji tag sequence, the subdivision flags (U+1F3F4,
  then `gbsct` in tags, then the cancel tag): elsewhere they are hidden ASCII, and are shown.
"""

from __future__ import annotations

import re
import unicodedata

# Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
_BIDI_CONTROLS = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
# Characters that draw nothing: zero-width space, non-joiner and joiner (U+200B-U+200D), the
# left-to-right and right-to-left marks (U+200E-U+200F) and the Arabic letter mark (U+061C),
# word joiner and the invisible operators (U+2060-U+2064), the byte order mark or zero-width
# no-break space (U+FEFF), the soft hyphen (U+00AD), the line and paragraph separators
# (U+2028-U+2029) and the tag characters (U+E0000-U+E007F).
_INVISIBLE = [
    0x00AD,
    0x061C,
    *range(0x200B, 0x2010),
    0x2028,
    0x2029,
    *range(0x2060, 0x2065),
    0xFEFF,
    *range(0xE0000, 0xE0080),
]
ZWNJ = "\u200c"
ZWJ = "\u200d"

# C0 (bar newline and tab), DEL, C1, the bidi controls, the invisible characters above and lone
# surrogates (which a terminal's UTF-8 cannot carry: see core/support/utf8.py): nothing else is
# touched.
_UNSAFE = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f\xad\u061c\u200b-\u200f\u2028\u2029\u202a-\u202e"
    "\u2060-\u2064\u2066-\u2069\ufeff\ud800-\udfff\U000e0000-\U000e007f]"
)
# A subdivision flag (UTS #51's emoji tag sequence): a region and subdivision code in tag
# letters and digits (`gbsct`), then the cancel tag. It is kept whole.
_TAG_LETTER = "\U000e0061-\U000e007a"
_FLAG = f"\U0001f3f4[{_TAG_LETTER}]{{2}}[{_TAG_LETTER}\U000e0030-\U000e0039]{{1,3}}\U000e007f"
_SHOWN = re.compile(f"{_FLAG}|{_UNSAFE.pattern}")
# Between a pictograph and ZWJ: its skin tone (U+1F3FB-U+1F3FF) or emoji presentation (U+FE0F).
_EMOJI_MODIFIERS = frozenset([*map(chr, range(0x1F3FB, 0x1F400)), "\ufe0f"])
# The scripts whose spelling uses ZWNJ and ZWJ start with Hebrew.
_JOINING_SCRIPTS_FROM = 0x0590


def _stand_ins() -> dict[int, str]:
    # C0 and DEL have their own glyphs in Unicode's Control Pictures block (U+2400-U+2421).
    table = {code: chr(0x2400 + code) for code in range(0x20) if code not in (0x09, 0x0A)}
    table[0x7F] = "\u2421"
    # C1 has no pictures; a Python-style escape names the byte unambiguously.
    table.update({code: f"\\x{code:02x}" for code in range(0x80, 0xA0)})
    table.update({code: f"<U+{code:04X}>" for code in _BIDI_CONTROLS})
    table.update({code: f"<U+{code:04X}>" for code in _INVISIBLE})
    table.update({code: f"<U+{code:04X}>" for code in range(0xD800, 0xE000)})
    return table


_STAND_INS = _stand_ins()


def clipped(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with `…` as the last one when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def visible_controls(text: str) -> str:
    """`text` with every terminal control and invisible character made visible: `\\x1b[2J`
    becomes `␛[2J`, a zero-width space `<U+200B>`.

    Newline and tab pass through. CRLF becomes LF; any other CR shows as `␍` so it cannot
    overprint. C1 characters show as `\\x85`-style escapes; bidi controls, invisible characters
    and lone surrogates as `<U+202E>`. ZWNJ and ZWJ that join letters of a script that needs
    them, ZWJ inside an emoji sequence and the tags of a subdivision flag stay (see above).
    """
    if _UNSAFE.search(text) is None:
        return text
    return _SHOWN.sub(_shown, text.replace("\r\n", "\n"))


def _shown(found: re.Match[str]) -> str:
    char = found.group()
    if len(char) > 1:  # a subdivision flag
        return char
    if char in (ZWNJ, ZWJ) and _joins(found.string, found.start(), char):
        return char
    return _STAND_INS[ord(char)]


def _joins(text: str, at: int, joiner: str) -> bool:
    """The joiner at `text[at]` does a job a reader needs: see the module's docstring."""
    if at == 0 or at + 1 == len(text):
        return False
    before, after = text[at - 1], text[at + 1]
    if _script_letter(before) and _script_letter(after):
        return True
    if joiner != ZWJ or not _pictograph(after):
        return False
    start = at - 1
    while start > 0 and text[start] in _EMOJI_MODIFIERS:
        start -= 1
    return _pictograph(text[start])


def _script_letter(char: str) -> bool:
    return ord(char) >= _JOINING_SCRIPTS_FROM and unicodedata.category(char)[0] in "LM"


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So"
