"""Rewind or fork: the selected agent's steps, one picked, and what to do from it.

The list shows every step (its number, its kind, a line of what it was; those a rewind set
aside dimmed: they can be forked from, not rewound to); the step of the block the person chose in the transcript is highlighted first.
**Rewind here** asks first (what comes after is set aside, the subagents started after it are
cancelled), **Fork from here** starts a new root from that step, with the instructions typed in
the box when there are any. No letter acts here: the box takes words, the list and the buttons
take none, so a sentence typed by someone who did not see the window open changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar, Literal

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.screen import ModalScreen
from textual.widgets import Button, Footer, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from agentui.core.support.terminal_text import visible_controls

if TYPE_CHECKING:
    from agentui.core.agent.steps import Step


# A fork's window compares it with its origin (tui/app/agent_comparison.py); the button's
# word is short: four buttons share 80 columns.
COMPARE_TOOLTIP = "its steps beside its origin's, step by step, where they part marked"


@dataclass(frozen=True, slots=True)
class TimeTravelChoice:
    """What the person chose: rewind to `step`, or fork from it (with new instructions)."""

    kind: Literal["rewind", "fork"]
    step: int
    instructions: str | None = None


def step_row(step: Step) -> Text:
    """One row of the list: `#4  model   the answer's first words` (set aside: dimmed)."""
    row = Text(f"#{step.number:<3} ", style="bold")
    row.append(f"{step.kind:<7}", style="italic")
    row.append(visible_controls(step.summary))  # a model's or a tool's words
    if step.set_aside:
        row.append("  (set aside)")
        row.stylize("dim")
    return row


class TimeTravelScreen(ModalScreen[TimeTravelChoice | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "close", "Close", priority=True),
    ]

    def __init__(
        self,
        agent_name: str,
        steps: Sequence[Step],
        preselected: int | None,
        *,
        rewind_question: Callable[[int], str],
        can_rewind: bool = True,
    ) -> None:
        super().__init__(classes="time-travel")
        self._agent_name = visible_controls(agent_name)
        self._steps = list(steps)
        self._preselected = preselected
        # The confirmation's words for a step (what is set aside, which subagents stop).
        self._rewind_question = rewind_question
        self._can_rewind = can_rewind  # the table's REWIND: a fork may be all there is

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(
                Text(f"Rewind or fork {self._agent_name} from one of its steps", style="bold"),
                id="title",
            )
            yield OptionList(
                *(Option(step_row(step), id=str(step.number)) for step in self._steps),
                id="steps",
            )
            yield Label("Instructions for a fork (optional; empty keeps the agent's own)")
            yield TextArea("", id="instructions", soft_wrap=True)
            with Horizontal(id="buttons"):
                yield Button("Rewind here", variant="warning", id="rewind")
                yield Button("Fork from here", variant="primary", id="fork")
                yield Button("Cancel (esc)", id="cancel")
                if self._fork_and_origin() is not None:  # a fork: beside its origin
                    yield Button("Compare", id="compare", tooltip=COMPARE_TOOLTIP)
            yield Static(
                Text(
                    "↑↓ picks a step · tab moves to the box and the buttons · "
                    "letters here are words, never commands",
                    style="dim",
                ),
                id="hint",
            )
        yield Footer()

    def on_mount(self) -> None:
        steps = self.query_one("#steps", OptionList)
        numbers = [step.number for step in self._steps]
        if self._preselected in numbers:
            steps.highlighted = numbers.index(self._preselected)
        elif numbers:
            steps.highlighted = len(numbers) - 1
        steps.focus()
        self._step_highlighted()

    @on(OptionList.OptionHighlighted)
    def _step_highlighted(self) -> None:
        """A step a rewind set aside is not gone back to (its branch ended there): a fork
        starts a new root from it instead."""
        index = self.query_one("#steps", OptionList).highlighted
        aside = index is not None and self._steps[index].set_aside
        rewind = self.query_one("#rewind", Button)
        rewind.disabled = aside or not self._can_rewind
        rewind.tooltip = "set aside by a rewind: fork from it instead" if aside else None

    def picked(self) -> int | None:
        """The number of the step highlighted in the list."""
        steps = self.query_one("#steps", OptionList)
        index = steps.highlighted
        return self._steps[index].number if index is not None else None

    def _fork_and_origin(self) -> tuple[str, str] | None:
        """(this agent's id, its origin's) when it is a fork of an agent of this run: the
        window is the selected agent's (tui/app/rewind_fork.py)."""
        from agentui.tui.app.agent_comparison import fork_origin_here

        main = getattr(self.app, "main", None)
        fold = main.fold if main is not None else None
        agent = main.selected_agent() if main is not None else None
        if fold is None or agent is None or visible_controls(agent.name) != self._agent_name:
            return None
        origin = fork_origin_here(fold, agent)
        return (agent.id, origin.id) if origin is not None else None

    def _compare_with_origin(self) -> None:
        """The comparison over this window: esc comes back to the steps."""
        from agentui.tui.app.agent_comparison import open_comparison

        pair = self._fork_and_origin()
        if pair is not None:
            open_comparison(self.app, *pair, over=True)  # type: ignore[arg-type]

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        if event.button.id == "compare":
            self._compare_with_origin()
            return
        step = self.picked()
        if event.button.id == "cancel" or step is None:
            self.dismiss(None)
        elif event.button.id == "fork":
            words = self.query_one("#instructions", TextArea).text.strip()
            self.dismiss(TimeTravelChoice("fork", step, words or None))
        elif event.button.id == "rewind":
            self._ask_to_rewind(step)

    def _ask_to_rewind(self, step: int) -> None:
        from agentui.tui.app.screens.confirm import ConfirmScreen

        def answered(yes: bool | None) -> None:
            if yes:
                self.dismiss(TimeTravelChoice("rewind", step))

        # Over this window: its choice stays as it was when the answer is no.
        self.app.push_screen(
            ConfirmScreen(self._rewind_question(step), f"Rewind to #{step}", "Keep"), answered
        )

    def action_close(self) -> None:
        self.dismiss(None)
