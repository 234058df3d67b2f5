"""Two agents' steps side by side, one row per aligned pair (core/session/run_diff.py's
`AgentDiff.pairs`): a mark, then each side's step number, kind and one-line summary.

The mark says what `agentui diff` says: `▶` the first pair that differs, `≠` a later one, `=`
the same work. Each side is a column half the row wide; a summary longer than its column ends
in `…` (Rich clips it, at whatever width the row has). Every summary is a model's, a tool's or
a person's words: shown through terminal_text's `visible_controls`, as Text, never markup.
"""

from __future__ import annotations

from rich.console import RenderableType
from rich.table import Table
from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agentui.core.session.run_diff import AgentDiff, StepPair
from agentui.core.session.run_outline import StepContent
from agentui.core.support.terminal_text import visible_controls

FIRST_DIFFERENCE = "▶"
DIFFERENCE = "≠"
SAME = "="


def side_by_side(mark: Text, left: Text, right: Text) -> Table:
    """One row: the mark, then two columns of equal width, each cut to one line with `…`."""
    row = Table.grid(expand=True, padding=(0, 1, 0, 0))
    row.add_column(width=1, no_wrap=True)
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    row.add_row(mark, left, right)
    return row


def step_side(step: StepContent | None) -> Text:
    """`#4  model   the answer's first words`, or that this side has no such step."""
    if step is None:
        return Text("(no such step)", style="dim italic")
    side = Text(f"#{step.number:<3} ", style="bold")
    side.append(f"{step.kind:<7}", style="italic")
    side.append(visible_controls(step.summary))
    return side


def pair_row(pair: StepPair, first: bool) -> RenderableType:
    """A pair as a row; `first`: the pair where the two agents part."""
    if pair.same:
        left, right = step_side(pair.a), step_side(pair.b)
        left.stylize("dim")
        right.stylize("dim")
        return side_by_side(Text(SAME, style="dim"), left, right)
    mark = Text(FIRST_DIFFERENCE if first else DIFFERENCE, style="bold")
    return side_by_side(mark, step_side(pair.a), step_side(pair.b))


class StepPairs(OptionList):
    """The aligned steps of two agents; the first difference highlighted and scrolled to."""

    def on_resize(self) -> None:
        # The heads above it grow when the comparison arrives, and the list shrinks: the
        # highlighted pair (the first divergence, or the person's) stays in view.
        self.call_after_refresh(self.scroll_to_highlight)

    def show(self, diff: AgentDiff) -> None:
        self.clear_options()
        self.add_options(
            Option(pair_row(pair, index == diff.diverges_at), id=str(index))
            for index, pair in enumerate(diff.pairs)
        )
        if diff.diverges_at is not None:
            self.highlighted = diff.diverges_at
            # Its rows have no height until they are laid out: scrolled to once they are.
            self.call_after_refresh(self.scroll_to_highlight)
        elif diff.pairs:
            self.highlighted = 0
