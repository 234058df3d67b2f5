"""The finished chunks of a streamed answer, as one widget that lays out numbers, not widgets.

An answer of millions of characters is thousands of chunks of Markdown. One widget per chunk
made every frame lay out thousands of widgets, and kept each chunk's parsed Markdown and
rendered lines for good. Here each chunk is a record: where its text lies in the
entry's text and, per width, how many lines it takes. The widget is as tall as their sum;
drawing a line finds its chunk (bisect on the running sum) and renders that chunk alone, as a
Static would have drawn it, keeping the last few rendered (`KEPT`): what is off screen costs
its record, nothing more.

A chunk is measured when it is rendered (on screen) or when it freezes at the tail. At a width
it was never rendered at (a resize, an answer bound whole), its height is estimated from its
text and corrected the first time it is drawn; the line at the top of the pane stays there
across a resize (`_restore_top`).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from itertools import accumulate
from typing import TYPE_CHECKING

from textual.containers import ScrollableContainer
from textual.geometry import Region
from textual.strip import Strip
from textual.visual import Visual, visualize
from textual.widget import Widget

from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.textual_compat import forget_lines_drawn_outside, keep_tall
from agentui.tui.app.widgets.plain_answer import as_markdown
from agentui.tui.app.widgets.search_highlight import CURRENT, Highlight, Highlighted

if TYPE_CHECKING:
    import re

    from rich.console import RenderableType

KEPT = 8  # rendered chunks kept (about 8 x 66 lines at 120 columns: a dozen screens)
WIDTHS_KEPT = 3  # widths a chunk keeps its measured height at (a scroll bar comes and goes)


@dataclass(slots=True)
class FrozenChunk:
    """One finished chunk: `text[start:end]` of the entry, drawn as the Markdown
    `prefix + text[start:end] + suffix` (a code fence reopened before it, closed after it)."""

    start: int
    end: int
    prefix: str = ""
    suffix: str = ""
    newlines: int = 0  # in its text: the estimate of its height at a width never drawn at
    heights: dict[int, int] = field(default_factory=dict)  # width -> lines, as rendered

    def estimate(self, width: int) -> int:
        """Lines at `width` before it is rendered there: a line per source line, plus the
        wrapping of its characters."""
        return self.newlines + (self.end - self.start) // max(width, 1) + 1

    def measured(self, width: int, height: int) -> None:
        if width not in self.heights and len(self.heights) >= WIDTHS_KEPT:
            del self.heights[next(iter(self.heights))]
        self.heights[width] = height


class FrozenChunks(Widget):
    """The frozen chunks of an AnswerBlock, between its label and its live tail."""

    DEFAULT_CSS = "FrozenChunks { height: auto; }"

    def __init__(self, text_of: Callable[[int, int], str]) -> None:
        super().__init__(classes="answer-chunks")
        keep_tall(self)  # its height is the answer's, millions of lines: see keep_tall
        # `text_of(start, end)`: that part of the entry's text (the block is rebound to others)
        self._text_of = text_of
        self.chunks: list[FrozenChunk] = []
        self._laid_width = 0  # the width of the layout below (0: never laid out)
        self._chunk_heights: list[int] = []  # at _laid_width: measured, or estimated
        self._chunk_tops: list[int] = [0]  # running sum of _chunk_heights
        self._remeasured: set[int] = set()  # chunks rendered unlike their laid-out height
        # Lines rendered, and what `estimate` had said of the same chunks: the estimates of
        # the others are scaled by their ratio (prose wraps, code does not).
        self._lines_rendered = self._lines_estimated = 0
        # (chunk, width, its highlight, base style) -> its lines, newest last
        self._rendered: OrderedDict[tuple[object, ...], list[Strip]] = OrderedDict()
        self.highlight: Highlight | None = None
        self._counted_pattern: re.Pattern[str] | None = None
        self._match_counts: list[int] = []  # per chunk, of _counted_pattern
        self._matches_before: list[int] = [0]  # running sum of _match_counts
        # The line at the top of the pane, in chunk terms (chunk, line, its height, width),
        # as last drawn: kept there across a resize.
        self._top_line: tuple[int, int, int, int] | None = None

    # -- the records ---------------------------------------------------------------------

    def reset(self) -> None:
        """No chunks (the block shows another entry now)."""
        self.chunks.clear()
        self._rendered.clear()
        self._chunk_heights, self._chunk_tops = [], [0]
        self._remeasured.clear()
        self._match_counts, self._matches_before = [], [0]
        self._counted_pattern = None
        self._top_line = None
        self.refresh(layout=True)

    def extend(self, chunks: list[FrozenChunk], *, measure_last: int = 3) -> None:
        """Chunks frozen at the tail. The last `measure_last` are rendered at once (they are
        where the pane follows the stream); any others (a long answer bound whole) are
        estimated until drawn."""
        if not chunks:
            return
        for chunk in chunks:
            chunk.newlines = self._text_of(chunk.start, chunk.end).count("\n")
        first = len(self.chunks)
        self.chunks.extend(chunks)
        width = self._laid_width
        for index in range(first, len(self.chunks)):
            if width and index >= len(self.chunks) - measure_last:
                self._lines_of(index, width)  # measures it
            self._chunk_heights.append(self._height_at(index, width))
        self._chunk_tops = [0, *accumulate(self._chunk_heights)]
        if self.highlight is not None and len(self._match_counts) == first:
            self._match_counts.extend(
                self.highlight.count(self.markdown_of(i)) for i in range(first, len(self.chunks))
            )
            self._matches_before = [0, *accumulate(self._match_counts)]
        self.refresh(layout=True)

    def markdown_of(self, index: int) -> str:
        """The Markdown chunk `index` is drawn from, as shown (controls made visible)."""
        chunk = self.chunks[index]
        return shown(chunk.prefix + self._text_of(chunk.start, chunk.end) + chunk.suffix)

    # -- heights -------------------------------------------------------------------------

    def _height_at(self, index: int, width: int) -> int:
        chunk = self.chunks[index]
        height = chunk.heights.get(width)
        if height is not None:
            return height
        if not self._lines_estimated:
            return chunk.estimate(width)
        return max(1, chunk.estimate(width) * self._lines_rendered // self._lines_estimated)

    def get_content_height(self, container: object, viewport: object, width: int) -> int:
        if width != self._laid_width:
            self._lay_out(width)
        return self._chunk_tops[-1]

    def _lay_out(self, width: int) -> None:
        """Heights at a new width: those measured there before, estimates for the rest."""
        resized = self._laid_width != 0
        self._laid_width = width
        self._chunk_heights = [self._height_at(i, width) for i in range(len(self.chunks))]
        self._chunk_tops = [0, *accumulate(self._chunk_heights)]
        self._remeasured.clear()
        if resized and self._top_line is not None:
            self.call_after_refresh(self._restore_top, self._top_line)

    def _restore_top(self, top: tuple[int, int, int, int]) -> None:
        """After a resize: scroll the pane so the line that was at its top is there again
        (the same chunk, the same fraction of it: its lines wrap anew)."""
        index, line, height, _width = top
        pane = self._scroller()
        if pane is None or index >= len(self.chunks):
            return
        lines = self._lines_of(index, self._laid_width)
        self._apply_heights()
        target = self._chunk_tops[index] + min(len(lines) - 1, line * len(lines) // max(height, 1))
        self._scroll_pane_to(pane, target, center=False)

    def _apply_heights(self) -> None:
        """Take the heights measured since the layout where they differ from its estimates."""
        if not self._remeasured:
            return
        for index in self._remeasured:
            self._chunk_heights[index] = self._height_at(index, self._laid_width)
        self._remeasured.clear()
        self._chunk_tops = [0, *accumulate(self._chunk_heights)]
        self.refresh(layout=True)

    # -- drawing -------------------------------------------------------------------------

    def _highlight_of(self, index: int) -> Highlight | None:
        highlight = self.highlight
        counts = self._match_counts
        if highlight is None or index >= len(counts) or not counts[index]:
            return None
        return highlight.shifted(self._matches_before[index])

    def _lines_of(self, index: int, width: int) -> list[Strip]:
        """Chunk `index` rendered at `width` (with its search marks), as a Static draws it;
        its height there is recorded."""
        highlight = self._highlight_of(index)
        style = self.visual_style  # its colours (another theme draws it again)
        key = (index, width, highlight, style.rich_style)
        lines = self._rendered.get(key)
        if lines is not None:
            self._rendered.move_to_end(key)
            return lines
        drawn: RenderableType = as_markdown(self.markdown_of(index))  # plain: no rich.markdown
        if highlight is not None:
            drawn = Highlighted(drawn, highlight)
        lines = Visual.to_strips(self, visualize(self, drawn), width, None, style)
        chunk = self.chunks[index]
        if width not in chunk.heights:
            self._lines_rendered += len(lines)
            self._lines_estimated += chunk.estimate(width)
        chunk.measured(width, len(lines))
        laid_out = width == self._laid_width and index < len(self._chunk_heights)
        if laid_out and self._chunk_heights[index] != len(lines):
            self._remeasured.add(index)
        self._rendered[key] = lines
        if len(self._rendered) > KEPT:
            self._rendered.popitem(last=False)
        return lines

    def measure_lines(self, lines: int, top: int = 0) -> None:
        """Render the chunks that lines `top` to `top + lines` fall in, at the width laid out,
        down to that end as measured, and lay them out as rendered (a pane is about to show
        them: a transcript going to this answer measures its first screen before the frame
        that draws it, which then moves nothing below it)."""
        width = self._laid_width
        if not width or not self.chunks:
            return
        index = max(0, bisect_right(self._chunk_tops, top) - 1)
        while index < len(self.chunks) and self._chunk_tops[index] < top + lines:
            self._lines_of(index, width)
            self._apply_heights()
            index += 1

    def render_lines(self, crop: Region) -> list[Strip]:
        width = self._laid_width
        if width and self.chunks:
            # What is about to be drawn: the lines show right in this frame (the layout, next
            # frame, agrees), and what is above them does not move.
            self.measure_lines(crop.height, crop.y)
            self._top_line = None
            pane = self._scroller()
            # The line at the top of a pane read back (one at its end follows the stream).
            if crop.y > 0 and pane is not None and pane.scroll_y < pane.max_scroll_y - 1:
                index = max(0, bisect_right(self._chunk_tops, crop.y) - 1)
                if index < len(self.chunks):
                    top = self._chunk_tops[index]
                    self._top_line = (index, crop.y - top, self._chunk_heights[index], width)
        lines = super().render_lines(crop)
        keep_lines_near(self, crop)
        return lines

    def render_line(self, y: int) -> Strip:
        width = self._laid_width
        index = bisect_right(self._chunk_tops, y) - 1
        if width and 0 <= index < len(self.chunks):
            lines = self._lines_of(index, width)
            line = y - self._chunk_tops[index]
            if line < len(lines):
                return lines[line]
        return Strip.blank(self.size.width, self.visual_style.rich_style)

    # -- a search's marks ----------------------------------------------------------------

    def set_highlight(self, highlight: Highlight | None) -> None:
        """Mark a search's matches (None: none); counted once per pattern, per chunk."""
        self.highlight = highlight
        if highlight is not None:
            if highlight.pattern is not self._counted_pattern:
                self._counted_pattern = highlight.pattern
                self._match_counts = []
            # Chunks frozen while no search was open are counted now.
            counted = len(self._match_counts)
            if counted < len(self.chunks):
                self._match_counts += [
                    highlight.count(self.markdown_of(i)) for i in range(counted, len(self.chunks))
                ]
                self._matches_before = [0, *accumulate(self._match_counts)]
        self.refresh()

    def match_count(self) -> int:
        """The matches in every chunk (0 with no search)."""
        return self._matches_before[-1] if self.highlight is not None else 0

    def current_match_line(self) -> int | None:
        """The line (in this widget) of the match the search is at, if it is in a chunk."""
        highlight = self.highlight
        if highlight is None or highlight.current is None or not self._laid_width:
            return None
        if highlight.current >= self.match_count():
            return None
        index = bisect_right(self._matches_before, highlight.current) - 1
        lines = self._lines_of(index, self._laid_width)
        self._apply_heights()
        at = next((n for n, strip in enumerate(lines) if _holds_current(strip)), 0)
        return self._chunk_tops[index] + at

    def scroll_to_line(self, line: int) -> None:
        """Scroll the pane this is in so `line` of it is in the middle."""
        pane = self._scroller()
        if pane is not None:
            self._scroll_pane_to(pane, line, center=True)

    # -- the pane ------------------------------------------------------------------------

    def _scroller(self) -> ScrollableContainer | None:
        node = self.parent
        while isinstance(node, Widget):
            if isinstance(node, ScrollableContainer):
                return node
            node = node.parent
        return None

    def _scroll_pane_to(self, pane: ScrollableContainer, line: int, *, center: bool) -> None:
        """Scroll `pane` so this widget's `line` is at its top (or middle)."""
        view_top = pane.content_region.y
        screen_y = self.region.y + line
        offset = screen_y - view_top
        if center:
            offset -= pane.scrollable_content_region.height // 2
        pane.scroll_to(y=pane.scroll_y + offset, animate=False, immediate=True)


def keep_lines_near(widget: Widget, crop: Region) -> None:
    """Of the lines a tall widget drew, keep those about `crop`: a screen either side (a crop
    is what shows, or the one line under the mouse). Textual would keep every line drawn
    (textual_compat.forget_lines_drawn_outside)."""
    margin = max(crop.height, widget.app.size.height)
    forget_lines_drawn_outside(widget, range(max(0, crop.y - margin), crop.bottom + margin))


def _holds_current(strip: Strip) -> bool:
    """The line shows the match the search is at (the one marked CURRENT)."""
    return any(
        segment.style is not None and segment.style.bgcolor == CURRENT.bgcolor for segment in strip
    )
