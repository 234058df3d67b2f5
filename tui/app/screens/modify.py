"""The modify modal: edit an agent's instructions and task; ctrl+s applies, esc discards."""

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


class ModifyScreen(ModalScreen[Modification | None]):
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("ctrl+s", "apply", "Apply", priority=True),
        Binding("escape", "discard", "Discard", priority=True),
    ]

    def __init__(self, agent_name: str, instructions: str, content: str) -> None:
        super().__init__(classes="modify")
        self._agent_name = agent_name
        # Shown (and compared) with control characters visible: a task may hold anything.
        self._instructions = visible_controls(instructions)
        self._content = visible_controls(content)

    def compose(self) -> ComposeResult:
        with Vertical(id="dialog"):
            yield Static(Text(f"Modify {self._agent_name}", style="bold"), id="title")
            yield Label("Instructions (the system prompt)")
            yield TextArea(self._instructions, id="instructions", soft_wrap=True)
            yield Label("Task")
            # A new line after the task, the cursor on it: words added are not glued to its
            # last word.
            yield TextArea(
                self._content + "\n" if self._content else "", id="content", soft_wrap=True
            )
            yield Static(
                Text(
                    "The cursor starts in the task · ctrl+s applies from the agent's next model "
                    "call · esc discards",
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

    def action_apply(self) -> None:
        instructions = self.query_one("#instructions", TextArea).text
        content = self.query_one("#content", TextArea).text.rstrip("\n")
        self.dismiss(
            Modification(
                instructions if instructions != self._instructions else None,
                content if content != self._content.rstrip("\n") else None,
            )
        )

    def action_discard(self) -> None:
        self.dismiss(None)
