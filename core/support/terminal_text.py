"""The one way text from a model, tool, task or file is made safe to show in a terminal.

A terminal obeys control characters: ESC starts sequences that set the window title, clear the
screen, move the cursor or write the clipboard; CR overprints a line; bidi overrides reorder what
a person reads. Invisible characters (every format character of Unicode: zero-width spaces and
joiners, the soft hyphen, tag characters, interlinear annotation marks; the Hangul fillers, the
combining grapheme joiner, the line and paragraph separators, variation selectors in a row) let
text say to a model what a person cannot see, or make two different strings look the same.
Untrusted text therefore reaches a screen only through `visible_controls`, which turns every
such character into a visible stand-in and leaves all other text exactly as it was.

Some invisible characters are part of ordinary writing, and stay where they do that work:
- U+200C (zero-width non-joiner) and U+200D (zero-width joiner) between two letters or marks of
  one script that spells with them: Arabic and Syriac (Persian writes ZWNJ inside words), the
  Indic scripts, Sinhala, Myanmar, Khmer and Mongolian (they choose a letter's form). Between
  letters of any other script (Latin, Hebrew, CJK, Hangul) they do nothing a reader needs, and
  are shown.
- U+200D inside an emoji ZWJ sequence (a pictograph, its skin tone or emoji presentation
  selector, ZWJ, a pictograph): man ZWJ woman ZWJ girl is one family, three people without.
- One variation selector right after the character it selects a form of: U+FE00-U+FE0F after a
  letter, digit, symbol or punctuation (U+FE0F draws ❤ as an emoji, 1 U+FE0F U+20E3 is a
  keycap), U+E0100-U+E01EF after a CJK ideograph (a name's registered glyph), the Mongolian
  free variation selectors after a Mongolian letter. A second one in a row, or one elsewhere,
  is shown: a run of them after an emoji spells hidden bytes.
- Arabic's number signs and end of ayah (format characters drawn around the digits they
  precede: U+0600-U+0605, U+06DD, U+0890-U+0891, U+08E2; Syriac's U+070F and Kaithi's
  U+110BD, U+110CD alike) before a digit.
- Tag characters (U+E0020-U+E007F) in an emoji tag sequence, the subdivision flags (U+1F3F4,
  then `gbsct` in tags, then the cancel tag): elsewhere they are hidden ASCII, and are shown.
"""

from __future__ import annotations

import re
import unicodedata
from bisect import bisect_right
from functools import cache

# Bidi embeddings/overrides (U+202A-U+202E) and isolates (U+2066-U+2069).
_BIDI_CONTROLS = [*range(0x202A, 0x202F), *range(0x2066, 0x206A)]
# Every format character (general category Cf) of Unicode 15, a superset of the 14.0 that
# Python 3.11 ships (tests/core/test_terminal_text.py checks this against unicodedata): besides
# the bidi controls, the soft hyphen, the Arabic letter mark, the Mongolian vowel separator,
# zero-width space, joiners and marks (U+200B-U+200F), the word joiner and invisible operators,
# the deprecated format characters (U+206A-U+206F), the byte order mark, the interlinear
# annotation characters (U+FFF9-U+FFFB), the format controls of hieroglyphs, shorthand and
# music, the tag characters, and the number marks that draw around digits.
_NUMBER_MARKS = frozenset(
    [*range(0x600, 0x606), 0x6DD, 0x70F, 0x890, 0x891, 0x8E2, 0x110BD, 0x110CD]
)
_FORMAT = [
    0x00AD,
    *_NUMBER_MARKS,
    0x061C,
    0x180E,
    *range(0x200B, 0x2010),
    *range(0x2060, 0x2065),
    *range(0x206A, 0x2070),
    0xFEFF,
    *range(0xFFF9, 0xFFFC),
    *range(0x13430, 0x13440),
    *range(0x1BCA0, 0x1BCA4),
    *range(0x1D173, 0x1D17B),
    *range(0xE0000, 0xE0080),
]
# Characters that draw nothing yet are letters or marks: the combining grapheme joiner
# (U+034F), the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0), Khmer's inherent vowels
# (U+17B4-U+17B5); and the line and paragraph separators (U+2028-U+2029).
_BLANK = [0x034F, 0x115F, 0x1160, 0x17B4, 0x17B5, 0x2028, 0x2029, 0x3164, 0xFFA0]
# Variation selectors: Mongolian's free ones (U+180B-U+180D, U+180F), VS1-16, VS17-256.
_MONGOLIAN_SELECTORS = frozenset([0x180B, 0x180C, 0x180D, 0x180F])
_SELECTORS = frozenset([*_MONGOLIAN_SELECTORS, *range(0xFE00, 0xFE10), *range(0xE0100, 0xE01F0)])
_INVISIBLE = [*_FORMAT, *_BLANK, *_SELECTORS]
ZWNJ = "\u200c"
ZWJ = "\u200d"


