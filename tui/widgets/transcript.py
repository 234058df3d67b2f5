"""The transcript of the selected agent: one block per entry, updated from the flush timer.

Agent text is shown literally (rich Text, never markup), so `[bold]` in model output prints
as typed. Only the newest MAX_BLOCKS entries are mounted; the count of older ones is shown.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.widgets import Static

from ..view_model import AgentView, Entry

MAX_BLOCKS = 300

_TITLE_STYLE = {
    "task": "bold",
    "thinking": "dim italic",
    "tool": "bold cyan",
    "question": "bold magenta",
    "answer": "bold green",
    "notice": "yellow",
    "error": "bold red",
}


def render_entry(entry: Entry) -> Text:
    if entry.kind == "text":
        return Text(entry.text)
    if entry.kind == "thinking":
        return Text(entry.text, style="dim italic")
    title = entry.title or entry.kind
    text = Text()
    text.append(f"{title}: ", style=_TITLE_STYLE.get(entry.kind, "bold"))
    text.append(entry.text, style="red" if entry.failed else "")
    return text


class EntryBlock(Static):
    pass


class Transcript(VerticalScroll):
    """Shows one agent's entries; `sync` mounts new ones and updates the streaming tail."""

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self.agent_id: str | None = None
        self._shown = 0  # how many of the agent's entries are rendered
        self._hidden = Static("", classes="hidden-count")

    def compose(self) -> ComposeResult:
        yield self._hidden

    def on_mount(self) -> None:
        self.anchor()  # follow the tail until the person scrolls up

    def show(self, agent: AgentView | None) -> None:
        """Switch to another agent (or none): rebuild from its entries."""
        self.agent_id = agent.id if agent else None
        self._shown = 0
        self.query(EntryBlock).remove()
        self._hidden.update("")
        if agent is not None:
            self.sync(agent)
        self.anchor()

    def sync(self, agent: AgentView) -> None:
        if agent.id != self.agent_id:
            return
        entries = agent.entries
        blocks = list(self.query(EntryBlock))
        if blocks and self._shown:
            blocks[-1].update(render_entry(entries[self._shown - 1]))
            blocks[-1].set_class(entries[self._shown - 1].failed, "failed")
        start = max(self._shown, len(entries) - MAX_BLOCKS)
        new = [
            EntryBlock(render_entry(e), classes=f"entry {e.kind}" + (" failed" if e.failed else ""))
            for e in entries[start:]
        ]
        self._shown = len(entries)
        if new:
            self.mount_all(new)
            overflow = len(blocks) + len(new) - MAX_BLOCKS
            if overflow > 0:
                for block in blocks[:overflow]:
                    block.remove()
        hidden = len(entries) - min(len(entries), MAX_BLOCKS)
        self._hidden.update(
            Text(f"… {hidden} earlier entries not shown", style="dim") if hidden else ""
        )
