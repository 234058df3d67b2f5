"""visible_controls: no terminal control survives, and ordinary text is untouched."""

from __future__ import annotations

import re
import unicodedata

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.support.terminal_text import visible_controls

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
_INVISIBLE = {
    *"\xad\u061c\u2028\u2029\ufeff",
    *map(chr, range(0x200B, 0x2010)),
    *map(chr, range(0x2060, 0x2065)),
    *map(chr, range(0xE0000, 0xE0080)),
}
_FLAG = re.compile("\U0001f3f4[\U000e0030-\U000e007a]{3,5}\U000e007f")


def _joins(before: str, after: str) -> bool:
    """A joiner between these two may stay: letters of a script that spells with it, or
    pictographs (with a skin tone or emoji presentation between)."""
    letters = all(ord(c) >= 0x590 and unicodedata.category(c)[0] in "LM" for c in (before, after))
    emoji = unicodedata.category(after) == "So" and (
        unicodedata.category(before) == "So"
        or before == "\ufe0f"
        or 0x1F3FB <= ord(before) <= 0x1F3FF
    )
    return letters or emoji


# Hypothesis draws joiners, tags and pictographs often enough to meet the rules' edges.
_EDGES = st.sampled_from(
    ["\u200c", "\u200d", "\U0001f469", "\u0645", "\U0001f3f4", "\U000e0067", "\U000e007f", "\ufe0f"]
)


@given(st.lists(st.text() | _EDGES).map("".join))
def test_output_never_holds_a_control(text: str) -> None:
    shown = visible_controls(text)
    assert not any(_is_forbidden(char) or char in _BIDI for char in shown)
    unflagged = _FLAG.sub("", shown)
    for at, char in enumerate(unflagged):
        if char in _INVISIBLE:
            assert char in "\u200c\u200d", repr(unflagged)
            assert 0 < at < len(unflagged) - 1 and _joins(unflagged[at - 1], unflagged[at + 1])


@given(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs"),
            blacklist_characters="".join(sorted(_BIDI | _INVISIBLE)),
        )
        | st.sampled_from("\n\t")
    )
)
def test_text_without_controls_is_unchanged(text: str) -> None:
    assert visible_controls(text) == text


@given(st.lists(st.text() | _EDGES).map("".join))
def test_applying_twice_changes_nothing_more(text: str) -> None:
    once = visible_controls(text)
    assert visible_controls(once) == once
