"""visible_controls: no terminal control survives, and ordinary text is untouched."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.support.terminal_text import HIDDEN_CLASS, visible_controls

ESC = "\x1b"
BEL = "\x07"


@pytest.mark.parametrize(
    ("raw", "shown"),
    [
        (f"{ESC}[2J", "␛[2J"),
        (f"{ESC}[5;5Hx", "␛[5;5Hx"),
        (f"{ESC}[31mred{ESC}[0m", "␛[31mred␛[0m"),
        (f"{ESC}]0;TITLE{BEL}", "␛]0;TITLE␇"),
        (f"{ESC}]52;c;aGk={BEL}", "␛]52;c;aGk=␇"),
        (
            f"{ESC}]8;;http://x.test/{ESC}\\link{ESC}]8;;{ESC}\\",
            "␛]8;;http://x.test/␛\\link␛]8;;␛\\",
        ),
        ("ding" + BEL, "ding␇"),
        ("abc\bX", "abc␈X"),
        ("nul\x00byte", "nul␀byte"),
        ("del\x7f", "del␡"),
        ("vt\x0bff\x0c", "vt␋ff␌"),
        ("line one\r\nline two", "line one\nline two"),
        ("safe\rEVIL", "safe␍EVIL"),
        ("trailing\r", "trailing␍"),
        ("\r\r\n", "␍\n"),
        ("c1 csi \x9b2J", "c1 csi \\x9b2J"),
        ("nel\x85 st\x9c", "nel\\x85 st\\x9c"),
        ("abc\u202edcba", "abc<U+202E>dcba"),
        ("\u2066iso\u2069 \u202aemb\u202c", "<U+2066>iso<U+2069> <U+202A>emb<U+202C>"),
        ("tab\tand\nnewline stay", "tab\tand\nnewline stay"),
        ("pay\u200bpal", "pay<U+200B>pal"),
        ("a\u200cb\u200dc", "a<U+200C>b<U+200D>c"),
        (
            "\u2060join\ufeffbom\u200e\u200f\u061c",
            "<U+2060>join<U+FEFF>bom<U+200E><U+200F><U+061C>",
        ),
        ("soft\xadhyphen", "soft<U+00AD>hyphen"),
        ("line\u2028para\u2029", "line<U+2028>para<U+2029>"),
        ("hi\U000e0049\U000e0047", "hi<U+E0049><U+E0047>"),
        ("\u200d\U0001f469 alone", "<U+200D>\U0001f469 alone"),
        # Joiners between letters of scripts that do not spell with them: a hidden bit each.
        ("\u4e00\u200d\u4e01\u200c\u4e02", "\u4e00<U+200D>\u4e01<U+200C>\u4e02"),
        ("\ud55c\u200c\uad6d", "\ud55c<U+200C>\uad6d"),  # Hangul
        ("\u05e9\u200d\u05dc", "\u05e9<U+200D>\u05dc"),  # Hebrew
        ("\u0645\u200c\u0915", "\u0645<U+200C>\u0915"),  # Arabic, then Devanagari
        # Variation selectors: a run after an emoji spells bytes; one elsewhere selects nothing.
        ("\U0001f600\U000e0100\U000e01ef", "\U0001f600<U+E0100><U+E01EF>"),
        ("\u2764\ufe0f\ufe0f", "\u2764\ufe0f<U+FE0F>"),
        ("\ufe0fstart", "<U+FE0F>start"),
        (" \ufe0f", " <U+FE0F>"),
        ("a\U000e0100", "a<U+E0100>"),  # an ideographic selector after a Latin letter
        ("a\u180b", "a<U+180B>"),  # a Mongolian one after a Latin letter
        # Format characters and fillers that draw nothing.
        ("x\u180ey", "x<U+180E>y"),
        ("\u206a\u206f", "<U+206A><U+206F>"),
        ("\ufff9a\ufffab\ufffb", "<U+FFF9>a<U+FFFA>b<U+FFFB>"),
        ("\u115f\u1160\u3164\uffa0\u034f", "<U+115F><U+1160><U+3164><U+FFA0><U+034F>"),
        ("\U0001d173beam\U0001bca0", "<U+1D173>beam<U+1BCA0>"),
        ("\u0600x", "<U+0600>x"),  # a number sign before no number
        ("[bold]markup is data[/]", "[bold]markup is data[/]"),
        ("", ""),
    ],
)
def test_controls_become_visible(raw: str, shown: str) -> None:
    assert visible_controls(raw) == shown


@pytest.mark.parametrize(
    "kept",
    [
        "\U0001f468\u200d\U0001f469\u200d\U0001f467",  # a family: three people without ZWJ
        "\U0001f44d\U0001f3fd\u200d\U0001f44d",  # a skin tone before the joiner
        "\u2764\ufe0f\u200d\U0001f525",  # emoji presentation before the joiner
        "\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",  # Persian: ZWNJ inside a word
        "\u0915\u094d\u200d\u0937",  # Devanagari: ZWJ chooses the half form
        "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",  # Scotland
        "\u0dc1\u0dca\u200d\u0dbb\u0dd3",  # Sinhala: ZWJ makes the rakaransaya
        "\u1000\u103a\u200c\u1000",  # Myanmar
        "\u0718\u200d\u0710",  # Syriac
        "\u2764\ufe0f and \u2603\ufe0e",  # one presentation selector after its symbol
        "1\ufe0f\u20e3",  # a keycap
        "\u845b\U000e0100",  # an ideograph's registered glyph (a name's)
        "\u1820\u180b\u1821",  # Mongolian's free variation selector
        "\u0600\u0661\u0662 \u06dd\u0663",  # Arabic's number sign and end of ayah
    ],
)
def test_joiners_and_tags_that_write_a_word_or_an_emoji_stay(kept: str) -> None:
    assert visible_controls(kept) == kept


def test_every_c0_and_del_uses_a_control_picture() -> None:
    for code in [*range(0x20), 0x7F]:
        if chr(code) in "\n\t\r":
            continue
        shown = visible_controls(chr(code))
        assert len(shown) == 1
        assert unicodedata.name(shown).startswith("SYMBOL FOR"), hex(code)


def _is_forbidden(char: str) -> bool:
    code = ord(char)
    return (code < 0x20 and char not in "\n\t") or 0x7F <= code <= 0x9F


_BIDI = {*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A))}
# Drawing nothing, besides every format character (Cf): the line and paragraph separators,
# the combining grapheme joiner, the Hangul fillers, Khmer's inherent vowels.
_BLANK = {*"\u2028\u2029\u034f\u115f\u1160\u3164\uffa0\u17b4\u17b5"}
_SELECTORS = {
    *"\u180b\u180c\u180d\u180f",
    *map(chr, range(0xFE00, 0xFE10)),
    *map(chr, range(0xE0100, 0xE01F0)),
}
# Hidden though Python 3.11's Unicode 14 calls them unassigned: format controls of hieroglyphs
# that Unicode 15 added (U+13439-U+1343F), and the tag block whole, so a later Unicode that
# assigns its free code points (U+E0000, U+E0002-U+E001F) cannot slip one through.
_NEWER_FORMAT = {*map(chr, range(0x13439, 0x13440)), *map(chr, range(0xE0000, 0xE0080))}
_NUMBER_MARKS = {*"\u0600\u0601\u0602\u0603\u0604\u0605\u06dd\u070f\u0890\u0891\u08e2"}
_NUMBER_MARKS |= {"\U000110bd", "\U000110cd"}
_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e007a]{3,5}\U000e007f")
_JOINING_SCRIPTS = {
    "ARABIC",
    "SYRIAC",
    "DEVANAGARI",
    "VEDIC",
    "BENGALI",
    "GURMUKHI",
    "GUJARATI",
    "ORIYA",
    "TAMIL",
    "TELUGU",
    "KANNADA",
    "MALAYALAM",
    "SINHALA",
    "MYANMAR",
    "KHMER",
    "MONGOLIAN",
}


def _invisible(char: str) -> bool:
    return unicodedata.category(char) == "Cf" or char in _BLANK or char in _SELECTORS


def _joining_letter(char: str) -> bool:
    named = set(unicodedata.name(char, "").split())
    return unicodedata.category(char)[0] in "LM" and bool(named & _JOINING_SCRIPTS)


def _joins(before: str, after: str) -> bool:
    """A joiner between these two may stay: letters of a script that spells with it, or
    pictographs (with a skin tone or emoji presentation between)."""
    letters = _joining_letter(before) and _joining_letter(after)
    emoji = unicodedata.category(after) == "So" and (
        unicodedata.category(before) == "So"
        or before == "\ufe0f"
        or 0x1F3FB <= ord(before) <= 0x1F3FF
    )
    return letters or emoji


def _selects(before: str) -> bool:
    """A variation selector after this may stay (one: a selector selects nothing)."""
    return unicodedata.category(before)[0] in "LNSP" and before not in _SELECTORS


def _may_stay(text: str, at: int) -> bool:
    """The invisible character at `text[at]` is one of the kinds that do a reader's work."""
    char = text[at]
    before = text[at - 1] if at > 0 else ""
    after = text[at + 1] if at + 1 < len(text) else ""
    if char in "\u200c\u200d":
        return bool(before and after) and _joins(before, after)
    if char in _SELECTORS:
        return bool(before) and _selects(before)
    return char in _NUMBER_MARKS and after.isdecimal()


