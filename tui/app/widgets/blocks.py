"""The blocks of a transcript, one widget per entry, each redrawn only when its entry changed.

Agent text is never parsed as Rich markup: plain parts are `Text`, answers are Markdown. Every
string from a model, a tool or a task goes through `visible_controls` (`shown`) first. The blocks
that wait on the person (a question, an approval) are in query_blocks.py.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, NamedTuple

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Static

from agentui.core.support.terminal_text import clipped
from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.textual_compat import keep_tall
from agentui.tui.app.widgets.frozen_chunks import FrozenChunk, FrozenChunks
from agentui.tui.app.widgets.plain_answer import as_markdown
from agentui.tui.app.widgets.search_highlight import Highlight, Highlighted, mark_text

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import TranscriptItem as Entry

# A streamed answer is shown as Markdown in chunks of this many paragraphs (or lines, for long
# code blocks and line-by-line output): finished chunks are rendered once, only the growing
# tail is rendered again at each flush: its size is what a flush of a long answer costs (24
# paragraphs made ~9 ms a flush, 8 make ~4).
PARAGRAPHS_PER_CHUNK = 8
LINES_PER_CHUNK = 40
LINE_CHARS_PER_CHUNK = 4000
PREVIEW_CHARS = 100
_FENCE = re.compile(r"^\s*(`{3,}|~{3,})")


def _one_line(text: str, limit: int = PREVIEW_CHARS) -> str:
    return clipped(" ".join(shown(text).split()), limit)


class Cut(NamedTuple):  # made before the first frame: see first_frame.py
    """Where a finished chunk ends, and the code fence still open there (if any): the chunk
    closes it and the rest of the answer opens it again, so both render as code."""

    at: int
    fence: str | None = None  # the fence's opening line, e.g. "```python"


def freeze_point(
    text: str,
    paragraphs: int,
    fence: str | None = None,
    max_lines: int = LINES_PER_CHUNK,
    start: int = 0,
    line_chars: int = LINE_CHARS_PER_CHUNK,
) -> Cut | None:
    """Where to cut `text[start:]` (which starts inside `fence`, if given): after `paragraphs`
    complete paragraphs outside code, or after `max_lines` complete lines anywhere, or inside
    a line longer than `line_chars` (after its last space before that, or at that); `at`
    counts from `start`. None while there is not enough yet. It reads no further than the cut
    (an answer bound whole is cut in one pass, not re-read from each cut to its end)."""
    open_fence = fence
    count = lines = 0
    position, end = start, len(text)
    while True:
        newline = text.find("\n", position, position + line_chars + 1)
        if newline < 0:
            if end - position <= line_chars:
                return None  # a line being written
            # One line longer than a chunk (minified JSON, a blob): drawn whole at every
            # flush it would cost more the longer it got. Cut, between words if it has any
            # in the second half of the stretch (not into a chunk of indentation alone).
            space = text.rfind(" ", position + line_chars // 2, position + line_chars)
            return Cut((space + 1 if space >= 0 else position + line_chars) - start, open_fence)
        line = text[position : newline + 1]
        lines += 1
        position = newline + 1
        marker = _FENCE.match(line)
        if marker and (open_fence is None or line.strip().startswith(_closer(open_fence))):
            open_fence = None if open_fence is not None else line.rstrip("\n").strip()
        elif not line.strip() and open_fence is None and position < end:
            count += 1
            if count >= paragraphs:
                return Cut(position - start)
        if lines >= max_lines and position < end:
            return Cut(position - start, open_fence)


def _closer(opening: str) -> str:
    found = _FENCE.match(opening)
    return found.group(1) if found else "```"


class RenderedOncePerWidth:
    """A renderable drawn once per width and set of options, then repeated.

    Textual asks a Static's content for its height, then for its lines, and again when the
    transcript's scroll bar comes or goes: the growing tail of a streamed answer was rendered
    as Markdown ~6 times a frame. Segments are immutable, so repeating them is safe.
    """

    __slots__ = ("_renderable", "_rendered")

    def __init__(self, renderable: RenderableType) -> None:
        self._renderable = renderable
        self._rendered: dict[tuple[object, ...], list[Segment]] = {}

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> list[Segment]:
        # Not options.height: Textual measures with none and draws with the widget's, and
        # what is drawn here (Markdown, Text) is as tall as its content either way.
        key = (
            id(console),
            options.max_width,
            options.min_width,
            options.justify,
            options.overflow,
            options.no_wrap,
            options.highlight,
            options.markup,
        )
        segments = self._rendered.get(key)
        if segments is None:
            if len(self._rendered) >= 4:  # widths of a resize nobody returns to
                self._rendered.clear()
            segments = self._rendered[key] = list(console.render(self._renderable, options))
        return segments

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement.get(console, options, self._renderable)


class EntryBlock(Widget):
    """Base of every transcript block."""

    DEFAULT_CSS = "EntryBlock { height: auto; }"

    def __init__(self, entry: Entry, agent_label: str | None = None) -> None:
        super().__init__(classes=f"entry {entry.kind}")
        self.entry = entry
        self.agent_label = agent_label
        self.highlight: Highlight | None = None  # a search's matches in it (search_highlight)
        self.step_mark: str | None = None  # the steps that end here (`#4`), while shown

    def set_step_mark(self, mark: str | None) -> None:
        """Say the steps that end at this block on a rule under it (None: no rule). Only a
        block whose mark changed is drawn again."""
        if mark == self.step_mark:
            return
        self.step_mark = mark
        self.set_class(mark is not None, "step-end")
        # Text, not markup: the words are ours, but a border title is read as markup.
        self.border_subtitle = Text(mark) if mark is not None else None

    def refresh_entry(self) -> None:
        """The entry changed: redraw."""
        self.refresh(layout=True)

    def set_highlight(self, highlight: Highlight | None) -> None:
        """Mark a search's matches in the block (None: none)."""
        if highlight != self.highlight:
            self.highlight = highlight
            self._highlight_changed()

    def _highlight_changed(self) -> None:
        self.refresh(layout=True)

    def current_match_widget(self) -> Widget:
        """The part of the block that holds the match the search is at (to scroll to)."""
        return self

    def show_current_match(self) -> bool:
        """Scroll the pane to the match the search is at, where scrolling to the part that
        holds it would not show it (a part taller than the pane). False: not done here."""
        return False

    def copy_text(self) -> str:
        """What the block shows, in full (a folded one as unfolded), as plain text: the words
        as drawn (controls by their visible stand-ins), with no styles or markup."""
        raise NotImplementedError

    def rebind(self, entry: Entry, agent_label: str | None, agent_name: str = "") -> bool:
        """Show `entry` in this block instead, if it is the kind of block `entry` needs:
        switching agents redraws the mounted blocks in place instead of removing them and
        mounting new ones (most of a switch's time). False, with nothing changed, if not."""
        if not self._takes(entry, agent_label):
            return False
        self.entry = entry
        self.agent_label = agent_label
        self.set_classes(f"entry {entry.kind}")
        self._rebound(agent_name)
        return True

    def _takes(self, entry: Entry, agent_label: str | None) -> bool:
        """This block can show `entry` (blocks that hold what a person typed never do)."""
        return False

    def parts(self) -> tuple[Widget, ...]:
        """The widgets the transcript mounts for this block, in order (this one among them)."""
        return (self,)

    def _rebound(self, agent_name: str) -> None:
        """Draw the entry just bound, from scratch."""
        self.refresh_entry()


