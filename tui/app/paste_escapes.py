"""Escape characters inside a bracketed paste stay text, never keys.

Textual 8's input parser (`XTermParser`) reads an ESC inside a bracketed paste as the start of
a key sequence: the sequence and what follows it come out as key presses (a pasted colour code
typed letters, sent a half task with a pasted line break, or ran agent commands), and the paste
itself came out cut. Some terminals strip ESC from pastes; others (xterm, tmux) do not.

Before the parser sees the terminal's input, every ESC between the paste's start and end
markers becomes the visible `␛` (as `visible_controls` shows it anywhere else), so the paste
arrives whole as one Paste event. Input outside a paste passes unchanged and undelayed.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual.message import Message

from agentui.tui.app.textual_compat import XTermParser, use_input_parser

ESC = "\x1b"
SHOWN_ESC = "␛"
PASTE_START = "\x1b[200~"
PASTE_END = "\x1b[201~"


class PasteEscapes:
    """Rewrites a stream of terminal input chunk by chunk; `feed("")` ends it."""

    def __init__(self) -> None:
        self._in_paste = False
        self._carry = ""  # the end of a chunk inside a paste that may begin the end marker
        self._tail = ""  # the last characters outside a paste: a start marker may span chunks

    def feed(self, data: str) -> str:
        if not data:
            rest, self._carry = self._carry, ""
            return rest
        text, self._carry = self._carry + data, ""
        out: list[str] = []
        pos = 0
        while pos < len(text):
            if self._in_paste:
                end = text.find(PASTE_END, pos)
                if end < 0:
                    stop = len(text) - _partial_marker(text, PASTE_END)
                    out.append(text[pos:stop].replace(ESC, SHOWN_ESC))
                    self._carry = text[stop:]
                    break
                out.append(text[pos:end].replace(ESC, SHOWN_ESC) + PASTE_END)
                pos = end + len(PASTE_END)
                self._in_paste = False
                self._tail = ""
            else:
                window = self._tail + text[pos:]
                start = window.find(PASTE_START)
                if start < 0:
                    out.append(text[pos:])
                    self._tail = window[-(len(PASTE_START) - 1) :]
                    break
                inside = pos + start + len(PASTE_START) - len(self._tail)
                out.append(text[pos:inside])
                pos = inside
                self._in_paste = True
                self._tail = ""
        return "".join(out)


def _partial_marker(text: str, marker: str) -> int:
    """How many characters at the end of `text` begin `marker` (a marker cut by the chunk)."""
    for size in range(min(len(marker) - 1, len(text)), 0, -1):
        if marker.startswith(text[-size:]):
            return size
    return 0


class PasteSafeParser(XTermParser):
    def __init__(self, debug: bool = False) -> None:
        super().__init__(debug)
        self._escapes = PasteEscapes()

    def feed(self, data: str) -> Iterable[Message]:
        cleaned = self._escapes.feed(data)
        if cleaned:
            yield from super().feed(cleaned)
        if not data:
            yield from super().feed("")  # the end of input


def install() -> None:
    """Make the terminal driver read input through `PasteSafeParser` (idempotent)."""
    use_input_parser(PasteSafeParser)
