"""The blocks of a transcript, one widget per entry, each redrawn only when its entry changed.

Agent text is never parsed as Rich markup: plain parts are `Text`, answers are Markdown. Every
string from a model, a tool or a task goes through `visible_controls` (`shown`) first.
"""

from __future__ import annotations

import re
import time
from typing import TYPE_CHECKING, ClassVar, NamedTuple

from rich.console import Console, ConsoleOptions, Group, RenderableType
from rich.measure import Measurement
from rich.segment import Segment
from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget
from textual.widgets import Button, Static, TextArea

from agentui.core.agent.approval import ApprovalChoice
from agentui.core.scene.round_question import EMPTY_IS_AN_ANSWER, answer_of
from agentui.core.support.terminal_text import clipped
from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.keymap import VIEW_KEYS, shadowing
from agentui.tui.app.textual_compat import keep_tall
from agentui.tui.app.widgets.composer import Composer
from agentui.tui.app.widgets.fitted_line import Piece, fit_line
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


class AnswerInput(Composer):
    """The inline answer box under a question: enter answers (with nothing typed it declines);
    esc only leaves the box for the prompt and the question waits. A question may take the
    cursor the moment before an esc meant for something else: declining is final, so it takes
    an enter; and the person did not choose the tree, where letters are commands."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "leave", "To prompt")]

    class Answered(Message):
        def __init__(self, query_id: str, text: str | None) -> None:
            super().__init__()
            self.query_id = query_id
            self.text = text

    class Left(Message):
        """The person left the answer box without answering."""

    # What enter and esc do (the footer shows ctrl+j's new line): ~44 columns, whole in the
    # transcript of an 80-column terminal; in a narrower box it is cut with an ellipsis
    # (Textual would wrap it onto a line the one-line box hides).
    HINT: ClassVar[str] = "enter answers (empty: declines) · esc leaves"

    def __init__(self, query_id: str, value: str = "") -> None:
        super().__init__(value, placeholder=self.HINT, classes="answer-input")
        self.query_id = query_id

    def on_resize(self, event: events.Resize) -> None:
        self.placeholder = fit_line([Piece.kept(Text(self.HINT))], self.content_size.width).plain

    def action_leave(self) -> None:
        self.post_message(self.Left())


class SceneAnswerInput(AnswerInput):
    """A directed scene's next round: nothing typed is an answer too (the scene goes on); the
    scene ends when the person cancels it."""

    HINT: ClassVar[str] = "enter sends (empty: goes on) · esc leaves"


# What an open question or approval says in a replay, in place of a box to answer it in.
UNANSWERED_IN_REPLAY = "not answered at this point of the recording (a replay is read-only)"


class QueryBlock(EntryBlock):
    """Something an agent waits on the person for, settled in place in the transcript.

    Inside it, the transcript's letter keys (help, quit, new task, ...) do nothing: someone
    typing a reason or an answer into the wrong place must not start anything.
    """

    DEFAULT_CSS = """
    QueryBlock { height: auto; layout: vertical; }
    QueryBlock > Static { height: auto; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [*shadowing(VIEW_KEYS, "explain_keys")]

    def action_explain_keys(self) -> None:
        """A letter reached the block itself: say what it takes instead."""

    def __init__(
        self,
        entry: Entry,
        agent_label: str | None = None,
        drafts: dict[str, str] | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        super().__init__(entry, agent_label)
        self._prompt = Static(self._prompt_text(), classes="question-prompt")
        self._answer = Static("", classes="question-answer")
        # Half-typed answers outlive the block: the transcript rebuilds it on every switch.
        self.drafts: dict[str, str] = drafts if drafts is not None else {}
        # A replay's: it shows what was asked and answered, and offers nothing to answer with.
        self.read_only = read_only
        self.answerable = entry.open and not read_only

    def _show_unanswered(self) -> None:
        """An open query in a replay: no box, and a word on why there is no answer."""
        self._answer.update(Text(UNANSWERED_IN_REPLAY, style="dim italic"))

    @on(TextArea.Changed)
    def _keep_draft(self, event: TextArea.Changed) -> None:
        if self.entry.open and isinstance(event.text_area, Composer):
            self.drafts[self.query_id] = event.text_area.value

    @property
    def query_id(self) -> str:
        return self.entry.key

    def focus_target(self) -> Widget | None:
        """Where keys should go while it waits (None once settled)."""
        raise NotImplementedError

    def _prompt_text(self) -> Text:
        text = Text()
        if self.agent_label:
            text.append(f"{self.agent_label} › ", style="bold")
        kind = self.entry.title or "question"
        text.append(f"{shown(kind)}: ", style="bold")
        text.append(shown(self.entry.text))
        return mark_text(text, self.highlight)

    def _highlight_changed(self) -> None:
        self._prompt.update(self._prompt_text())

    def copy_text(self) -> str:
        answer = self._answer_text()
        return self._prompt_text().plain + (f"\n{answer.plain}" if answer is not None else "")

    def _answer_text(self) -> Text | None:
        """The line under the prompt once it is settled (None while it waits)."""
        raise NotImplementedError

    def on_mount(self) -> None:
        self.refresh_entry()


# Question kinds where enter with nothing typed is an answer: a directed scene's next round
# (it goes on by itself). For every other question it declines.


class QuestionBlock(QueryBlock):
    """A question from an agent, answered in place: the input sits right under it."""

    def __init__(
        self,
        entry: Entry,
        agent_label: str | None = None,
        drafts: dict[str, str] | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        super().__init__(entry, agent_label, drafts, read_only=read_only)
        draft = self.drafts.get(entry.key, "")
        kind = SceneAnswerInput if entry.title in EMPTY_IS_AN_ANSWER else AnswerInput
        self.input: AnswerInput | None = kind(entry.key, draft) if self.answerable else None

    def focus_target(self) -> Widget | None:
        return self.input

    def compose(self) -> ComposeResult:
        yield self._prompt
        if self.input is not None:
            yield self.input
        yield self._answer

    def refresh_entry(self) -> None:
        self.set_class(self.entry.open, "open")
        if self.entry.open and self.read_only:
            self._show_unanswered()
        if not self.entry.open:
            self.drafts.pop(self.query_id, None)
            if self.input is not None:
                self.input.remove()
                self.input = None
            self._answer.update(self._answer_text() or "")

    def _answer_text(self) -> Text | None:
        if self.entry.open:
            return None
        return Text.assemble(("answer: ", "bold"), shown(self.entry.detail))

    @on(Composer.Submitted)
    def _submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        if self.input is not None:
            text = event.text.strip()
            # Nothing typed declines, except where nothing is an answer of its own.
            answer = answer_of(self.entry.title, text)
            self.post_message(AnswerInput.Answered(self.input.query_id, answer))


class ReasonInput(Composer):
    """Why the person rejects a tool call: the model reads it. Enter rejects; esc goes back to
    the choices without deciding anything."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back to the choices")]

    def __init__(self, value: str = "") -> None:
        super().__init__(
            value,
            placeholder="why? · enter rejects · esc back",
            classes="reason-input",
        )

    def action_back(self) -> None:
        block = self.parent
        if isinstance(block, ApprovalBlock):
            block.hide_reason()


class ApprovalBlock(QueryBlock):
    """A tool call waiting for approval: allow it once, always allow the tool (for the rest of
    this session), or reject it with a reason.

    The choices are digits, as in other agent terminals, so neither a stray enter nor one of
    the app's letter keys (a, n, ...) pressed out of habit decides anything. Other printable
    keys do nothing here (a word typed at it is not a command); the reason box appears with 3.
    esc only leaves it waiting, for the prompt: an approval may take the cursor between the
    two presses of esc-esc (interrupt), and the second must not reject the call; nor may it
    put the person on the tree, where the letters typed next would be commands.
    """

    can_focus = True
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("1", "decide('once')", "Allow once"),
        Binding("2", "decide('always')", "Always allow"),
        Binding("3", "reason", "Reject…"),
        Binding("escape", "leave", "To prompt"),
    ]

    class Left(Message):
        """The person left the approval undecided."""

    class Decided(Message):
        def __init__(self, query_id: str, choice: ApprovalChoice, reason: str) -> None:
            super().__init__()
            self.query_id = query_id
            self.choice: ApprovalChoice = choice
            self.reason = reason

    def __init__(
        self,
        entry: Entry,
        agent_label: str | None = None,
        drafts: dict[str, str] | None = None,
        *,
        read_only: bool = False,
    ) -> None:
        super().__init__(entry, agent_label, drafts, read_only=read_only)
        tool = entry.tool or "this tool"
        self._controls: Widget | None = None
        self.reason: ReasonInput | None = None
        self._hinted = False  # the keys were explained once already
        self.can_focus = self.answerable  # a replay's takes no keys: its digits decide nothing
        if self.answerable:
            draft = self.drafts.get(entry.key, "")
            self.reason = ReasonInput(draft)
            # Shown once the person chooses to reject (3, or the Reject button).
            self.reason.display = False
            self._controls = Vertical(
                # One per line: fits any transcript width. Content keeps a label literal.
                Button(Content("1 Allow once"), id="once", variant="success", compact=True),
                Button(
                    Content(f"2 Always allow {shown(tool)}"),
                    id="always",
                    variant="primary",
                    compact=True,
                    tooltip="Until agentui quits, for every agent, without asking again",
                ),
                Button(
                    Content("3 Reject, with a reason"), id="reject", variant="error", compact=True
                ),
                classes="approval-buttons",
            )

    def focus_target(self) -> Widget | None:
        return self if self.entry.open and self.answerable else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # After a click the digits are words, not choices (tui/app/focus.py): not offered,
        # so the footer says how to turn the keys on instead.
        keeper = getattr(self.app, "keeper", None)
        if keeper is not None and keeper.reading and action in ("decide", "reason", "leave"):
            return False
        # Once decided (by anyone), the choices are gone and the keys are the app's again.
        return self.entry.open and self.answerable if action in ("decide", "reason") else True

    def compose(self) -> ComposeResult:
        yield self._prompt
        if self._controls is not None and self.reason is not None:
            yield self._controls
            yield self.reason
        yield self._answer

    def refresh_entry(self) -> None:
        self.set_class(self.entry.open, "open")
        if self.entry.open:
            if self.read_only:
                self._show_unanswered()
            return
        self.drafts.pop(self.query_id, None)
        for widget in (self._controls, self.reason):
            if widget is not None:
                widget.remove()
        self._controls = self.reason = None
        self.can_focus = False
        self._answer.update(self._answer_text() or "")

    def _answer_text(self) -> Text | None:
        if self.entry.open:
            return None
        mark = ("✗ ", "bold red") if self.entry.failed else ("✓ ", "bold green")
        return Text.assemble(mark, shown(self.entry.detail))

    def action_decide(self, choice: ApprovalChoice) -> None:
        if not self.entry.open:
            return
        reason = self.reason.value.strip() if self.reason is not None else ""
        self.post_message(self.Decided(self.query_id, choice, reason if choice == "reject" else ""))

    def action_leave(self) -> None:
        self.post_message(self.Left())

    def action_reason(self) -> None:
        if self.reason is not None:
            self.reason.display = True
            self.reason.focus()

    def hide_reason(self) -> None:
        """Back to the choices: the reason box goes (what was typed stays for next time, and
        3 shows it again); hidden, it no longer takes keys typed elsewhere."""
        if self.reason is not None:
            self.screen.set_focus(self)
            self.reason.display = False

    def reason_waiting(self) -> ReasonInput | None:
        """The reason box, while it is shown and waits for the person's words."""
        reason = self.reason
        return reason if reason is not None and reason.display and self.entry.open else None

    def on_key(self, event: events.Key) -> None:
        # Printable keys that reach the block itself (not its reason box) are not the app's
        # commands: a word typed here must not cancel or delete anything.
        if event.is_printable and event.key not in ("1", "2", "3"):
            event.stop()
            event.prevent_default()
            self.action_explain_keys()

    def action_explain_keys(self) -> None:
        if self._hinted or not self.entry.open:
            return
        self._hinted = True
        self.notify(
            "1 allows once, 2 always allows, 3 rejects with a reason (esc leaves it waiting).",
            title="Approval",
            timeout=4,
        )

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        match event.button.id:
            case "reject":
                self.action_reason()  # the reason first, as with the key
            case "once" | "always" as choice:
                self.action_decide(choice)

    @on(Composer.Submitted)
    def _reason_submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        self.action_decide("reject")


def block_type(entry: Entry) -> type[EntryBlock]:
    """The kind of block that shows `entry`."""
    if entry.kind == "steer":
        return SteerBlock
    if entry.kind == "text":
        return AnswerBlock
    if entry.kind in ("thinking", "tool"):
        return FoldBlock
    if entry.kind == "question":
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
    if issubclass(kind, QueryBlock):
        return kind(entry, agent_label, drafts, read_only=read_only)
    return kind(entry, agent_label)