class NoteBlock(EntryBlock):
    """The task, notices and errors: one styled line or paragraph."""

    def __init__(self, entry: Entry, agent_label: str | None = None) -> None:
        super().__init__(entry, agent_label)
        self.set_class(entry.failed, "failed")

    def _takes(self, entry: Entry, agent_label: str | None) -> bool:
        return block_type(entry) is NoteBlock

    def _rebound(self, agent_name: str) -> None:
        self.set_class(self.entry.failed, "failed")
        self.refresh(layout=True)

    def render(self) -> Text:
        entry = self.entry
        text = Text()
        if self.agent_label:
            text.append(f"{self.agent_label} › ", style="bold")
        title = entry.title or entry.kind
        text.append(f"{shown(title)}: ", style="bold")
        text.append(shown(entry.text))
        return mark_text(text, self.highlight)

    def copy_text(self) -> str:
        return self.render().plain


class SteerBlock(EntryBlock):
    """The person's message to one agent, and whether its next model call has read it."""

    def __init__(self, entry: Entry, agent_name: str, agent_label: str | None = None) -> None:
        super().__init__(entry, agent_label)
        self.agent_name = agent_name

    def refresh_entry(self) -> None:
        self.set_class(self.entry.failed, "failed")
        super().refresh_entry()

    def _takes(self, entry: Entry, agent_label: str | None) -> bool:
        return block_type(entry) is SteerBlock

    def _rebound(self, agent_name: str) -> None:
        self.agent_name = agent_name or self.entry.agent_id
        self.refresh_entry()

    def render(self) -> Text:
        entry = self.entry
        text = Text()
        text.append(f"you → {self.agent_name}: ", style="bold")
        text.append(shown(entry.text))
        mark = "✗ " if entry.failed else ("✓ " if entry.settled_ts else "… ")
        when = (
            time.strftime(" at %H:%M:%S", time.localtime(entry.settled_ts))
            if entry.settled_ts
            else ""
        )
        text.append(f"\n{mark}{entry.detail}{when}", style="dim italic")
        return mark_text(text, self.highlight)

    def copy_text(self) -> str:
        return self.render().plain


