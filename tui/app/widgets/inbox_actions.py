"""What can be done for the inbox's highlighted row, under the list: the row's words whole, and
its buttons and text box.

- a question: an answer box (enter sends; empty declines, or, for a scene's round question,
  lets the scene go on: core/scene/round_question.answer_of); asked by several siblings in the
  same words, the person chooses whom the answer is for: all of them, or one;
- an approval: 1 allow once, 2 always allow the tool, 3 reject with a reason (a box);
- a budget stop: 1 raise the budget (its window), 2 continue once, or cancel the subtree;
- a stalled agent: 1 steer it (a box), or cancel it;
- a steer not read: 1 resume the paused agent (it reads it), or 1 continue the ended one with
  a message (a box; the steer goes with it);
- every row: go to its agent in the main screen.

A digit names a button only where the button says it; cancelling has no digit (a digit can be
typed by accident; a button is chosen). enter on a row never lands on a button that decides
(an approval's, a cancel): an approval is decided by its digits or a click, as inline
(query_blocks.ApprovalBlock), so two enters decide nothing. A button the table (`allowed`) does not
hold for the agent now is greyed out. The pane says what was chosen (Chosen); the screen gives
the command.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.message import Message
from textual.widgets import Button, Select, Static, TextArea

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.protocol.commands import Command
from agentui.core.scene.round_question import EMPTY_IS_AN_ANSWER, answer_of
from agentui.core.support.terminal_text import clipped
from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.widgets.composer import Composer
from agentui.tui.app.widgets.inbox_rows import clock_time

if TYPE_CHECKING:
    from agentui.core.state.inbox import InboxRow

ALL_ASKERS = "all"  # the answer target of a grouped question: every asker
TOOL_CHARS = 24  # a tool's name on its button (the words above say it whole): fits 80 columns
# Buttons that decide for the row at a press (a tool runs or not, agents are cancelled): enter on
# a row never puts the cursor on one, so no stray enter presses it.
DECIDING_BUTTONS = frozenset({"once", "always", "reject", "cancel"})


@dataclass(frozen=True, slots=True)
class RowFacts:
    """What the pane needs besides the row: the agents' names, the row's agent's status, the
    commands the table holds for it now."""

    names: Mapping[str, str]
    status: AgentStatus
    table: frozenset[Command]

    def name(self, agent_id: str) -> str:
        return shown(self.names.get(agent_id, agent_id))


class InboxBox(Composer):
    """A text box of the inbox (an answer, a reason, a steer, a continue): enter sends, esc
    goes back to the rows."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "back", "Back to the rows")]

    class Left(Message):
        """esc in a box: back to the rows; the words stay for when the row is chosen again."""

    def action_back(self) -> None:
        self.post_message(self.Left())