# Hypothesis draws joiners, tags, selectors and what they follow often enough to meet the
# rules' edges.
_EDGES = st.sampled_from(
    [
        *("\u200c", "\u200d", "\U0001f469", "\u0645", "\u0915", "\u094d", "\u4e00", "\ud55c"),
        *("\U0001f3f4", "\U000e0067", "\U000e007f", "\ufe0f", "\ufe0e", "\U000e0100", "1"),
        *("\u1820", "\u180b", "\u0600", "\u0661", "\u3164", "\u180e"),
    ]
)


@given(st.lists(st.text() | _EDGES).map("".join))
def test_output_never_holds_a_control(text: str) -> None:
    shown = visible_controls(text)
    assert not any(_is_forbidden(char) or char in _BIDI for char in shown)
    unflagged = _FLAG.sub("", shown)
    for at, char in enumerate(unflagged):
        if _invisible(char):
            assert _may_stay(unflagged, at), repr(unflagged)


def test_every_format_character_is_shown_somewhere() -> None:
    """Every Cf of the Unicode Python knows, alone between two letters (where no rule keeps
    it), is shown; as is every filler and selector."""
    formats = [chr(c) for c in range(0x110000) if unicodedata.category(chr(c)) == "Cf"]
    for char in [*formats, *_BLANK, *_SELECTORS]:
        assert visible_controls(f"x{char}y") == f"x<U+{ord(char):04X}>y" or (
            char in _SELECTORS and visible_controls(f"x{char}y") == f"x{char}y"
        ), hex(ord(char))


