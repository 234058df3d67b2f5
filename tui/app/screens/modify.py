"""The modify modal: edit an agent's instructions and task; ctrl+s applies, esc closes.

Edits closed with esc are not lost: they come back as a kept draft (the next m opens them),
and esc on a kept draft opened again, unchanged, discards it. An escape sequence split on a
slow link reads as esc: a person's typing must not vanish with it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, Label, Static, TextArea

from agentui.core.support.terminal_text import visible_controls


@dataclass(frozen=True, slots=True)
class Modification:
    instructions: str | None  # None: unchanged
    content: str | None


@dataclass(frozen=True, slots=True)
class KeptDraft:
    """Edits closed with esc, not applied: the window's texts as they were."""

    instructions: str
    content: str


# What the window gives back: apply, keep the edits for later, or nothing (no edits, or a kept
# draft discarded).
ModifyResult = Modification | KeptDraft | None


class ModifyScreen(ModalScreen[ModifyResult]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", priority=True),
        Binding("escape", "close", "Close", priority=True),
    ]

    def __init__(
        self, agent_name: str, instructions: str, content: str, draft: KeptDraft | None = None
    ) -> None:
        super().__init__(classes="modify")
        self._agent_name = agent_name
        # Shown (and compared) with control characters visible: a task may hold anything.
        self._instructions = visible_controls(instructions)
        self._content = visible_controls(content)
        self._draft = draft  # edits closed with esc before: the window opens with them

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(f"Modify {self._agent_name}", style="bold"), id="title")
            yield Label("Instructions (the system prompt)")
            yield TextArea(
                self._draft.instructions if self._draft else self._instructions,
                id="instructions",
                soft_wrap=True,
            )
            yield Label("Task")
            # A new line after the task, the cursor on it: words added are not glued to its
            # last word.
            content = self._content + "\n" if self._content else ""
            yield TextArea(
                self._draft.content if self._draft else content, id="content", soft_wrap=True
            )
            closing = (
                "your edits from before, not applied · esc again discards them"
                if self._draft
                else "esc keeps edits"
            )
            yield Static(
                Text(
                    "The cursor starts in the task · ctrl+s applies from the agent's next model "
                    f"call · {closing}",
                    style="dim",
                ),
                id="hint",
            )
        yield Footer()  # this window's keys, not the screen's below it

    def on_mount(self) -> None:
        content = self.query_one("#content", TextArea)
        content.move_cursor(content.document.end)  # to add to the task, the usual edit: on the
        # line after it
        content.focus()

    def _texts(self) -> tuple[str, str]:
        return (
            self.query_one("#instructions", TextArea).text,
            self.query_one("#content", TextArea).text,
        )

    def action_apply(self) -> None:
        instructions, content = self._texts()
        content = content.rstrip("\n")
        self.dismiss(
            Modification(
                instructions if instructions != self._instructions else None,
                content if content != self._content.rstrip("\n") else None,
            )
        )

    def action_close(self) -> None:
        instructions, content = self._texts()
        if self._draft is not None and KeptDraft(instructions, content) == self._draft:
            self.dismiss(None)  # esc again on the kept draft, unchanged: discarded
            return
        edited = (instructions, content.rstrip("\n")) != (
            self._instructions,
            self._content.rstrip("\n"),
        )
        self.dismiss(KeptDraft(instructions, content) if edited else None)
