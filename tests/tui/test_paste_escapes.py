"""A pasted escape sequence stays text: one Paste event, no key presses (Textual's parser alone
turned it into keys: a pasted colour code could send a task or run an agent command)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual import events

from agentui.tui.app.paste_escapes import (
    PASTE_END,
    PASTE_START,
    PasteEscapes,
    PasteSafeParser,
)

HOSTILE = "note\x1b[0m rgo on\rcancel \x1b]0;title\x07 p"


def parsed(*chunks: str) -> list[object]:
    parser = PasteSafeParser()
    out: list[object] = []
    for chunk in chunks:
        out.extend(parser.feed(chunk))
    return out


def test_a_paste_with_escape_sequences_is_one_paste_event_and_no_keys() -> None:
    got = parsed(f"{PASTE_START}{HOSTILE}{PASTE_END}")
    assert [type(e) for e in got] == [events.Paste]
    assert got[0].text == HOSTILE.replace("\x1b", "␛")  # type: ignore[attr-defined]


def test_markers_cut_between_reads_still_hold_the_paste_together() -> None:
    whole = f"x{PASTE_START}{HOSTILE}{PASTE_END}y"
    for cut in range(1, len(whole)):
        got = parsed(whole[:cut], whole[cut:])
        pastes = [e for e in got if isinstance(e, events.Paste)]
        keys = [e.character for e in got if isinstance(e, events.Key)]
        assert [p.text for p in pastes] == [HOSTILE.replace("\x1b", "␛")], cut
        assert keys == ["x", "y"], cut


def test_escape_outside_a_paste_is_untouched_and_not_held_back() -> None:
    guard = PasteEscapes()
    assert guard.feed("\x1b") == "\x1b", "a lone escape key goes on at once"
    assert guard.feed("[A") == "[A"


@given(st.text(alphabet="ab\x1b[201~\r", max_size=40), st.lists(st.integers(1, 50), max_size=6))
def test_chunking_never_changes_what_comes_out(content: str, cuts: list[int]) -> None:
    stream = f"k{PASTE_START}{content.replace(PASTE_END, '')}{PASTE_END}k"
    whole = PasteEscapes().feed(stream)
    guard = PasteEscapes()
    pieces, rest = [], stream
    for cut in cuts:
        pieces.append(guard.feed(rest[:cut]))
        rest = rest[cut:]
    pieces.append(guard.feed(rest))
    pieces.append(guard.feed(""))
    assert "".join(pieces) == whole
    inside = whole[whole.index(PASTE_START) + len(PASTE_START) : whole.rindex(PASTE_END)]
    assert "\x1b" not in inside
