"""Two directed scenes' rounds side by side, one row per round (core/session/run_diff.py's
`RunDiff.rounds`, paired by number as `agentui diff` pairs them): a mark, then each side's
round number, how it ended, the person's input and who acted.

The marks are `agentui diff`'s: `▶` the first round that differs, `≠` a later one, `=` a round
played the same. Each side is a column half the row wide, cut with `…` (step_pairs.SideBySide
draws both). A round's input and the characters' names are a person's or a model's words:
shown through terminal_text's `visible_controls`, as Text, never markup.
"""

from __future__ import annotations

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agentui.core.session.run_diff import RoundPair
from agentui.core.session.run_outline import RoundOutline
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.widgets.step_pairs import DIFFERENCE, FIRST_DIFFERENCE, SAME, SideBySide

MAX_ROWS = 300  # each row is measured when filled (step_pairs.py): the rest is said in one row


def round_side(played: RoundOutline | None, number: int) -> Text:
    """`r2  closed  the person's input · Mara, Tomas`, or that this side has no such round."""
    if played is None:
        return Text(f"(no round {number})", style="dim italic")
    side = Text(f"r{played.number:<3} ", style="bold")
    side.append(f"{played.ended or '…':<7} ", style="italic")
    side.append(visible_controls(" ".join(played.text.split())) or "(no input)")
    names = ", ".join(name for name, _, _ in played.acted) or "nobody acted"
    side.append(f" · {visible_controls(names)}", style="dim")
    return side


def round_detail(label: str, played: RoundOutline | None, number: int) -> Text:
    """One line of what a round held, whole where the row clipped it: the input, then each
    character's turn (how it ended, what it said)."""
    line = Text(f"{label} ", style="bold")
    if played is None:
        line.append(f"(no round {number})", style="dim italic")
        return line
    line.append(f"round {played.number} {played.ended or '…'}: ", style="italic")
    parts = [played.text or "(no input)"]
    parts += [f"{name} ({ended}): {text}" for name, ended, text in played.acted]
    line.append(visible_controls(" · ".join(" ".join(part.split()) for part in parts)))
    return line


def round_number(pair: RoundPair) -> int:
    played = pair.a or pair.b
    return played.number if played is not None else 0


def round_row(pair: RoundPair, first: bool) -> SideBySide:
    number = round_number(pair)
    left, right = round_side(pair.a, number), round_side(pair.b, number)
    if pair.same:
        left.stylize("dim")
        right.stylize("dim")
        return SideBySide(Text(SAME, style="dim"), left, right)
    mark = Text(FIRST_DIFFERENCE if first else DIFFERENCE, style="bold")
    return SideBySide(mark, left, right)


class RoundPairs(OptionList):
    """The rounds of two scenes; the first that differs highlighted and scrolled to."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._pairs: list[RoundPair] = []

    def on_resize(self) -> None:
        # The lines above it fill in when the comparison arrives: the highlight stays in view.
        self.call_after_refresh(self.scroll_to_highlight)

    def pair_at(self, index: int | None) -> RoundPair | None:
        if index is None or not 0 <= index < len(self._pairs):
            return None
        return self._pairs[index]

    def show(self, rounds: list[RoundPair], diverges_at: int | None) -> None:
        self._pairs = rounds[: MAX_ROWS - 1] if len(rounds) > MAX_ROWS else list(rounds)
        rows = [round_row(pair, index == diverges_at) for index, pair in enumerate(self._pairs)]
        self.clear_options()
        self.add_options(Option(row) for row in rows)
        if len(rounds) > len(self._pairs):
            left = len(rounds) - len(self._pairs)
            said = Text(f"… {left:,} more rounds (agentui diff --json has them all)")
            self.add_option(Option(SideBySide(Text(" "), said, Text(""))))
        if diverges_at is not None and diverges_at < len(self._pairs):
            self.highlighted = diverges_at
            self.call_after_refresh(self.scroll_to_highlight)
        elif rows:
            self.highlighted = 0
