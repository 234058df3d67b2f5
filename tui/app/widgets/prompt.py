"""The prompt at the bottom: a follow-up for the task that runs, a new task, a steer for one
agent, or a message that continues an ended one. A label in front of the box says which, so the
person always knows where enter sends the words.

While a task runs the prompt addresses its root (its label: "main"): words typed then are for that task,
as in other agent terminals, never a second task started by accident. A new task beside it is
asked for on purpose (ctrl+t, `n` on the panes, the palette); once every root has ended the
prompt starts new tasks again (its label: "task")."""

from __future__ import annotations

from typing import Any, ClassVar, Literal, NamedTuple

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from agentui.tui.app.widgets.composer import NEWLINE_HINT, Composer, Draft

# task: a new root agent; follow_up: a message for the root that runs (the default while one
# does); steer / continue: a message for one agent, asked for with s or r.
PromptKind = Literal["task", "follow_up", "steer", "continue"]
CONTINUE_DEFAULT = "Continue where you left off."


class PromptMode(NamedTuple):  # made before the first frame: see first_frame.py
    kind: PromptKind = "task"
    agent_id: str | None = None  # the agent a follow-up, steer or continue is for
    agent_name: str = ""
    # A new task asked for while a root runs (ctrl+t): it stays one until sent or left.
    chosen: bool = False
    # A follow-up for a root agentui runs itself (a scene): the words answer its question.
    driven: bool = False

    @property
    def is_default(self) -> bool:
        """What the prompt is when nobody asked for anything else: it follows the runs."""
        return self.kind == "follow_up" or (self.kind == "task" and not self.chosen)

    @property
    def for_one_agent(self) -> bool:
        """A steer or continue, asked for with s or r: the words are that agent's."""
        return self.kind in ("steer", "continue")

    @property
    def label(self) -> Text:
        if self.kind == "task":
            return Text("new task ›" if self.chosen else "task ›", style="bold")
        if self.kind == "follow_up":
            return Text.assemble((self.agent_name or "starting", "bold reverse"), " ›")
        verb = "steer" if self.kind == "steer" else "continue"
        return Text.assemble((f"{verb} ", "bold"), (self.agent_name, "bold reverse"), " ›")

    @property
    def placeholder(self) -> str:
        return self.placeholders[0]

    @property
    def placeholders(self) -> tuple[str, ...]:
        """What the empty box says, longest first: a narrow box shows the longest that fits
        (each is whole; what enter does stays longest)."""
        if self.kind == "steer":
            call = f"Message for {self.agent_name}'s next model call"
            return (
                f"{call} · enter sends · {NEWLINE_HINT} · esc leaves",
                f"{call} · enter sends · esc leaves",
                f"{call} · enter sends",
                call,
            )
        if self.kind == "follow_up":
            if not self.agent_name:
                waits = "Your task is starting: words for it are sent once it shows"
                return (f"{waits} · ctrl+t new task", waits, "Your task is starting")
            reads = (
                f"For {self.agent_name}: your words answer its question"
                if self.driven
                else f"For {self.agent_name}: read with its next model call"
            )
            return (
                f"{reads} · enter sends · ctrl+t new task · {NEWLINE_HINT} · esc agents",
                f"{reads} · enter sends · ctrl+t new task · esc agents",
                f"{reads} · enter sends · ctrl+t new task",
                f"{reads} · enter sends",
                reads,
            )
        if self.kind == "task" and self.chosen:
            beside = "A new task, beside the ones running"
            return (
                f"{beside} · enter starts it · {NEWLINE_HINT} · esc back",
                f"{beside} · enter starts it · esc back",
                f"{beside} · enter starts it",
                beside,
            )
        if self.kind == "continue":
            continues = f"Message that continues {self.agent_name}"
            return (
                f"{continues} · enter sends (empty: {CONTINUE_DEFAULT!r}) · esc leaves",
                f"{continues} · enter sends · esc leaves",
                f"{continues} · enter sends",
                continues,
            )
        ask = "What should the agents do?"
        return (
            f"{ask} · enter starts a new task · {NEWLINE_HINT} · ctrl+q quits",
            # How to quit outlasts the newline key on the start screen (the footer has both).
            f"{ask} · enter starts a new task · ctrl+q quits",
            f"{ask} · enter starts a new task",
            ask,
        )

    def placeholder_for(self, width: int) -> str:
        fitting = (text for text in self.placeholders if cell_len(text) <= width)
        return next(fitting, self.placeholders[-1])


class PromptBox(Composer):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape", "screen.leave_prompt", "Back"),  # the main screen's
        Binding("ctrl+t", "app.new_task", "New task", id="new_task_anywhere"),  # remappable
    ]
    SETTLES_SENDS = True  # the app settles each (see Composer.settle_sent)


class PromptBar(Horizontal):
    DEFAULT_CSS = """
    PromptBar { height: auto; }
    PromptBar > #prompt-label { width: auto; padding: 0 1 0 0; }
    PromptBar > PromptBox { width: 1fr; }
    """

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.mode = PromptMode()
        # The unsent task, kept while the prompt steers or continues an agent.
        self._task_draft: Draft | None = None
        # Messages left with esc, by agent: back the next time the prompt points at it.
        self._agent_drafts: dict[str, Draft] = {}
        self.label = Static(self.mode.label, id="prompt-label")
        self.box = PromptBox(placeholder=self.mode.placeholder, id="prompt")

    def compose(self) -> ComposeResult:
        yield self.label
        yield self.box

    def on_resize(self) -> None:
        self._fit_placeholder()

    def _fit_placeholder(self) -> None:
        """The box's room, from the bar's width and the label's as it will be now (the box
        itself is laid out only after a new label is); before the first layout, the longest."""
        width = self.content_size.width
        label = self.mode.label.cell_len + 1  # its right padding
        room = width - label - 1  # the cursor's cell after the text
        self.box.placeholder = self.mode.placeholder_for(room) if width else self.mode.placeholder

    def retarget(self, mode: PromptMode) -> None:
        """Address the words to `mode` as they are: what is typed stays where it is (a root
        started or ended while the person was writing)."""
        shown, label = self.mode.label, mode.label
        self.mode = mode
        if label != shown:
            # The label follows the selected agent's root (each arrow key on the tree): a
            # layout of the whole screen only when its width changes, else only it is drawn.
            self.label.update(label, layout=label.cell_len != shown.cell_len)
        self._fit_placeholder()

    def keep_agent_message(self) -> bool:
        """esc from a steer or continue: the words wait for the next message to that agent
        (True when there were words to keep)."""
        agent_id = self.mode.agent_id
        if not self.mode.for_one_agent or agent_id is None or not self.box.text.strip():
            return False
        self._agent_drafts[agent_id] = self.box.take_draft()
        return True

    def set_mode(self, mode: PromptMode, text: str | None = None) -> None:
        """Point the prompt at a new task, or at one agent; `text` replaces what is typed.

        A task being written is kept while the prompt points at an agent, and is back when it
        returns to new tasks with nothing to type in its place (`text` empty)."""
        if not self.mode.for_one_agent and mode.for_one_agent and self.box.text.strip():
            self._task_draft = self.box.take_draft()
        self.retarget(mode)
        kept = (
            self._agent_drafts.pop(mode.agent_id, None)
            if mode.agent_id and not text and mode.for_one_agent
            else None
        )
        if not mode.for_one_agent and not text and self._task_draft is not None:
            self.box.put_draft(self._task_draft)
            self._task_draft = None
        elif kept is not None:
            self.box.put_draft(kept)
        elif text is not None:
            self.box.clear()
            self.box.insert(text)