def _char_class(codes: list[int]) -> str:
    """A regular expression's character class body for `codes`, in ranges."""
    ranges: list[tuple[int, int]] = []
    for code in sorted(set(codes)):
        if ranges and ranges[-1][1] == code - 1:
            ranges[-1] = (ranges[-1][0], code)
        else:
            ranges.append((code, code))
    return "".join(
        re.escape(chr(first))
        if first == last
        else f"{re.escape(chr(first))}-{re.escape(chr(last))}"
        for first, last in ranges
    )


# C0 (bar newline and tab), DEL, C1, the bidi controls, the invisible characters above and lone
# surrogates (which a terminal's UTF-8 cannot carry: see core/support/utf8.py): nothing else is
# touched. The JSON writer (terminal_json.py) escapes the same, bar C0 (JSON escapes it).
HIDDEN = frozenset([*range(0x7F, 0xA0), *_BIDI_CONTROLS, *_INVISIBLE, *range(0xD800, 0xE000)])
# A regular expression finds them fast. In the BMP a character class is one table look-up per
# character, past it a list of ranges the engine walks for each character (every range more
# slows all text, found or not): there the few hidden characters are found within two spans,
# before the emoji and from the tags on, and the others in them go on unchanged (see HIDDEN).
_ASTRAL = sorted(code for code in HIDDEN if code > 0xFFFF)
_BEFORE_EMOJI = [code for code in _ASTRAL if code < 0x1F000]
_FROM_TAGS = [code for code in _ASTRAL if code >= 0xE0000]
HIDDEN_CLASS = _char_class([code for code in HIDDEN if code <= 0xFFFF]) + "".join(
    f"{chr(span[0])}-{chr(span[-1])}" for span in (_BEFORE_EMOJI, _FROM_TAGS)
)
_UNSAFE_PATTERN = f"[\x00-\x08\x0b-\x1f{HIDDEN_CLASS}]"
# A subdivision flag (UTS #51's emoji tag sequence): a region and subdivision code in tag
# letters and digits (`gbsct`), then the cancel tag. It is kept whole.
_TAG_LETTER = "\U000e0061-\U000e007a"
_FLAG = f"\U0001f3f4[{_TAG_LETTER}]{{2}}[{_TAG_LETTER}\U000e0030-\U000e0039]{{1,3}}\U000e007f"


# Compiled, and the stand-ins made, when first needed, not at import: together ~3 ms of the
# app's start-up, whose first frame shows only printable ASCII (see `visible_controls`).
@cache
def _unsafe() -> re.Pattern[str]:
    return re.compile(_UNSAFE_PATTERN)


@cache
def _shown_or_kept() -> re.Pattern[str]:
    return re.compile(f"{_FLAG}|{_UNSAFE_PATTERN}")


# Between a pictograph and ZWJ: its skin tone (U+1F3FB-U+1F3FF) or emoji presentation (U+FE0F).
_EMOJI_MODIFIERS = frozenset([*map(chr, range(0x1F3FB, 0x1F400)), "\ufe0f"])
# The blocks of the scripts that spell with ZWNJ and ZWJ, each named by its script (a join
# needs both letters in one): (first, last, script), in order.
_JOINING_BLOCKS = [
    (0x0600, 0x06FF, "Arabic"),
    (0x0700, 0x074F, "Syriac"),
    (0x0750, 0x077F, "Arabic"),
    (0x0860, 0x086F, "Syriac"),
    (0x0870, 0x08FF, "Arabic"),
    (0x0900, 0x097F, "Devanagari"),
    (0x0980, 0x09FF, "Bengali"),
    (0x0A00, 0x0A7F, "Gurmukhi"),
    (0x0A80, 0x0AFF, "Gujarati"),
    (0x0B00, 0x0B7F, "Oriya"),
    (0x0B80, 0x0BFF, "Tamil"),
    (0x0C00, 0x0C7F, "Telugu"),
    (0x0C80, 0x0CFF, "Kannada"),
    (0x0D00, 0x0D7F, "Malayalam"),
    (0x0D80, 0x0DFF, "Sinhala"),
    (0x1000, 0x109F, "Myanmar"),
    (0x1780, 0x17FF, "Khmer"),
    (0x1800, 0x18AF, "Mongolian"),
    (0x19E0, 0x19FF, "Khmer"),
    (0x1CD0, 0x1CFF, "Devanagari"),  # Vedic extensions
    (0xA8E0, 0xA8FF, "Devanagari"),
    (0xA9E0, 0xA9FF, "Myanmar"),
    (0xAA60, 0xAA7F, "Myanmar"),
    (0xFB50, 0xFDFF, "Arabic"),
    (0xFE70, 0xFEFE, "Arabic"),
    (0x11660, 0x1167F, "Mongolian"),
]
_JOINING_STARTS = [first for first, _, _ in _JOINING_BLOCKS]