class AnswerHead(Widget):
    """The top of an answer: its agent's label and its frozen chunks (one FrozenChunks widget,
    which draws only what is on screen). The transcript mounts it just above its AnswerBlock,
    which holds the live tail: the tail's growth then lays out and resizes no widget as tall
    as the answer (Textual's cost of each grows with the height of what it lays out or
    resizes)."""

    DEFAULT_CSS = """
    AnswerHead { height: auto; layout: vertical; }
    AnswerHead > Static { height: auto; }
    """

    def __init__(self, block: AnswerBlock, label: Static, chunks: FrozenChunks) -> None:
        super().__init__(classes="answer-head")
        keep_tall(self)  # as tall as its frozen chunks (see textual_compat.keep_tall)
        self.block = block
        self._label = label
        self._chunks = chunks

    def render_lines(self, crop: Region) -> list[Strip]:
        # Its label and its chunks cover it whole (it has no padding, border or gap of its
        # own), and the compositor keeps the topmost widget's lines: what it would draw never
        # shows. Drawn through its line cache, its blank lines cost ~1 ms a frame of a scroll.
        return [Strip.blank(crop.width)] * crop.height

    def compose(self) -> ComposeResult:
        if self.block.agent_label:
            yield self._label
        yield self._chunks


class AnswerBlock(EntryBlock):
    """Streamed assistant text as Markdown: its head (the label and the frozen chunks, mounted
    just above it) and the live tail."""

    DEFAULT_CSS = """
    AnswerBlock { height: auto; layout: vertical; }
    AnswerBlock > Static { height: auto; }
    """

    def __init__(self, entry: Entry, agent_label: str | None = None) -> None:
        super().__init__(entry, agent_label)
        self._frozen = 0  # characters of entry.text already in frozen chunks
        self._fence: str | None = None  # a code fence open where the frozen chunks end
        self.frozen_chunks = FrozenChunks(lambda start, end: self.entry.text_slice(start, end))
        self._tail = Static("", classes="answer-tail")
        self._label = Static(self._label_text(), classes="agent-label")
        self.head = AnswerHead(self, self._label, self.frozen_chunks)
        self._shown_length = -1
        self._shown_interrupted = False
        # What the tail draws and the text it shows (a search marks its matches in it).
        self._tail_drawn: tuple[RenderableType, str] = (Text(""), "")
        self._tail_lines: tuple[int, int] | None = None  # (width, lines) it was laid out at
        # Render the last frozen chunks when the answer is bound whole, for the pane that
        # shows its end at once; a block mounted away from the pane's end (a page of earlier
        # entries, an entry gone to) renders only what gets drawn.
        self.measure_when_bound = True

    def _label_text(self) -> Text:
        return Text(f"{self.agent_label} ›", style="bold")

    def compose(self) -> ComposeResult:
        yield self._tail

    def parts(self) -> tuple[Widget, ...]:
        return (self.head, self)

    def on_unmount(self) -> None:
        if self.head.is_attached:  # removed without it (the transcript removes both)
            self.head.remove()

    def _takes(self, entry: Entry, agent_label: str | None) -> bool:
        # With or without the agent's name above it, as this block was composed.
        return block_type(entry) is AnswerBlock and bool(agent_label) == bool(self.agent_label)

    def _rebound(self, agent_name: str) -> None:
        if self.agent_label:
            self._label.update(self._label_text())
        self.frozen_chunks.reset()
        self._frozen = 0
        self._fence = None
        self._shown_length = -1
        self.refresh_entry()

    def on_mount(self) -> None:
        self.refresh_entry()

    def _reopened(self, part: str) -> str:
        """`part` as Markdown of its own: inside a code fence the frozen chunks left open,
        it opens that fence again."""
        return f"{self._fence}\n{part}" if self._fence is not None else part

    def refresh_entry(self) -> None:
        if self._tail.parent is None:
            return  # not composed yet: on_mount draws it, with everything up to then
        entry = self.entry
        length = entry.text_length
        if length == self._shown_length and entry.interrupted == self._shown_interrupted:
            return
        self._shown_length, self._shown_interrupted = length, entry.interrupted
        # What is not frozen yet, read alone: an answer millions of characters long is not
        # joined whole at every flush.
        base = self._frozen
        rest = entry.text_slice(base)
        frozen: list[FrozenChunk] = []
        while cut := freeze_point(
            rest, PARAGRAPHS_PER_CHUNK, self._fence, start=self._frozen - base
        ):
            # A fence closes on a line of its own: a chunk cut inside a long line of code
            # ends that line first.
            mid_line = rest[self._frozen - base + cut.at - 1] != "\n"
            closer = ("\n" if mid_line else "") + _closer(cut.fence) + "\n" if cut.fence else ""
            frozen.append(
                FrozenChunk(
                    self._frozen,
                    self._frozen + cut.at,
                    prefix=f"{self._fence}\n" if self._fence is not None else "",
                    suffix=closer,
                )
            )
            self._frozen += cut.at
            self._fence = cut.fence
        bound_whole = len(frozen) > 1 and not self.frozen_chunks.chunks
        if self.frozen_chunks.highlight != self.highlight:
            # Made or rebound with a search's marks (the transcript sets `highlight` before
            # it is mounted): its frozen chunks mark them too, and know where the current is.
            self.frozen_chunks.set_highlight(self.highlight)
        self.frozen_chunks.extend(
            frozen, measure_last=0 if bound_whole and not self.measure_when_bound else 3
        )
        tail = rest[self._frozen - base :]
        shown_tail = shown(self._reopened(tail))
        # rich.markdown and markdown_it load with the first answer that is more than plain words.
        parts: list[RenderableType] = [as_markdown(shown_tail)] if tail.strip() else []
        if self.entry.interrupted:
            parts.append(Text("(cut short)", style="italic dim"))
        drawn = RenderedOncePerWidth(parts[0] if len(parts) == 1 else Group(*parts))
        self._tail_drawn = (drawn, shown_tail)
        marked = self._marked(drawn, shown_tail, self.frozen_chunks.match_count())
        # A layout only when the tail's height changes (a line more, every ~100 characters):
        # a layout arranges the whole transcript, and Textual's cost of it grows with its
        # height; most flushes only add words to the last line.
        self._tail.update(marked, layout=self._tail_height_changed(marked))

    @property
    def tail_text(self) -> str:
        """The Markdown the live tail draws now (as shown: controls made visible)."""
        return self._tail_drawn[1]

    def _tail_height_changed(self, marked: RenderableType) -> bool:
        """Whether `marked` takes another number of lines in the tail than it shows now,
        measured as Textual measures it (the measure is kept: Textual reuses it)."""
        width = self._tail.content_size.width
        if not width or not self._tail.is_mounted:
            self._tail_lines = None
            return True
        app = self.app
        options = app.console_options.update_width(width).update(highlight=False)
        lines = sum(text.count("\n") for text, _, _ in app.console.render(marked, options))
        changed = (width, lines) != self._tail_lines
        self._tail_lines = (width, lines)
        return changed

    def copy_text(self) -> str:
        # Its Markdown as the block is given it (rendered, it would be cut to the pane's width).
        words = shown(self.entry.text)
        label = f"{self.agent_label} ›\n" if self.agent_label else ""
        return label + words + ("\n(cut short)" if self.entry.interrupted else "")

    def _marked(self, drawn: RenderableType, text: str, before: int) -> RenderableType:
        if self.highlight is None or not self.highlight.pattern.search(text):
            return drawn
        return Highlighted(drawn, self.highlight.shifted(before))

    def _highlight_changed(self) -> None:
        self.frozen_chunks.set_highlight(self.highlight)
        drawn, text = self._tail_drawn
        self._tail.update(self._marked(drawn, text, self.frozen_chunks.match_count()))

    def current_match_widget(self) -> Widget:
        highlight = self.highlight
        if highlight is None or highlight.current is None:
            return self
        if highlight.current < self.frozen_chunks.match_count():
            return self.frozen_chunks
        return self._tail

    def show_current_match(self) -> bool:
        # The frozen chunks are one widget, maybe far taller than the pane: to the match's line.
        line = self.frozen_chunks.current_match_line()
        if line is None:
            return False
        self.frozen_chunks.scroll_to_line(line)
        return True