class RowActions(Vertical):
    """The highlighted row's words and what can be done for it."""

    DEFAULT_CSS = """
    RowActions { height: auto; }
    RowActions #words { height: auto; max-height: 8; }
    RowActions .row-buttons { height: auto; margin-top: 1; }
    RowActions .row-buttons Button { width: auto; min-width: 0; margin-right: 1; }
    RowActions InboxBox { margin-top: 1; }
    RowActions Select { width: 40; margin-top: 1; }
    """

    class Chosen(Message):
        """The person chose `action` for `row`: "answer" (text None declines, "" answers a
        scene's round question with nothing: see round_question.answer_of; `target` is
        ALL_ASKERS or one asker's query id), "approve" (`choice` once, always or reject, `text`
        the reason), "raise", "continue_once", "cancel", "steer", "resume", "continue" (`text`
        the message), "goto"."""

        def __init__(
            self,
            row: InboxRow,
            action: str,
            *,
            choice: str = "",
            text: str | None = None,
            target: str = ALL_ASKERS,
        ) -> None:
            super().__init__()
            self.row = row
            self.action = action
            self.choice = choice
            self.text = text
            self.target = target

    def __init__(self, row: InboxRow, facts: RowFacts, drafts: dict[str, str]) -> None:
        super().__init__()
        self.row = row
        self.facts = facts
        self.drafts = drafts  # row id:box -> words typed, kept while the app runs

    # -- drawing -------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        row, facts = self.row, self.facts
        with VerticalScroll(id="words"):
            yield Static(self._words(), id="row-words")
        if row.kind == "question" and len(row.query_ids) > 1:
            # Text, not str: a Select reads a str prompt as markup, and agents name themselves.
            options = [(Text(f"all {len(row.query_ids)} askers"), ALL_ASKERS)] + [
                (Text(f"only {facts.name(agent_id)}"), query_id)
                for agent_id, query_id in zip(row.agent_ids, row.query_ids, strict=True)
            ]
            yield Select(options, value=ALL_ASKERS, allow_blank=False, compact=True, id="target")
        box = self._box()
        if box is not None:
            yield box
        with Horizontal(classes="row-buttons"):
            yield from self._buttons()

    def _words(self) -> Text:
        row, facts = self.row, self.facts
        path = shown(row.path)
        text = Text()
        match row.kind:
            case "question":
                if len(row.agent_ids) > 1:
                    askers = ", ".join(facts.name(agent_id) for agent_id in row.agent_ids)
                    text.append(f"{len(row.agent_ids)} agents ask ({askers}):\n", style="bold")
                else:
                    text.append(f"{path} asks:\n", style="bold")
                text.append(shown(row.text))
            case "approval":
                text.append(f"{path} wants to run {shown(row.tool or 'a tool')}:\n", style="bold")
                # The approval's own words: the call whole (code as code) and, for python, what
                # its sandbox blocks here. Never cut: approving what one cannot see is no approval.
                text.append(shown(row.text))
            case "budget":
                text.append(f"{path}: its budget stopped its subtree\n", style="bold")
                text.append(shown(row.text))
                text.append("\nraise the budget, continue once, or cancel", style="dim")
            case "stalled":
                text.append(
                    f"{path} has said nothing since {clock_time(row.since)}\n", style="bold"
                )
                text.append("it may be stuck, or thinking long: steer it, cancel it, or wait")
            case "steer":
                text.append(f"Your steer to {path}, not read yet ({facts.status}):\n", style="bold")
                text.append(shown(row.text))
        return text

    def _box(self) -> InboxBox | None:
        """The row's text box: the answer's is shown at once; the others when their button
        is chosen."""
        row, facts = self.row, self.facts
        empty = "goes on" if row.query_kind in EMPTY_IS_AN_ANSWER else "declines"
        placeholders = {
            "answer": f"your answer · enter sends (empty: {empty}) · esc back",
            "reason": "why? · enter rejects · esc back",
            "steer": "a message for its next model call · enter sends · esc back",
            "continue": "a message to continue it with (your steer goes too) · enter sends",
        }
        name = {"question": "answer", "approval": "reason", "stalled": "steer"}.get(row.kind)
        if row.kind == "steer" and facts.status is not AgentStatus.PAUSED:
            name = "continue"
        if name is None:
            return None
        box = InboxBox(
            self.drafts.get(f"{row.id}:{name}", ""), placeholder=placeholders[name], id=name
        )
        box.display = name == "answer"
        box.disabled = Command.ANSWER not in facts.table if name == "answer" else False
        return box

    def _buttons(self) -> list[Button]:
        row, table = self.row, self.facts.table
        # (id, label, the command it gives, variant)
        specs: list[tuple[str, str, Command | None, str]] = []
        match row.kind:
            case "approval":
                tool = clipped(shown(row.tool or "the tool"), TOOL_CHARS)
                specs += [
                    ("once", "1 Allow once", Command.APPROVE, "success"),
                    ("always", f"2 Always allow {tool}", Command.APPROVE, "primary"),
                    ("reject", "3 Reject…", Command.APPROVE, "error"),  # then its reason
                ]
            case "budget":
                specs += [
                    ("raise", "1 Raise the budget…", Command.BUDGET, "primary"),
                    ("continue_once", "2 Continue once", Command.PAST_BUDGET, "default"),
                    ("cancel", "Cancel the subtree", Command.CANCEL, "error"),
                ]
            case "stalled":
                specs += [
                    ("steer", "1 Steer…", Command.STEER, "primary"),
                    ("cancel", "Cancel it", Command.CANCEL, "error"),
                ]
            case "steer" if self.facts.status is AgentStatus.PAUSED:
                specs.append(("resume", "1 Resume (it reads the steer)", Command.RESUME, "primary"))
            case "steer":
                specs.append(("continue", "1 Continue…", Command.CONTINUE, "primary"))
        specs.append(("goto", "Go to it", None, "default"))
        return [
            Button(
                Content(label),  # Content: a tool's name stays literal
                id=button_id,
                variant=variant,  # type: ignore[arg-type]
                compact=True,
                disabled=command is not None and command not in table,
            )
            for button_id, label, command, variant in specs
        ]

    # -- what the person does ------------------------------------------------------------

    def numbered(self, digit: str) -> Button | None:
        """The enabled button whose label starts with `digit`, if the row has one."""
        for button in self.query(Button):
            if str(button.label).startswith(f"{digit} ") and not button.disabled:
                return button
        return None

    def box_waiting(self) -> InboxBox | None:
        """The row's text box while it is shown: typed keys go there."""
        for box in self.query(InboxBox):
            if box.display and not box.disabled:
                return box
        return None

    def first_control(self) -> Button | InboxBox | None:
        """Where enter on a row puts the cursor: its box that waits, else its first button that
        decides nothing at a press (an approval's lands on "Go to it")."""
        box = self.box_waiting()
        if box is not None:
            return box
        return next(
            (b for b in self.query(Button) if not b.disabled and b.id not in DECIDING_BUTTONS),
            None,
        )

    def _show_box(self, name: str) -> None:
        box = self.query_one(f"#{name}", InboxBox)
        box.display = True
        box.focus()

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        event.stop()
        row = self.row
        match event.button.id:
            case "once" | "always" as choice:
                self.post_message(self.Chosen(row, "approve", choice=choice))
            case "reject":
                self._show_box("reason")  # the reason first, as in the transcript
            case "steer":
                self._show_box("steer")
            case "continue":
                self._show_box("continue")
            case str(action):
                self.post_message(self.Chosen(row, action))

    @on(Composer.Submitted)
    def _submitted(self, event: Composer.Submitted) -> None:
        event.stop()
        row, words = self.row, event.text.strip()
        match event.composer.id:
            case "answer":
                target = self.query_one("#target", Select).value if len(row.query_ids) > 1 else ""
                answer = answer_of(row.query_kind, words)  # None declines
                self.post_message(
                    self.Chosen(row, "answer", text=answer, target=str(target or ALL_ASKERS))
                )
            case "reason":
                self.post_message(self.Chosen(row, "approve", choice="reject", text=words))
            case "steer" | "continue" as action:
                self.post_message(self.Chosen(row, action, text=words))

    @on(TextArea.Changed)
    def _keep_draft(self, event: TextArea.Changed) -> None:
        if isinstance(event.text_area, InboxBox):
            self.drafts[f"{self.row.id}:{event.text_area.id}"] = event.text_area.value
