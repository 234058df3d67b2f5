"""visible_controls: no terminal control survives, and ordinary text is untouched."""

from __future__ import annotations

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
        ("[bold]markup is data[/]", "[bold]markup is data[/]"),
        ("", ""),
    ],
)
def test_controls_become_visible(raw: str, shown: str) -> None:
    assert visible_controls(raw) == shown


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


@given(st.text())
def test_output_never_holds_a_control(text: str) -> None:
    shown = visible_controls(text)
    assert not any(_is_forbidden(char) or char in _BIDI for char in shown)


@given(
    st.text(
        alphabet=st.characters(
            blacklist_categories=("Cc", "Cs"),
            blacklist_characters="".join(sorted(_BIDI)),
        )
        | st.sampled_from("\n\t")
    )
)
def test_text_without_controls_is_unchanged(text: str) -> None:
    assert visible_controls(text) == text


@given(st.text())
def test_applying_twice_changes_nothing_more(text: str) -> None:
    once = visible_controls(text)
    assert visible_controls(once) == once
