"""Where a typed key goes: a text box, a command, or nowhere.

A click is for reading (selecting an agent, scrolling, folding a block), never for arming the
command letters: after a click anywhere on the main screen the keeper is *reading*, and a
printable key goes to the text box that waits (an answer box, a reason box, else the prompt)
or nowhere, whatever the click focused. Letters become commands again only by a deliberate
keyboard act: `tab` / `shift+tab`, `ctrl+n`, `enter`, or `esc` on what the click focused (that
`esc` only turns the keys on). Typing in a text box ends the reading too: the keys that follow
are the keyboard's.

Keys typed while armed are as before: on a pane, a printable key goes to a box that waits on
screen (an open question's answer box, a reason, a steer or continue begun in the prompt) before
it can be the pane's command.
"""

from __future__ import annotations

from enum import Enum
from typing import TYPE_CHECKING

from textual import events
from textual.widget import Widget
from textual.widgets import TextArea

if TYPE_CHECKING:
    from agentui.tui.app.widgets.composer import Composer

# Keys that choose where the keys go, on purpose: after one of them the letters are commands
# where the focus lands (tab moves between the panes, ctrl+n goes to a question, enter on the
# tree goes to its agent's question).
CHOOSING_KEYS = frozenset({"tab", "shift+tab", "ctrl+n", "enter"})


class KeyRoute(Enum):
    """How a key is handled (see FocusKeeper.key_arrived)."""

    AS_IS = "as is"  # the focused widget's, as Textual hands it
    CHOSE = "chose"  # a choosing key while reading: it acts, and the letters are on again
    ARMED = "armed"  # esc while reading: it only turns the letters on
    TO_BOX = "to a box"  # a printable key after a click: into the box that waits, or nowhere


class FocusKeeper:
    """Remembers whether the person's last act was a click, and decides, for each printable key,
    which text box takes it (None: the focused widget's own, a command only when armed)."""

    def __init__(self) -> None:
        self.reading = False  # a click came last: letters are words or nothing

    def clicked(self) -> bool:
        """A mouse button went down on the main screen. True when that turned the letters off."""
        was, self.reading = self.reading, True
        return not was

    def chose(self) -> bool:
        """A keyboard act chose where keys go. True when that turned the letters on."""
        was, self.reading = self.reading, False
        return was

    def key_arrived(self, event: events.Key, focused: Widget | None) -> KeyRoute:
        """What to do with a key before the focused widget sees it."""
        if not self.reading:
            return KeyRoute.AS_IS
        if event.key in CHOOSING_KEYS:
            self.reading = False
            return KeyRoute.CHOSE
        if isinstance(focused, TextArea):
            # A text box takes every key as the keyboard's: whatever came before, what is
            # typed there is words, and esc out of it chooses the tree on purpose.
            self.reading = False
            return KeyRoute.CHOSE
        if event.key == "escape":
            self.reading = False
            return KeyRoute.ARMED
        if event.is_printable:
            return KeyRoute.TO_BOX
        return KeyRoute.AS_IS  # arrows, page keys, ctrl+...: reading goes on


def home_box(waiting: Composer | None, prompt: Composer, prompt_shown: bool) -> Composer | None:
    """Where words typed after a click go: the box that waits on screen, else the prompt."""
    if waiting is not None:
        return waiting
    return prompt if prompt_shown else None
