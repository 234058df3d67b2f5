"""Two agents' steps side by side, one row per aligned pair (core/session/run_diff.py's
`AgentDiff.pairs`): a mark, then each side's step number, kind and one-line summary.

The mark says what `agentui diff` says: `▶` the first pair that differs, `≠` a later one, `=`
the same work. Each side is a column half the row wide; a summary longer than its column ends
in `…` (Rich's `Text.truncate`, at whatever width the row has when drawn). Every summary is a
model's, a tool's or a person's words: shown through terminal_text's `visible_controls`, as
Text, never markup.

A list measures every row when filled (Textual's OptionList), which adds up: past
MAX_ROWS pairs, a run of more than RUN_OF_SAME pairs of the same work is one row, and the list
ends at MAX_ROWS rows with a row that says how many steps are left out (`agentui diff --json`
has them all). Below it, every pair is a row.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.console import Console, ConsoleOptions, RenderResult
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agentui.core.session.run_diff import AgentDiff, StepPair
from agentui.core.session.run_outline import StepContent
from agentui.core.support.terminal_text import visible_controls

FIRST_DIFFERENCE = "▶"
DIFFERENCE = "≠"
SAME = "="
MAX_ROWS = 300
RUN_OF_SAME = 3  # past MAX_ROWS pairs, longer runs of the same work are one row


@dataclass(frozen=True, slots=True)
class SideBySide:
    """One line: the mark, then two columns of equal width, each cut with `…` to fit."""

    mark: Text
    left: Text
    right: Text
    pair: StepPair | None = None  # None: a run of the same work, or what is left out

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        width = options.max_width
        columns = max(2, width - len(self.mark) - 2)  # a space after the mark and between
        halves = (columns // 2, columns - columns // 2)
        sides = []
        for side, room in zip((self.left, self.right), halves, strict=True):
            cut = side.copy()
            cut.truncate(room, overflow="ellipsis", pad=True)
            sides.append(cut)
        yield Text.assemble(self.mark, " ", sides[0], " ", sides[1], no_wrap=True)


def step_side(step: StepContent | None) -> Text:
    """`#4  model   the answer's first words`, or that this side has no such step."""
    if step is None:
        return Text("(no such step)", style="dim italic")
    side = Text(f"#{step.number:<3} ", style="bold")
    side.append(f"{step.kind:<7}", style="italic")
    side.append(visible_controls(step.summary))
    return side


def pair_row(pair: StepPair, first: bool) -> SideBySide:
    """A pair as a row; `first`: the pair where the two agents part."""
    if pair.same:
        left, right = step_side(pair.a), step_side(pair.b)
        left.stylize("dim")
        right.stylize("dim")
        return SideBySide(Text(SAME, style="dim"), left, right, pair)
    mark = Text(FIRST_DIFFERENCE if first else DIFFERENCE, style="bold")
    return SideBySide(mark, step_side(pair.a), step_side(pair.b), pair)


def run_row(run: list[StepPair]) -> SideBySide:
    """A run of pairs of the same work, as one row: `#2-16 the same (15 steps)` each side."""
    sides = []
    for steps in ([p.a for p in run], [p.b for p in run]):
        first, last = steps[0], steps[-1]
        span = f"#{first.number}–{last.number}" if first and last else ""
        sides.append(Text(f"{span} the same work ({len(run):,} steps)", style="dim"))
    return SideBySide(Text(SAME, style="dim"), sides[0], sides[1])


def rows_of(diff: AgentDiff) -> tuple[list[SideBySide], int | None]:
    """The rows for the pairs, and the row of the first difference (None: none differs)."""
    pairs = diff.pairs
    if len(pairs) <= MAX_ROWS:
        rows = [pair_row(pair, index == diff.diverges_at) for index, pair in enumerate(pairs)]
        return rows, diff.diverges_at
    rows = []
    first_row = None
    index = 0
    while index < len(pairs) and len(rows) < MAX_ROWS - 1:
        end = index
        while end < len(pairs) and pairs[end].same:
            end += 1
        if end - index > RUN_OF_SAME:
            rows.append(run_row(pairs[index:end]))
            index = end
            continue
        if index == diff.diverges_at:
            first_row = len(rows)
        rows.append(pair_row(pairs[index], index == diff.diverges_at))
        index += 1
    if index < len(pairs):
        left = len(pairs) - index
        said = Text(f"… {left:,} more steps (agentui diff --json has them all)", style="italic")
        rows.append(SideBySide(Text(" "), said, Text("")))
    return rows, first_row


class StepPairs(OptionList):
    """The aligned steps of two agents; the first difference highlighted and scrolled to."""

    def on_resize(self) -> None:
        # The heads above it grow when the comparison arrives, and the list shrinks: the
        # highlighted pair (the first divergence, or the person's) stays in view.
        self.call_after_refresh(self.scroll_to_highlight)

    def pair_at(self, index: int | None) -> StepPair | None:
        """The pair the row `index` shows (None: a row of many, or none)."""
        if index is None or not 0 <= index < self.option_count:
            return None
        row = self.get_option_at_index(index).prompt
        return row.pair if isinstance(row, SideBySide) else None

    def show(self, diff: AgentDiff) -> None:
        rows, first = rows_of(diff)
        self.clear_options()
        self.add_options(Option(row) for row in rows)
        if first is not None:
            self.highlighted = first
            # Its rows have no height until they are laid out: scrolled to once they are.
            self.call_after_refresh(self.scroll_to_highlight)
        elif rows:
            self.highlighted = 0
