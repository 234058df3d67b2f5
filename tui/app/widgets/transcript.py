"""The transcript pane: the selected agent's entries, or every agent's interleaved.

Only this pane's source is rendered (transcripts nobody looks at cost nothing), and only the
newest MAX_BLOCKS entries are mounted while it follows the tail; older ones stay reachable with
the "show earlier" button (and a search that goes to one: `reveal`). Blocks redraw only when
their entry changed. While a search is open, `marker` says what each block marks of it.

The selected block, which the palette's "Copy the selected block" copies, is the one the person
last clicked, or the one the search last went to (`select`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.await_remove import AwaitRemove
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.dom import DOMNode
from textual.widgets import Button, Static

from agentui.tui.app import textual_compat
from agentui.tui.app.decision_progress import DecidingLine, fit_line
from agentui.tui.app.keymap import VIEW_KEYS, bindings
from agentui.tui.app.widgets.blocks import (
    AnswerHead,
    EntryBlock,
    FoldBlock,
    QueryBlock,
    block_for,
)

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import TranscriptItem as Entry
    from agentui.tui.app.widgets.search_highlight import Highlight

MAX_BLOCKS = 200
PAGE = 100
# What the empty pane says on the first screen, at any width (it wraps).
EMPTY_HINT = (
    "Nothing yet. Type a task in the prompt below and press enter: the agents' work streams here."
)

# Cells of the lower border a subtitle cannot use: two corners and a blank and a rule each side.
_BORDER_CELLS = 6


class Transcript(VerticalScroll):
    BINDINGS: ClassVar[list[BindingType]] = [*bindings(VIEW_KEYS)]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.source: str | None = None  # an agent id, ALL_AGENTS, or None before any task
        self._entries: list[Entry] = []
        self._label: Callable[[Entry], str | None] = lambda entry: None
        # Agent id -> the name people see (set by the app; a steer says whom it went to).
        self.name_of: Callable[[str], str] = lambda agent_id: agent_id
        self._start = 0  # entries[_start:_end] are mounted
        self._end = 0
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

    def compose(self) -> ComposeResult:
        if self._hint is not None:
            yield self._hint

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

    def _showing_end(self) -> bool:
        """The view, as drawn now, shows the end of the transcript."""
        return self.max_scroll_y <= 0 or self.scroll_y >= self.max_scroll_y - 1

    def _follow_tail(self, was_at_end: bool = True) -> None:
        """After a batch is drawn: follow the tail if the view was at the end before it.

        Anchoring waits for the content to overflow (an anchored container bottom-aligns short
        content). A view at the end follows again whatever released the anchor on the way (a
        scroll to a question, a resize): Textual restores a released anchor only when the
        scroll position changes, which a view already at the end never does.
        """
        if self.max_scroll_y <= 0 or self._removing:
            return
        if was_at_end and (not self.is_anchored or textual_compat.anchor_released(self)):
            self.anchor()  # scrolls to the end and clears the release

    def follow(self) -> None:
        """Go to the end and follow it from now on (after the person answered a question)."""
        self.call_after_refresh(self._follow_tail, True)

    def show_block(self, block: EntryBlock) -> None:
        """Scroll so `block` starts at the top of the pane (as much of it as fits shows)."""
        if block.is_attached:
            self.scroll_to_widget(block, animate=False, top=True)

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
        self._start = max(0, len(entries) - MAX_BLOCKS)
        reused = 0
        for entry in entries[self._start :]:
            if reused == len(old):
                break
            if self.marker is not None:  # drawn with the entry it now shows
                old[reused].highlight = self.marker(entry)
            if not old[reused].rebind(entry, label(entry), self.name_of(entry.agent_id)):
                break
            old[reused].set_step_mark(self._step_mark_of(entry))
            self._blocks[entry.uid] = old[reused]
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

    async def _follow_once_removed(self, removal: AwaitRemove) -> None:
        await removal
        self._removing -= 1
        self.call_after_refresh(self._follow_tail, True)

    def sync(self, changed: set[int]) -> None:
        """Mount entries added since the last sync and redraw the changed ones."""
        was_at_end = self._showing_end()  # before this batch makes it longer
        searching = self.entries_changed
        added = {e.uid for e in self._entries[self._end :]} if searching else set()
        self._mount_new(was_at_end)
        if searching is not None and (changed or added):
            searching(changed | added)
        for uid in changed:
            block = self._blocks.get(uid)
            if block is not None:
                block.refresh_entry()
        if changed:
            self.call_after_refresh(self._follow_tail, was_at_end)
        # Trim only while following the tail, never under a person reading back.
        if self._end - self._start > MAX_BLOCKS and self.is_vertical_scroll_end:
            self._trim()

    @property
    def entries(self) -> list[Entry]:
        """The entries of the source shown, oldest first (mounted or not)."""
        return self._entries

    def mounted_blocks(self) -> list[EntryBlock]:
        return list(self._blocks.values())

    def reveal(self, index: int) -> EntryBlock | None:
        """The block of `self.entries[index]`, mounting the earlier entries down to it first
        when it is among the hidden ones (a search went to it)."""
        if not 0 <= index < len(self._entries):
            return None
        if index < self._start:
            self._mount_earlier(max(0, min(index, self._start - PAGE)))
        return self._blocks.get(self._entries[index].uid)

    def block_for_query(self, query_id: str) -> QueryBlock | None:
        for block in self._blocks.values():
            if isinstance(block, QueryBlock) and block.query_id == query_id:
                return block
        return None

    # -- mounting ------------------------------------------------------------------------

    def _make(self, entry: Entry) -> EntryBlock:
        block = block_for(
            entry,
            self._label(entry),
            self.drafts,
            self.name_of(entry.agent_id),
            read_only=self.read_only,
        )
        if self.marker is not None:
            block.highlight = self.marker(entry)  # drawn with it from the first frame
        block.set_step_mark(self._step_mark_of(entry))
        self._blocks[entry.uid] = block
        return block

    def _mount_new(self, was_at_end: bool = True) -> None:
        new = self._entries[self._end :]
        if new:
            self.mount_all([part for e in new for part in self._make(e).parts()])
            self._end = len(self._entries)
        self._update_earlier()
        self.call_after_refresh(self._follow_tail, was_at_end)

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
            self._earlier.label = f"Show {min(PAGE, hidden)} earlier of {hidden} hidden entries"

    @on(Button.Pressed, "#earlier")
    def show_earlier(self, event: Button.Pressed | None = None) -> None:
        if event is not None:
            event.stop()
        if self._start == 0:
            return
        self._mount_earlier(max(0, self._start - PAGE))

    def _mount_earlier(self, begin: int) -> None:
        """Mount the hidden entries from `begin` on, above the ones shown."""
        kept = self._blocks
        self._blocks = {}
        parts = [part for e in self._entries[begin : self._start] for part in self._make(e).parts()]
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
            self.mount_all(parts, before=first.parts()[0])
        else:
            self.mount_all(parts)
        self._start = begin
        self.release_anchor()  # the person is reading back: stop following the tail
        self._update_earlier()

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
