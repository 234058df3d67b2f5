"""The transcript pane: the selected agent's entries, or every agent's interleaved.

Only this pane's source is rendered (transcripts nobody looks at cost nothing), and only a
window of its entries is mounted: while it follows the tail, the newest entry and the ones
before it up to MAX_BLOCKS entries or WINDOW_LINES lines (estimated from their text), so every
agent's long answers at once mount a few, not all. Older ones stay reachable with the "show
earlier" button; a search or a question that goes to an entry far from the window moves the
window there (`reveal`), and a "show later" button below it leads back down to the tail.
Blocks redraw only when their entry changed. While a search is open, `marker` says what each
block marks of it.

The selected block, which the palette's "Copy the selected block" copies, is the one the person
last clicked, or the one the search last went to (`select`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from contextlib import ExitStack, suppress
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.await_remove import AwaitRemove
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.widget import AwaitMount
from textual.widgets import Button, Static

from agentui.tui.app import textual_compat
from agentui.tui.app.block_checks import query_blocks_loaded
from agentui.tui.app.decision_progress import DecidingLine, fit_line
from agentui.tui.app.keymap import VIEW_KEYS, bindings
from agentui.tui.app.widgets.blocks import (
    AnswerBlock,
    AnswerHead,
    EntryBlock,
    FoldBlock,
    block_for,
)
from agentui.tui.app.widgets.pane_landing import (
    content_height,
    laid_out_region,
    scroll_before_layout,
)

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.widgets.query_blocks import QueryBlock
    from agentui.tui.app.widgets.search_highlight import Highlight

MAX_BLOCKS = 200
PAGE = 100
# The window's lines besides its newest entry (and a page's), estimated from the entries'
# text: an answer of 100 k characters is ~2,000 lines, and mounting one costs its widgets and
# the chunks it renders, so a window of long answers holds a few of them, not a hundred.
WINDOW_LINES = 4000
# The entries mounted from one gone to far from the window (a few screens of short ones): the
# person sees the screen it starts; the "later" button mounts more.
MOVED_WINDOW = 30
# How long a window moved to an entry may take to mount before the screen draws again anyway
# (the screen's repaints are held meanwhile: see `_land_when_mounted`).
LANDING_WAIT_S = 0.5
# Kinds drawn on one line until unfolded.
_FOLDED_KINDS = frozenset({"thinking", "tool"})
# What the empty pane says on the first screen, at any width (it wraps).
STARTING_HINT = "Starting the task: the agents' work streams here in a moment."
EMPTY_HINT = (
    "Nothing yet. Type a task in the prompt below and press enter: the agents' work streams here."
)

# Cells of the lower border a subtitle cannot use: two corners and a blank and a rule each side.
_BORDER_CELLS = 6


class Transcript(VerticalScroll):
    BINDINGS: ClassVar[list[BindingType]] = [*bindings(VIEW_KEYS)]
    # It names the agent shown: a switch redraws the title's line, not the whole pane.
    border_title = textual_compat.BorderTitleRedrawingItsLine()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source: str | None = None  # an agent id, ALL_AGENTS, or None before any task
        self._entries: list[Entry] = []
        self._label: Callable[[Entry], str | None] = lambda entry: None
        # Agent id -> the name people see (set by the app; a steer says whom it went to).
        self.name_of: Callable[[str], str] = lambda agent_id: agent_id
        self._start = 0  # entries[_start:_end] are mounted
        self._end = 0
        # The window was moved away from the tail (to an entry far up): new entries are not
        # mounted, and the "later" button below leads back down.
        self._detached = False
        self._later: Button | None = None
        # While a switch mounts its window: entries before this one are above what it draws.
        self._drawn_first = 0
        # Answers that changed while far from the view (entry uids): redrawn when scrolled near.
        self._stale: set[int] = set()
        self._blocks: dict[int, EntryBlock] = {}  # entry uid -> its block, in screen order
        # A switch's blocks still being removed: until they are gone, the view's height is the
        # old source's, and following its tail would anchor (bottom-align) the new one.
        self._removing = 0
        # Made when entries are first hidden: a Button's styles would weigh on the first frame.
        self._earlier: Button | None = None
        self.drafts: dict[str, str] = {}  # query id -> what the person typed so far
        self.read_only = False  # a replay's: questions show, with nothing to answer them in
        self._deciding: DecidingLine = ()  # its forms, from the whole line to the shortest
        # Until the first source is shown; removed then (never hidden: it would stay a child).
        self._hint: Static | None = Static(Text(EMPTY_HINT, style="dim italic"), classes="empty")
        # A search's: what each entry's block marks (None: no search), and what it is told
        # when the entries shown change (their uids; None: another source, all of them).
        self.marker: Callable[[Entry], Highlight | None] | None = None
        self.entries_changed: Callable[[set[int] | None], None] | None = None
        self._selected: int | None = None  # the selected block's entry uid
        # While steps are shown (#): what each entry's block says of the steps ending there.
        self.step_mark: Callable[[Entry], str | None] | None = None
        # While a window moved to an entry mounts: the screen's repaints held (its first frame
        # is the window mounted, the entry at the top), and which landing is the latest.
        self._held_repaints: ExitStack | None = None
        self._landings = 0  # the newest landing's number: only it moves the view
        self._landings_pending = 0  # landings not done yet: the repaints stay held till none
        self._pending_mount: AwaitMount | None = None  # the window a held landing waits for

    def compose(self) -> ComposeResult:
        if self._hint is not None:
            yield self._hint

    def hint_starting(self) -> None:
        """A task given on the command line: its agent shows in a moment; nothing is to be
        typed for it (the empty transcript's usual hint says to type a task)."""
        if self._hint is not None:
            self._hint.update(Text(STARTING_HINT, style="dim italic"))

    def show_deciding(self, line: DecidingLine) -> None:
        """The lower border says what a decision in progress is (decision_progress writes it).
        Textual would cut a long one with its own "…" and lose the seconds at its end: the
        pane shows the longest form that fits its width, now and whenever it is resized."""
        self._deciding = line
        self._fit_subtitle()

    def _fit_subtitle(self) -> None:
        forms = self._deciding
        width = self.outer_size.width - _BORDER_CELLS
        # Before the first layout (no width yet): the whole line.
        fitted = fit_line(forms, width) if forms and width > 0 else next(iter(forms), "")
        # As Text: what a model named a decision is never read as markup.
        self.border_subtitle = Text(fitted) if fitted else None

    def on_resize(self, event: events.Resize) -> None:
        self._fit_subtitle()

    def _near_view(self, block: EntryBlock) -> bool:
        """The block is on the pane, or within a pane's height of it (not yet laid out: it
        may be)."""
        region = block.virtual_region
        if not region:
            return True
        height = self.scrollable_content_region.height
        top = self.scroll_y - height
        return region.y < self.scroll_y + 2 * height and region.bottom > top

    def watch_scroll_y(self, old_value: float, new_value: float) -> None:
        super().watch_scroll_y(old_value, new_value)
        if self._stale:
            self._redraw_stale()

    def _redraw_stale(self) -> None:
        for uid in list(self._stale):
            block = self._blocks.get(uid)
            if block is None:
                self._stale.discard(uid)
            elif self._near_view(block):
                self._stale.discard(uid)
                block.refresh_entry()

    def _showing_end(self) -> bool:
        """The view, as drawn now, shows the end of the transcript."""
        if self._detached:
            return False
        return self.max_scroll_y <= 0 or self.scroll_y >= self.max_scroll_y - 1

    def _follow_tail(self, was_at_end: bool = True, landings: int | None = None) -> None:
        """After a batch is drawn: follow the tail if the view was at the end before it, and
        (`landings`: their count when the batch came) nothing was gone to since.

        Anchoring waits for the content to overflow (an anchored container bottom-aligns short
        content). A view at the end follows again whatever released the anchor on the way (a
        scroll to a question, a resize): Textual restores a released anchor only when the
        scroll position changes, which a view already at the end never does.
        """
        if self.max_scroll_y <= 0 or self._removing or self._detached:
            return
        if landings is not None and landings != self._landings:
            return
        if was_at_end and (not self.is_anchored or textual_compat.anchor_released(self)):
            self.anchor()  # scrolls to the end and clears the release

    def follow(self) -> None:
        """Go to the end and follow it from now on (after the person answered a question)."""
        self._landings += 1  # a landing still pending no longer moves the view
        if self._detached:
            self._rewindow(self._tail_start(), follow=True)
        self.call_after_refresh(self._follow_tail, True)

    def action_scroll_end(self) -> None:
        """End: the newest entries, followed again, also from a window moved far up (a search
        or a question went there): one key back to the live tail."""
        self._landings += 1  # a landing still pending no longer moves the view
        if self._detached:
            self.follow()
            return
        super().action_scroll_end()

    def show_block(self, block: EntryBlock) -> None:
        """Scroll so `block` starts at the top of the pane (as much of it as fits shows): its
        first part (an answer's head: its label and first lines, not its live tail)."""
        first = block.parts()[0]
        if first.is_attached:
            self.scroll_to_widget(first, animate=False, top=True)

    def select(self, uid: int) -> None:
        """The block of this entry is the selected one (a click, or the search went to it)."""
        self._selected = uid

    def selected_block(self) -> EntryBlock | None:
        """The selected block, while it is on the pane (None when none, or another source)."""
        return self._blocks.get(self._selected) if self._selected is not None else None

    def on_click(self, event: events.Click) -> None:
        """A click on a block selects it (the click goes on: a fold still unfolds)."""
        node: DOMNode | None = event.widget
        while node is not None and node is not self:
            if isinstance(node, EntryBlock | AnswerHead):
                block = node.block if isinstance(node, AnswerHead) else node
                self.select(block.entry.uid)
                return
            node = node.parent

    def open_query_blocks(self) -> list[QueryBlock]:
        if not query_blocks_loaded():  # no question or approval has been drawn yet
            return []
        from agentui.tui.app.widgets.query_blocks import QueryBlock

        return [b for b in self._blocks.values() if isinstance(b, QueryBlock) and b.entry.open]

    # -- what to show --------------------------------------------------------------------

    def show(
        self,
        source: str | None,
        entries: list[Entry],
        label: Callable[[Entry], str | None] = lambda entry: None,
    ) -> None:
        """Switch to another source: its entries (the newest MAX_BLOCKS).

        The blocks on screen are reused in order while each can show the entry in its place
        (a note for a note, an answer for an answer): mounting and removing widgets is most of
        a switch's cost, redrawing one in place is cheap. The rest are removed, and blocks for
        the remaining entries mounted."""
        self.source = source
        self._entries = entries
        self._label = label
        if self._hint is not None and source is not None:
            self._hint.remove()
            self._hint = None
        old = list(self._blocks.values())  # in screen order
        self._blocks = {}
        self._stale.clear()  # every block shown is drawn from scratch
        self._back_at_tail()
        self._start = self._tail_start()
        self._drawn_first = self._screens_from_the_end()
        reused = 0
        for entry in entries[self._start :]:
            if reused == len(old):
                break
            block = old[reused]
            if self.marker is not None:  # drawn with the entry it now shows
                block.highlight = self.marker(entry)
            if isinstance(block, AnswerBlock):
                block.measure_when_bound = self._start + reused >= self._drawn_first
            if not block.rebind(entry, label(entry), self.name_of(entry.agent_id)):
                break
            block.set_step_mark(self._step_mark_of(entry))
            self._blocks[entry.uid] = block
            reused += 1
        if stale := old[reused:]:
            self._removing += 1
            removal = self.remove_children([part for block in stale for part in block.parts()])
            self.call_next(self._follow_once_removed, removal)
        self._end = self._start + reused
        self.anchor(False)
        self._mount_new()
        if self.entries_changed is not None:
            self.entries_changed(None)

    async def _follow_once_removed(self, removal: AwaitRemove, follow: bool = True) -> None:
        await removal
        self._removing -= 1
        if follow:
            self.call_after_refresh(self._follow_tail, True)

    def sync(self, changed: set[int]) -> None:
        """Mount entries added since the last sync and redraw the changed ones."""
        # Before this batch makes it longer. While a landing is pending the scroll still
        # shows where the view was: the person went elsewhere, the tail must not pull it back.
        was_at_end = self._showing_end() and not self._landings_pending
        if self._stale:  # brought near the view by a layout since (a resize, a trim)
            self._redraw_stale()
        searching = self.entries_changed
        added = {e.uid for e in self._entries[self._end :]} if searching else set()
        self._mount_new(was_at_end)
        if searching is not None and (changed or added):
            searching(changed | added)
        for uid in changed:
            block = self._blocks.get(uid)
            if block is None:
                continue
            if isinstance(block, AnswerBlock) and not self._near_view(block):
                self._stale.add(uid)  # redrawn when scrolled to: every agent streams at once
            else:
                block.refresh_entry()
        if changed:
            self.call_after_refresh(self._follow_tail, was_at_end)
        # Trim only while following the tail, never under a person reading back.
        if self._detached:
            self._update_later()
        elif self._end - self._start > MAX_BLOCKS:
            if self.is_vertical_scroll_end:
                self._trim()
            elif was_at_end:
                # Synced before the batch before it was laid out (the view short of its end
                # for now): trimmed once laid out, or with nothing more to come the pane would
                # stay over the bound.
                self.call_after_refresh(self._trim_once_laid_out, self._start)

    @property
    def entries(self) -> list[Entry]:
        """The entries of the source shown, oldest first (mounted or not)."""
        return self._entries

    def mounted_blocks(self) -> list[EntryBlock]:
        return list(self._blocks.values())

    def reveal(self, index: int) -> EntryBlock | None:
        """The block of `self.entries[index]` (a search went to it), mounted first when it is
        outside the window: the entries between it and the window with it when they make a
        page, else the window moves to it. The block is drawn at the top of the pane (a
        search's match in it in the middle) in the next frame, one mounted here in the first
        frame that draws it (`_land_when_mounted`): the caller's scroll after the refresh (to
        the block, or the match) then has nothing or little left to do."""
        if not 0 <= index < len(self._entries):
            return None
        mounting: AwaitMount | None = None
        if index < self._start:
            page = self._page_before(self._start, PAGE)
            if index >= page or self._fits_a_page(index, self._start):
                mounting = self._mount_earlier(min(index, page))
            else:
                mounting = self._rewindow(index)
        elif index >= self._end:
            if index - self._end < MOVED_WINDOW and self._fits_a_page(self._end, index + 1):
                mounting = self._mount_later(self._page_after(index, MOVED_WINDOW // 3))
            else:
                mounting = self._rewindow(index)
        uid = self._entries[index].uid
        block = self._blocks.get(uid)
        if block is not None and uid in self._stale:
            self._stale.discard(uid)
            block.refresh_entry()
        if block is not None and mounting is not None:
            self._land_when_mounted(block, mounting)
        elif block is not None and self._pending_mount is not None:
            # A window is still mounting for an earlier reveal: this block lands with it.
            self._land_when_mounted(block, self._pending_mount)
        elif block is not None:
            # After the caller's handler: a search marks the match it is at in the block next.
            self._landings += 1
            self._landings_pending += 1
            self.call_next(self._land_if_latest, block, self._landings)
        return block

    # -- landing on an entry gone to -----------------------------------------------------

    def _land_when_mounted(self, block: EntryBlock, mounting: AwaitMount) -> None:
        """Draw the window just mounted for `block` first with `block` at the top of the pane.

        Left to itself, the screen drew a frame of the window half mounted (each widget mounts
        in its own task, and an unmounted one is not drawn), one of it mounted at the old
        scroll position, then the caller's scroll to the block after that refresh: three
        frames of the whole pane, and a scroll computed before the block was laid out could
        miss it. Here the screen's repaints are held until the window is mounted (at most
        LANDING_WAIT_S), the block's place is laid out then, the scroll set and what the pane
        shows of the block rendered, and the next frame draws it there."""
        self._landings += 1
        self._landings_pending += 1
        self._pending_mount = mounting
        if self._held_repaints is None:
            held = ExitStack()
            held.enter_context(self.app.batch_update())
            self._held_repaints = held
        self.call_next(self._land, block, mounting, self._landings)

    async def _land(self, block: EntryBlock, mounting: AwaitMount, landing: int) -> None:
        try:
            with suppress(TimeoutError):  # drawn as it is, then
                async with asyncio.timeout(LANDING_WAIT_S):
                    await mounting
            if landing == self._landings and block.is_attached:
                self._put_at_top(block)
        finally:
            self._landed()

    def _land_if_latest(self, block: EntryBlock, landing: int) -> None:
        """A block already mounted goes to the top of the pane (or its search match to the
        middle) in the next frame: not after a refresh, then Textual's scroll after another."""
        try:
            if landing == self._landings and block.is_attached:
                self._put_at_top(block)
        finally:
            self._landed()

    def _landed(self) -> None:
        """One landing done, whether or not it was the newest: the repaints held for the
        windows mounting are let go when none is left (a newer landing never strands them)."""
        self._landings_pending -= 1
        if not self._landings_pending:
            self._pending_mount = None
            self._release_repaints()

    def _release_repaints(self) -> None:
        held, self._held_repaints = self._held_repaints, None
        if held is not None:
            held.close()

    def on_unmount(self) -> None:
        self._release_repaints()  # never leave the screen's repaints held

    def _put_at_top(self, block: EntryBlock) -> None:
        """Scroll so `block` starts at the top of the pane, or, when a search is at a match
        in it, so that match is in the middle of the pane (as the search's own scroll puts
        it), from the layout the next frame draws; then render what the pane will show of an
        answer's frozen chunks (measured, they lay out as drawn: the frame after moves
        nothing below them)."""
        height = self.scrollable_content_region.height
        first = block.parts()[0]
        top = laid_out_region(self, first)
        if top is None or not height:
            return
        y = top.y - first.styles.margin.top  # as show_block's scroll_to_widget puts it
        chunks = block.frozen_chunks if isinstance(block, AnswerBlock) else None
        chunks_at = laid_out_region(self, chunks) if chunks is not None else None
        highlight = block.highlight
        if highlight is not None and highlight.current is not None:
            target = block.current_match_widget()
            line = chunks.current_match_line() if chunks is not None and target is chunks else None
            if line is not None and chunks_at is not None:
                y = chunks_at.y + line - height // 2
            elif (region := laid_out_region(self, target)) is not None:
                y = region.y + region.height // 2 - height // 2
        if chunks is not None and chunks_at is not None:
            chunks.measure_lines(height, max(0, y - chunks_at.y))
        end = max(0, content_height(self) - height)
        scroll_before_layout(self, max(0, min(y, end)))
        if self._stale:  # the scroll was set without its watcher: neighbours changed meanwhile
            self._redraw_stale()

    def block_for_query(self, query_id: str) -> QueryBlock | None:
        """The block of this question or approval, mounted first when it is outside the window
        (an agent far up the every-agent view asks): every open question can be answered."""
        from agentui.tui.app.widgets.query_blocks import QueryBlock  # one is asked for

        for block in self._blocks.values():
            if isinstance(block, QueryBlock) and block.query_id == query_id:
                return block
        for index in range(len(self._entries) - 1, -1, -1):
            entry = self._entries[index]
            if entry.kind == "question" and entry.key == query_id:
                revealed = self.reveal(index)
                return revealed if isinstance(revealed, QueryBlock) else None
        return None

    # -- mounting ------------------------------------------------------------------------

    def _make(self, entry: Entry, *, at_the_end: bool = True) -> EntryBlock:
        """The block of `entry`; `at_the_end` False: it is mounted away from the pane's end
        (an answer's last chunks are rendered when drawn, not when bound)."""
        block = block_for(
            entry,
            self._label(entry),
            self.drafts,
            self.name_of(entry.agent_id),
            read_only=self.read_only,
        )
        if isinstance(block, AnswerBlock):
            block.measure_when_bound = at_the_end
        if self.marker is not None:
            block.highlight = self.marker(entry)  # drawn with it from the first frame
        block.set_step_mark(self._step_mark_of(entry))
        self._blocks[entry.uid] = block
        return block

    def _mount_new(self, was_at_end: bool = True) -> AwaitMount | None:
        new = self._entries[self._end :] if not self._detached else []
        mounting = None
        if new:
            first, drawn_first = self._end, self._drawn_first
            blocks = [self._make(e, at_the_end=first + n >= drawn_first) for n, e in enumerate(new)]
            mounting = self.mount_all([part for block in blocks for part in block.parts()])
            self._end = len(self._entries)
        self._drawn_first = 0  # entries coming at the tail are drawn there
        self._update_earlier()
        self.call_after_refresh(self._follow_tail, was_at_end, self._landings)
        return mounting

    def _screens_from_the_end(self, screens: int = 2) -> int:
        """The first of the entries within `screens` pane heights of the end (estimated): a
        window's answers above them render their chunks when drawn, not when bound."""
        width, height = self._width(), max(self.scrollable_content_region.height, 24)
        lines, first = 0, len(self._entries)
        while first > 0 and lines <= screens * height:
            first -= 1
            lines += self._lines(self._entries[first], width)
        return first

    def _trim_once_laid_out(self, start: int) -> None:
        """The trim a sync put off, unless the window moved meanwhile (the person paged back,
        or went far up): never under a person reading back."""
        if start != self._start or self._detached or self._end - self._start <= MAX_BLOCKS:
            return
        if self.is_vertical_scroll_end:
            self._trim()

    def _trim(self) -> None:
        excess = self._end - self._start - MAX_BLOCKS
        for entry in self._entries[self._start : self._start + excess]:
            block = self._blocks.pop(entry.uid, None)
            if block is not None:
                for part in block.parts():
                    part.remove()
        self._start += excess
        self._update_earlier()

    def _update_earlier(self) -> None:
        hidden = self._start
        if hidden and self._earlier is None:
            self._earlier = Button("", id="earlier", classes="earlier")
            self.mount(self._earlier, before=0)
        if self._earlier is None:
            return
        self._earlier.display = hidden > 0
        if hidden:
            page = self._start - self._page_before(self._start, PAGE)
            self._earlier.label = f"Show {page} earlier of {hidden} hidden entries"

    @on(Button.Pressed, "#earlier")
    def show_earlier(self, event: Button.Pressed | None = None) -> None:
        if event is not None:
            event.stop()
        if self._start == 0:
            return
        self._mount_earlier(self._page_before(self._start, PAGE))

    def _update_later(self) -> None:
        hidden = len(self._entries) - self._end
        if not self._detached or not hidden:
            return
        if self._later is None:
            self._later = Button("", id="later", classes="earlier")
            self.mount(self._later)
        page = self._page_after(self._end, PAGE) - self._end
        self._later.label = f"Show {page} later of {hidden} hidden entries"

    @on(Button.Pressed, "#later")
    def show_later(self, event: Button.Pressed | None = None) -> None:
        if event is not None:
            event.stop()
        if self._detached:
            self._mount_later(self._page_after(self._end, PAGE))

    def _back_at_tail(self) -> None:
        """The window reaches the tail again: new entries are mounted as they come."""
        self._detached = False
        if self._later is not None:
            self._later.remove()
            self._later = None

    # -- the window ----------------------------------------------------------------------

    def _lines(self, entry: Entry, width: int) -> int:
        """About how many lines `entry`'s block takes at `width` (before it is drawn)."""
        if entry.kind in _FOLDED_KINDS and not entry.failed:
            return 1
        text = entry.text
        return 2 + text.count("\n") + len(text) // width

    def _width(self) -> int:
        width = self.scrollable_content_region.width
        return width if width > 0 else 80

    def _page_before(self, end: int, count: int) -> int:
        """Where a page of hidden entries ending at `end` starts: at most `count` entries and
        WINDOW_LINES lines, and at least one entry."""
        width, lines, begin = self._width(), 0, end
        while begin > 0 and end - begin < count:
            lines += self._lines(self._entries[begin - 1], width)
            if lines > WINDOW_LINES and begin < end:
                break
            begin -= 1
        return begin

    def _page_after(self, begin: int, count: int) -> int:
        """Where a page of hidden entries starting at `begin` ends (as `_page_before`)."""
        width, lines, end, last = self._width(), 0, begin, len(self._entries)
        while end < last and end - begin < count:
            lines += self._lines(self._entries[end], width)
            if lines > WINDOW_LINES and end > begin:
                break
            end += 1
        return end

    def _fits_a_page(self, begin: int, end: int) -> bool:
        return self._page_after(begin, end - begin) >= end

    def _tail_start(self) -> int:
        """Where the window following the tail starts: the newest entry, and a page before it."""
        last = len(self._entries) - 1
        return self._page_before(last, MAX_BLOCKS - 1) if last > 0 else 0

    def _rewindow(self, begin: int, *, follow: bool = False) -> AwaitMount | None:
        """Mount a window from `begin` on in place of the one mounted (an entry far from it
        was asked for, or the tail again: `follow`): the blocks go, and a page of entries
        from `begin` is mounted (returned: its mounting)."""
        end, tail = self._page_after(begin, MOVED_WINDOW), self._tail_start()
        if end >= len(self._entries) or begin >= tail:  # it reaches the tail: the tail's window
            begin, end = min(begin, tail), len(self._entries)
        parts = [part for block in self._blocks.values() for part in block.parts()]
        self._blocks = {}
        if parts:
            self._removing += 1
            removal = self.remove_children(parts)
            self.call_next(self._follow_once_removed, removal, follow)
        self._start = self._end = begin
        self._detached = end < len(self._entries)
        if self._detached:
            self.release_anchor()  # the person reads back: stop following the tail
            mounting = self._mount_later(end)
        else:
            self._back_at_tail()
            self._drawn_first = self._screens_from_the_end()
            mounting = self._mount_new(was_at_end=False)
        self._update_earlier()
        return mounting

    def _mount_later(self, end: int) -> AwaitMount | None:
        """Mount the hidden entries from the window's end up to `end`, below the ones shown."""
        blocks = [self._make(e, at_the_end=False) for e in self._entries[self._end : end]]
        parts = [part for block in blocks for part in block.parts()]
        mounting = None
        if parts:
            if self._later is not None:
                mounting = self.mount_all(parts, before=self._later)
            else:
                mounting = self.mount_all(parts)
        self._end = end
        if end >= len(self._entries):
            self._back_at_tail()
        self._update_later()
        return mounting

    def _mount_earlier(self, begin: int) -> AwaitMount:
        """Mount the hidden entries from `begin` on, above the ones shown."""
        kept = self._blocks
        self._blocks = {}
        parts = [
            part
            for e in self._entries[begin : self._start]
            for part in self._make(e, at_the_end=False).parts()
        ]
        self._blocks.update(kept)  # screen order: the earlier ones first
        first = next(
            (
                self._blocks[e.uid]
                for e in self._entries[self._start : self._end]
                if e.uid in self._blocks
            ),
            None,
        )
        if first is not None:
            mounting = self.mount_all(parts, before=first.parts()[0])
        else:
            mounting = self.mount_all(parts)
        self._start = begin
        self.release_anchor()  # the person is reading back: stop following the tail
        self._update_earlier()
        return mounting

    def _step_mark_of(self, entry: Entry) -> str | None:
        return self.step_mark(entry) if self.step_mark is not None else None

    def mark_steps(self, agent_ids: set[str] | None = None) -> None:
        """Draw the step markers again on the mounted blocks (of `agent_ids` only, when
        given): a block whose marker is unchanged is not redrawn."""
        for block in self._blocks.values():
            if agent_ids is None or block.entry.agent_id in agent_ids:
                block.set_step_mark(self._step_mark_of(block.entry))

    def block_of(self, uid: int) -> EntryBlock | None:
        return self._blocks.get(uid)

    def action_toggle_folds(self) -> None:
        folds = [b for b in self._blocks.values() if isinstance(b, FoldBlock)]
        unfold = any(b.folded for b in folds)
        for block in folds:
            block.folded = not unfold