@cache
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


def clipped(text: str, limit: int) -> str:
    """`text`, cut to `limit` characters with `…` as the last one when it is longer."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def visible_controls(text: str) -> str:
    """`text` with every terminal control and invisible character made visible: `\\x1b[2J`
    becomes `␛[2J`, a zero-width space `<U+200B>`.

    Newline and tab pass through. CRLF becomes LF; any other CR shows as `␍` so it cannot
    overprint. C1 characters show as `\\x85`-style escapes; bidi controls, invisible characters
    and lone surrogates as `<U+202E>`. ZWNJ and ZWJ that join letters of a script that needs
    them, ZWJ inside an emoji sequence, one variation selector after what it selects, a number
    mark before its digits and the tags of a subdivision flag stay (see above).
    """
    if text.isascii() and text.isprintable():  # no C0, no DEL: nothing to show
        return text
    if _unsafe().search(text) is None:
        return text
    return _shown_or_kept().sub(_shown, text.replace("\r\n", "\n"))


def _shown(found: re.Match[str]) -> str:
    char = found.group()
    if len(char) > 1:  # a subdivision flag
        return char
    code = ord(char)
    text, at = found.string, found.start()
    if char in (ZWNJ, ZWJ) and _joins(text, at, char):
        return char
    if code in _SELECTORS and _selects(text, at, code):
        return char
    if code in _NUMBER_MARKS and at + 1 < len(text) and text[at + 1].isdecimal():
        return char
    return _stand_ins().get(code, char)  # the spans of HIDDEN_CLASS hold others


def _joins(text: str, at: int, joiner: str) -> bool:
    """The joiner at `text[at]` does a job a reader needs: see the module's docstring."""
    if at == 0 or at + 1 == len(text):
        return False
    before, after = text[at - 1], text[at + 1]
    if ord(before) in HIDDEN or ord(after) in HIDDEN:  # a shown neighbour joins nothing
        return before == "\ufe0f" and _emoji_joins(text, at, joiner)
    script = _joining_script(before)
    if script is not None and script == _joining_script(after):
        return True
    return _emoji_joins(text, at, joiner)


def _emoji_joins(text: str, at: int, joiner: str) -> bool:
    """ZWJ at `text[at]` between two pictographs, the first with its skin tone or emoji
    presentation selector (one: a second would be shown, leaving the ZWJ after it alone)."""
    if joiner != ZWJ or not _pictograph(text[at + 1]):
        return False
    start = at - 1
    if text[start] in _EMOJI_MODIFIERS and start > 0:
        start -= 1
    return _pictograph(text[start])


def _selects(text: str, at: int, selector: int) -> bool:
    """The variation selector at `text[at]` follows the character it selects a form of, and
    is the first after it."""
    if at == 0:
        return False
    base = text[at - 1]
    if selector in _MONGOLIAN_SELECTORS:
        return _joining_script(base) == "Mongolian" and unicodedata.category(base)[0] == "L"
    if selector >= 0xE0100:  # ideographic: a registered glyph of one CJK ideograph
        return unicodedata.name(base, "").startswith(("CJK UNIFIED", "CJK COMPATIBILITY IDEO"))
    return ord(base) not in HIDDEN and unicodedata.category(base)[0] in "LNSP"


def _joining_script(char: str) -> str | None:
    """The script among those that spell with joiners whose letter or mark `char` is."""
    code = ord(char)
    block = bisect_right(_JOINING_STARTS, code) - 1
    if block < 0 or code > _JOINING_BLOCKS[block][1]:
        return None
    if unicodedata.category(char)[0] not in "LM":
        return None
    return _JOINING_BLOCKS[block][2]


def _pictograph(char: str) -> bool:
    return unicodedata.category(char) == "So"