def test_a_run_of_selectors_shows_all_but_the_first() -> None:
    hidden = "".join(map(chr, range(0xE0100, 0xE0110)))
    shown = visible_controls("\u845b" + hidden)
    assert shown == "\u845b\U000e0100" + "".join(f"<U+{c:05X}>" for c in range(0xE0101, 0xE0110))


def test_emoji_and_ideographs_past_the_bmp_go_the_fast_way() -> None:
    """The pattern's two spans past the BMP (terminal_text.HIDDEN_CLASS) hold no emoji nor
    ideograph: text full of them is not searched character by character in Python."""
    pattern = re.compile(f"[{HIDDEN_CLASS}]")
    for code in [*range(0x1F000, 0x1FB00), *range(0x20000, 0x3134B)]:
        assert pattern.match(chr(code)) is None, hex(code)


@given(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs", "Cf"),
            blacklist_characters="".join(sorted(_BIDI | _BLANK | _SELECTORS | _NEWER_FORMAT)),
        )
        | st.sampled_from("\n\t")
    )
)
def test_text_without_controls_is_unchanged(text: str) -> None:
    assert visible_controls(text) == text


@pytest.mark.parametrize("char", sorted(_NEWER_FORMAT))
def test_format_characters_newer_than_python_s_unicode_are_shown(char: str) -> None:
    assert visible_controls(f"a{char}b") == f"a<U+{ord(char):04X}>b"


@given(st.lists(st.text() | _EDGES).map("".join))
def test_applying_twice_changes_nothing_more(text: str) -> None:
    once = visible_controls(text)
    assert visible_controls(once) == once
