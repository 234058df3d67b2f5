"""A text box for the person's words: one line that grows, enter sends, ctrl+j starts a new line.

Every place the person writes (the task prompt, an answer, a rejection's reason, a steer or
continue message) is a Composer, so a multi-line paste arrives whole and the same keys work
everywhere. Enter sends because that is what people expect of a prompt; a newline needs
ctrl+j (every terminal sends it) or shift+enter / alt+enter where the terminal reports them.

A paste longer than PASTE_FOLD_CHARS shows as one marker line ("[pasted text #1: 104,857
characters]") and is sent whole: Textual's TextArea redraws a long line in full on every key,
so a text that long in the box itself would make each key slow.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from textual import events
from textual.binding import Binding, BindingType
from textual.message import Message
from textual.widgets import TextArea

from agentui.tui.app import textual_compat

NEWLINE_KEYS = frozenset({"ctrl+j", "shift+enter", "alt+enter"})
NEWLINE_HINT = "ctrl+j new line"
PASTE_FOLD_CHARS = 4000


class Draft(NamedTuple):  # made before the first frame: see first_frame.py
    text: str
    pastes: dict[str, str]  # marker -> the long text it stands for


class Composer(TextArea):
    DEFAULT_CSS = """
    Composer {
        height: auto;
        max-height: 8;
        min-height: 1;
    }
    """
    # Shown in the footer while the box has the cursor: what this place accepts.
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "send", "Send", priority=False),
        Binding("ctrl+j", "newline", "New line"),
        Binding("ctrl+q", "app.quit", "Quit", priority=True),  # shown here: a box has no q
        # Shown here: a box has no ?. Its key's id, so a remap moves it with the app's.
        Binding("f1", "app.help", "Help", id="help_anywhere"),
    ]
    # Whether the owner settles each enter's words (settle_sent): then the next enter of a
    # burst (a paste without bracketed paste, enter twice) sends only the words after those
    # still on their way. Otherwise each enter sends the whole box.
    SETTLES_SENDS: ClassVar[bool] = False

    class Submitted(Message):
        """Enter was pressed: `text` is everything in the box, newlines included (with
        SETTLES_SENDS, what follows the words of enters not settled yet)."""

        def __init__(self, composer: Composer, text: str) -> None:
            super().__init__()
            self.composer = composer
            self.text = text

        @property
        def control(self) -> Composer:
            return self.composer

    def __init__(
        self,
        text: str = "",
        *,
        placeholder: str = "",
        id: str | None = None,
        classes: str | None = None,
    ) -> None:
        super().__init__(
            text,
            soft_wrap=True,
            tab_behavior="focus",
            show_line_numbers=False,
            highlight_cursor_line=False,
            placeholder=placeholder,
            id=id,
            classes=classes,
        )
        textual_compat.compact_before_mount(self)  # TextArea(compact=True) restyles it unmounted
        # A fresh box opens with the cursor after what was there (a kept draft).
        self.move_cursor(self.document.end)
        self._pastes: dict[str, str] = {}  # marker -> the long text it stands for
        self._on_the_way: list[str] = []  # each enter's words not settled yet, oldest first
        self._kept_ahead = 0  # characters at the start an earlier enter sent and its owner kept

    @property
    def value(self) -> str:
        """What the box sends: its text with every paste marker still in it expanded."""
        return self._expanded(self.text)

    def _expanded(self, text: str) -> str:
        for marker, pasted in self._pastes.items():
            text = text.replace(marker, pasted)
        return text

    def clear(self) -> None:  # type: ignore[override]  # no EditResult: put_draft reloads all
        self.put_draft(Draft("", {}))

    def draft(self) -> Draft:
        """What is typed (pastes still folded), to put back later."""
        return Draft(self.text, dict(self._pastes))

    def take_draft(self) -> Draft:
        """`draft()`, and the box is left empty."""
        draft = self.draft()
        self.clear()
        return draft

    def put_draft(self, draft: Draft) -> None:
        """Other words in the box: what enter sent from the old ones is no longer in it."""
        self._on_the_way.clear()
        self._kept_ahead = 0
        self.load_text(draft.text)
        self._pastes = dict(draft.pastes)
        self.move_cursor(self.document.end)

    async def _on_paste(self, event: events.Paste) -> None:
        if len(event.text) <= PASTE_FOLD_CHARS or self.read_only:
            return  # TextArea's own handler (Textual calls it next) inserts it as it is
        event.stop()
        event.prevent_default()
        # Terminals send a paste's line breaks as CR (tmux, many others): lines, as typed.
        pasted = event.text.replace("\r\n", "\n").replace("\r", "\n")
        lines = pasted.count("\n") + 1
        marker = f"[pasted text #{len(self._pastes) + 1}: {len(event.text):,} characters" + (
            f", {lines:,} lines]" if lines > 1 else "]"
        )
        self._pastes[marker] = pasted
        start, end = self.selection
        result = self.replace(marker, start, end, maintain_selection_offset=False)
        self.move_cursor(result.end_location)
        self.focus()

    async def _on_key(self, event: events.Key) -> None:
        # Enter sends and the newline keys insert a newline: both before TextArea's own
        # handling, which would insert "\n" for enter.
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.action_send()
            return
        if event.key in NEWLINE_KEYS:
            event.stop()
            event.prevent_default()
            self.action_newline()
            return
        if event.key == "backspace" and self._delete_marker_before_cursor():
            event.stop()
            event.prevent_default()
            return
        await super()._on_key(event)

    def _delete_marker_before_cursor(self) -> bool:
        """A paste marker goes whole, with the text it stands for: half a marker would send
        its characters instead of the paste, and lose the paste without a word."""
        start, end = self.selection
        if start != end:
            return False
        row, column = end
        before = self.document[row][:column]
        for marker in self._pastes:
            if before.endswith(marker):
                self.replace("", (row, column - len(marker)), end, maintain_selection_offset=False)
                del self._pastes[marker]
                return True
        return False

    def action_send(self) -> None:
        text = self.text
        sent = text
        if self.SETTLES_SENDS:
            ahead = "".join(self._on_the_way)
            if text[self._kept_ahead :].startswith(ahead):
                sent = text[self._kept_ahead + len(ahead) :]
            else:  # changed meanwhile: what is in it now is sent
                self._on_the_way.clear()
                self._kept_ahead = 0
            self._on_the_way.append(sent)
        self.post_message(self.Submitted(self, self._expanded(sent)))

    def settle_sent(self, taken: bool) -> None:
        """The oldest enter not settled yet was handled: its words go from the box when
        `taken`, else they stay. Keys typed after that enter stay either way: they reach the
        box before its Submitted is handled (a fast typist's next words, a burst's next
        task)."""
        if not self._on_the_way:
            return
        sent = self._on_the_way.pop(0)
        start, text = self._kept_ahead, self.text
        if not taken:
            self._kept_ahead += len(sent)
        elif text[start:].startswith(sent):
            rest = text[:start] + text[start + len(sent) :]
            self._pastes = {m: pasted for m, pasted in self._pastes.items() if m in rest}
            self.load_text(rest)
            self.move_cursor(self.document.end)
        else:  # changed meanwhile (keys erased what was sent): as it was sent, it goes
            self.clear()
        if not self._on_the_way:
            self._kept_ahead = 0

    def action_newline(self) -> None:
        start, end = self.selection
        result = self.replace("\n", start, end, maintain_selection_offset=False)
        self.move_cursor(result.end_location)
