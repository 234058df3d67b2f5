"""The search of the transcript shown: `/` on a pane opens it (the selected agent's transcript,
or every agent's while the all-agents view is on), and it follows what the pane shows.

Incremental: each key typed in its box searches again (the words as typed, case ignored) and
goes to the newest match. Enter or down goes to the next (newer) match, shift+enter or up to the
previous one, round and round; esc closes it and gives the keys back where they were. Every
match is marked in place, the one it is at more strongly; a folded thinking or tool block it
goes to unfolds (and folds again when the search closes); an entry too old to be mounted is
mounted first (Transcript.reveal). Matches are counted in what the blocks show (the text, a
tool's result, a question's answer), once per entry and again only when the entry grows; a
streamed text that grows is counted in its new part only (`GrowingCount`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from agentui.core.support.terminal_text import visible_controls as shown

# The bar, its highlights and the transcript's blocks load when the search opens: the first
# frame of an empty app loads none of them.
if TYPE_CHECKING:
    import re

    from textual.widget import Widget

    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.screens.main import MainScreen
    from agentui.tui.app.widgets.blocks import EntryBlock
    from agentui.tui.app.widgets.search_bar import SearchBar
    from agentui.tui.app.widgets.search_highlight import Highlight

NO_MATCH = "no match"
# How far back from a growing text's end a place to settle its count is looked for.
_SETTLE_LOOKBACK = 256
# Emoji skin tones: a joiner after one looks back past it (terminal_text's emoji sequences).
_SKIN_TONES = range(0x1F3FB, 0x1F400)


def _inert(char: str) -> bool:
    """`char` is shown as it is, whatever is beside it."""
    if char.isascii():
        return char.isprintable() or char in "\n\t"
    return shown(char) == char


def _settling_point(text: str, low: int, high: int) -> int:
    """The last place in `text[low:high]` where it can be cut so that showing the two parts
    apart gives what showing it whole does (`visible_controls` decides some characters by
    their neighbours: a joiner, a selector, a flag's tags, CR before LF): between two inert
    characters, the second not a skin tone (a joiner after it looks two back). `low` when
    there is none near the end."""
    for cut in range(high - 1, max(low, high - 1 - _SETTLE_LOOKBACK), -1):
        after = text[cut]
        if ord(after) not in _SKIN_TONES and _inert(after) and _inert(text[cut - 1]):
            return cut
    return low


@dataclass(slots=True)
class GrowingCount:
    """The matches of a literal pattern `longest` characters long in `head` + the shown form of
    a text that grows at its end, counted in what was added since the last count only.

    The text up to `settled` is counted for good: `found` matches lie in it. The next count
    scans `carry` (the end of the settled part a match may still start in: shorter than a
    match, from after the last match found) and the text from `settled` on."""

    longest: int
    settled: int = 0
    found: int = 0
    carry: str = ""

    def count(self, pattern: re.Pattern[str], text: str) -> int:
        cut = _settling_point(text, self.settled, len(text))
        settling = self.carry + shown(text[self.settled : cut])
        boundary = len(settling)
        window = settling + shown(text[cut:])
        found, last_end, total = self.found, 0, self.found
        for match in pattern.finditer(window):
            total += 1
            if match.end() <= boundary:  # wholly in the settled part: whatever comes after
                found, last_end = found + 1, match.end()
        self.settled, self.found = cut, found
        self.carry = window[max(last_end, boundary - self.longest + 1, 0) : boundary]
        return total


@dataclass(slots=True)
class Counted:
    """An entry's count, made at these (text, detail, title) lengths; `growing` while its text
    is the last thing searched in it (no detail after it), to count only what it adds."""

    lengths: tuple[int, int, int]
    count: int
    growing: GrowingCount | None = None


class TranscriptSearch:
    def __init__(self, screen: MainScreen) -> None:
        self.screen = screen
        # Made and mounted at the first `/`: a second text box is not for the first frame.
        self._bar: SearchBar | None = None
        self.pattern: re.Pattern[str] | None = None
        # uid -> its count: an entry grows, never shrinks
        self._counts: dict[int, Counted] = {}
        self._longest = 0  # the characters of the words searched for: a match's length
        self.total = 0
        self.at: tuple[int, int] | None = None  # (entry uid, which match in it)
        self._unfolded: set[int] = set()  # blocks it unfolded: folded again when it closes
        self._return_to: Widget | None = None

    @property
    def bar(self) -> SearchBar:
        if self._bar is None:
            from agentui.tui.app.widgets.search_bar import SearchBar

            self._bar = SearchBar(self._query_changed, self.step, self.close)
        return self._bar

    @property
    def is_open(self) -> bool:
        return self._bar is not None and self._bar.is_attached and bool(self._bar.display)

    # -- opening and closing -------------------------------------------------------------

    def open(self) -> None:
        screen = self.screen
        transcript = screen.transcript_view
        if not self.bar.is_attached:
            screen.mount(self.bar, before=screen.prompt_bar)
        if not self.is_open:
            self._return_to = screen.agent_app.focused
            self.bar.display = True
            transcript.marker = self.marker
            transcript.entries_changed = self._entries_changed
            self._recount()
            self._mark_mounted()
        self._say()
        screen.call_after_refresh(self._focus_box)  # mounted by then, the first time

    def _focus_box(self) -> None:
        if self.is_open:
            self.screen.agent_app.screen.set_focus(self.bar.box)
            self.bar.box.select_all()  # typing replaces the last search; enter goes on with it

    def close(self) -> None:
        if not self.is_open:
            return
        screen = self.screen
        transcript = screen.transcript_view
        self.bar.display = False
        transcript.marker = None
        transcript.entries_changed = None
        from agentui.tui.app.widgets.blocks import FoldBlock  # not at start-up (see above)

        for block in transcript.mounted_blocks():
            block.set_highlight(None)
            if block.entry.uid in self._unfolded and isinstance(block, FoldBlock):
                block.folded = True
        self._unfolded.clear()
        self.at = None
        back = self._return_to
        self._return_to = None
        if back is not None and back.is_attached and back.display:
            screen.agent_app.screen.set_focus(back)
        else:
            screen.agent_app.screen.set_focus(transcript)

    # -- what it finds -------------------------------------------------------------------

    def marker(self, entry: Entry) -> Highlight | None:
        """What `entry`'s block marks (Transcript.marker)."""
        if self.pattern is None or not self._count(entry):
            return None
        from agentui.tui.app.widgets.search_highlight import Highlight

        at = self.at
        return Highlight(self.pattern, at[1] if at is not None and at[0] == entry.uid else None)

    def _count(self, entry: Entry) -> int:
        """Its matches in what its block shows: title, text and detail, one a line."""
        pattern = self.pattern
        if pattern is None:
            return 0
        text, detail, title = entry.text, entry.detail, entry.title
        lengths = (len(text), len(detail), len(title))
        cached = self._counts.get(entry.uid)
        if cached is not None and cached.lengths == lengths:
            return cached.count
        if text and not detail:
            # Streamed text grows at the end of what is searched: its new part is counted.
            growing = None
            if cached is not None and cached.lengths[2] == len(title):
                growing = cached.growing  # None when it was counted whole
            if growing is None:
                head = shown(title) + "\n" if title else ""
                growing = GrowingCount(self._longest, carry=head)
            count = growing.count(pattern, text)
        else:
            growing = None
            searched = "\n".join(shown(part) for part in (title, text, detail) if part)
            count = sum(1 for _ in pattern.finditer(searched))
        self._counts[entry.uid] = Counted(lengths, count, growing)
        return count

    def _recount(self) -> None:
        self._counts.clear()
        self.total = sum(self._count(e) for e in self.screen.transcript_view.entries)

    def _query_changed(self, text: str) -> None:
        from agentui.tui.app.widgets.search_highlight import search_pattern

        self.pattern = search_pattern(text)
        self._longest = len(text)  # the words as typed: each character matches one
        self.at = None
        self._recount()
        if self.total:
            self._go_to(self.total - 1)  # the newest: nearest where the person reads
        else:
            self._mark_mounted()
            self._say()

    def _entries_changed(self, uids: set[int] | None) -> None:
        """The pane shows another source (None), or these entries grew or came."""
        if uids is None:
            self._recount()
            # The same entry in the other view (all agents and one agent share them): the
            # search stays at it; else it is at none until enter goes to one.
            entries = self.screen.transcript_view.entries
            if self.at is not None and all(e.uid != self.at[0] for e in entries):
                self.at = None
            self._mark_mounted()
        else:
            for block in self.screen.transcript_view.mounted_blocks():
                entry = block.entry
                if entry.uid in uids:
                    counted = self._counts.get(entry.uid)
                    before = counted.count if counted is not None else 0
                    self.total += self._count(entry) - before
                    block.set_highlight(self.marker(entry))
        self._say()

    # -- going from match to match -------------------------------------------------------

    def step(self, direction: int) -> None:
        """To the next (1) or previous (-1) match, round and round."""
        if not self.total:
            self._say()
            return
        position = self._position()
        if position is None:
            target = self.total - 1 if direction < 0 else 0
        else:
            target = (position + direction) % self.total
        self._go_to(target)

    def _position(self) -> int | None:
        """Where the search is among every match of the source shown (0 = the oldest)."""
        if self.at is None:
            return None
        uid, which = self.at
        passed = 0
        for entry in self.screen.transcript_view.entries:
            if entry.uid == uid:
                return passed + which
            passed += self._count(entry)
        return None

    def _go_to(self, position: int) -> None:
        transcript = self.screen.transcript_view
        passed = 0
        for index, entry in enumerate(transcript.entries):
            count = self._count(entry)
            if position < passed + count:
                self.at = (entry.uid, position - passed)
                transcript.select(entry.uid)  # what "Copy the selected block" copies
                block = transcript.reveal(index)
                self._mark_mounted()
                if block is not None:
                    self._show(block)
                break
            passed += count
        self._say()

    def _show(self, block: EntryBlock) -> None:
        from agentui.tui.app.widgets.blocks import FoldBlock  # loaded: `block` is one

        if isinstance(block, FoldBlock) and block.folded:
            block.folded = False
            self._unfolded.add(block.entry.uid)
        transcript = self.screen.transcript_view
        transcript.release_anchor()  # the person reads back: the tail is not followed

        def scroll() -> None:
            if block.is_attached and block.show_current_match():
                return
            target = block.current_match_widget()
            if target.is_attached:
                transcript.scroll_to_widget(target, animate=False, center=True)

        self.screen.agent_app.call_after_refresh(scroll)

    # -- what it shows -------------------------------------------------------------------

    def _mark_mounted(self) -> None:
        for block in self.screen.transcript_view.mounted_blocks():
            block.set_highlight(self.marker(block.entry))

    def _say(self) -> None:
        screen = self.screen
        if screen.show_all:
            scope = "all agents"
        elif screen.selected_id is not None:
            scope = screen.name_of(screen.selected_id)
        else:
            scope = "the transcript"
        if self.pattern is None:
            count = ""
        elif not self.total:
            count = NO_MATCH
        else:
            position = self._position()
            count = f"{position + 1}/{self.total}" if position is not None else f"{self.total}"
        self.bar.say(scope, count)
