"""The transcript's blocks that wait on the person: a question's answer box and an approval's
choices, settled in place (blocks.py has the others).

Apart from blocks.py so that a first frame with no question or approval in it (a new app's, most
resumed sessions') does not make their widget classes (~4 ms, with what they import). They load
with the first such entry; until then no widget can be one (block_checks.py asks so).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Button, Static, TextArea

from agentui.core.agent.approval import ApprovalChoice
from agentui.core.scene.round_question import EMPTY_IS_AN_ANSWER, answer_of
from agentui.core.support.terminal_text import visible_controls as shown
from agentui.tui.app.keymap import VIEW_KEYS, shadowing
from agentui.tui.app.widgets.blocks import EntryBlock
from agentui.tui.app.widgets.composer import Composer
from agentui.tui.app.widgets.fitted_line import Piece, fit_line
from agentui.tui.app.widgets.search_highlight import mark_text

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import TranscriptItem as Entry


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