class FoldBlock(EntryBlock):
    """Thinking and tool calls: one line when folded, everything when unfolded (click)."""

    folded: reactive[bool] = reactive(True, layout=True)

    def __init__(self, entry: Entry, agent_label: str | None = None) -> None:
        super().__init__(entry, agent_label)
        # Errors are shown unfolded: the person should not have to dig for them.
        self.folded = not entry.failed

    def refresh_entry(self) -> None:
        if self.entry.failed and self.folded:
            self.folded = False
        self.set_class(self.entry.failed, "failed")
        self.refresh(layout=True)

    def _takes(self, entry: Entry, agent_label: str | None) -> bool:
        return block_type(entry) is FoldBlock

    def _rebound(self, agent_name: str) -> None:
        self.folded = not self.entry.failed  # as a new block starts
        self.refresh_entry()

    def on_click(self, event: events.Click) -> None:
        self.folded = not self.folded

    def render(self) -> RenderableType:
        return self._drawn(self.folded)

    def copy_text(self) -> str:
        return self._drawn(folded=False).plain.removeprefix("▾ ")  # the fold's mark is not said

    def _drawn(self, folded: bool) -> Text:
        entry = self.entry
        marker = "▸ " if folded else "▾ "
        text = Text(marker, style="dim")
        if self.agent_label:
            text.append(f"{self.agent_label} › ", style="bold")
        if entry.kind == "thinking":
            text.append("thinking", style="italic")
            if entry.title:
                text.append(f" ({shown(entry.title)})", style="italic")
            if folded:
                text.append("  " + _one_line(entry.text), style="dim italic")
            else:
                text.append("\n")
                text.append(shown(entry.text), style="dim italic")
            if entry.interrupted:
                text.append("  (cut short)", style="italic dim")
            return mark_text(text, self.highlight)
        text.append(shown(entry.title), style="bold")
        if folded:
            text.append(f"({_one_line(entry.text, 60)})")
            if entry.detail:
                text.append("  → ", style="dim")
                text.append(_one_line(entry.detail, 60), style="red" if entry.failed else "")
            else:  # running: with the tool's latest progress, if it reports any
                text.append(f"  … {_one_line(entry.progress, 60)}".rstrip(), style="dim")
            return mark_text(text, self.highlight)
        text.append("\n")
        text.append(shown(entry.text) or "(no arguments)")
        if entry.detail:
            text.append("\n→ ", style="dim")
            text.append(shown(entry.detail), style="red" if entry.failed else "")
        elif entry.progress:
            text.append(f"\n… {shown(entry.progress)}", style="dim")
        return mark_text(text, self.highlight)


def block_type(entry: Entry) -> type[EntryBlock]:
    """The kind of block that shows `entry`."""
    if entry.kind == "steer":
        return SteerBlock
    if entry.kind == "text":
        return AnswerBlock
    if entry.kind in ("thinking", "tool"):
        return FoldBlock
    if entry.kind == "question":
        from agentui.tui.app.widgets.query_blocks import ApprovalBlock, QuestionBlock

        return ApprovalBlock if entry.title == "approval" else QuestionBlock
    return NoteBlock


def block_for(
    entry: Entry,
    agent_label: str | None = None,
    drafts: dict[str, str] | None = None,
    agent_name: str = "",
    *,
    read_only: bool = False,
) -> EntryBlock:
    """`read_only`: a replay's transcript, where nothing can be answered."""
    kind = block_type(entry)
    if kind is SteerBlock:
        return SteerBlock(entry, agent_name or entry.agent_id, agent_label)
    if entry.kind == "question":
        from agentui.tui.app.widgets.query_blocks import QueryBlock

        assert issubclass(kind, QueryBlock)
        return kind(entry, agent_label, drafts, read_only=read_only)
    return kind(entry, agent_label)
