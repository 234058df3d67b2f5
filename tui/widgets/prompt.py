"""The prompt at the bottom: a new task, a steer for a running agent, or a message that
continues an ended one. A label in front of the box says which, so the person always knows
where enter sends the words."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from rich.cells import cell_len
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Static

from .composer import NEWLINE_HINT, Composer, Draft

PromptKind = Literal["task", "steer", "continue"]
CONTINUE_DEFAULT = "Continue where you left off."


@dataclass(frozen=True, slots=True)
class PromptMode:
    kind: PromptKind = "task"
    agent_id: str | None = None  # the agent a steer or continue is for
    agent_name: str = ""

    @property
    def label(self) -> Text:
        if self.kind == "task":
            return Text("task ›", style="bold")
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
        Binding("escape", "app.leave_prompt", "Back"),
    ]
    SETTLES_SENDS = True  # the app settles each (see Composer.settle_sent)


class PromptBar(Horizontal):
    DEFAULT_CSS = """
    PromptBar { height: auto; }
    PromptBar > #prompt-label { width: auto; padding: 0 1 0 0; }
    PromptBar > PromptBox { width: 1fr; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
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

    def keep_agent_message(self) -> bool:
        """esc from a steer or continue: the words wait for the next message to that agent
        (True when there were words to keep)."""
        agent_id = self.mode.agent_id
        if self.mode.kind == "task" or agent_id is None or not self.box.text.strip():
            return False
        self._agent_drafts[agent_id] = self.box.take_draft()
        return True

    def set_mode(self, mode: PromptMode, text: str | None = None) -> None:
        """Point the prompt at a new task, or at one agent; `text` replaces what is typed.

        A task being written is kept while the prompt points at an agent, and is back when it
        returns to new tasks with nothing to type in its place (`text` empty)."""
        if self.mode.kind == "task" and mode.kind != "task" and self.box.text.strip():
            self._task_draft = self.box.take_draft()
        self.mode = mode
        self.label.update(mode.label)
        self._fit_placeholder()
        kept = self._agent_drafts.pop(mode.agent_id, None) if mode.agent_id and not text else None
        if mode.kind == "task" and not text and self._task_draft is not None:
            self.box.put_draft(self._task_draft)
            self._task_draft = None
        elif kept is not None:
            self.box.put_draft(kept)
        elif text is not None:
            self.box.clear()
            self.box.insert(text)
