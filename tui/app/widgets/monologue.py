"""The monologue sidebar: the narrator's first-person summaries, newest at the bottom."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.widgets import Static

from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import VIEW_KEYS, bindings

if TYPE_CHECKING:  # narration's models load after the first frame
    from agentui.core.monologue.entry import NarrativeEntry

MAX_SHOWN = 300

EMPTY_ON = "Nothing narrated yet. A short first-person summary of each agent's work appears here as it goes."
EMPTY_OFF = "The monologue is off for this run."


def render_narrative(entry: NarrativeEntry) -> Text:
    text = Text()
    text.append(visible_controls(entry.agent_name), style="bold")
    text.append(f"  {time.strftime('%H:%M:%S', time.localtime(entry.timestamp))}", style="dim")
    if entry.metadata.is_final:
        text.append("  final", style="bold italic")
    text.append("\n")
    text.append(visible_controls(entry.text))
    return text


class MonologueSidebar(VerticalScroll):
    BINDINGS: ClassVar[list[BindingType]] = [*bindings(VIEW_KEYS)]

    def __init__(self, *, enabled: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.enabled = enabled
        self.filter_agent: str | None = None  # None: every agent
        self._empty = Static(
            Text(EMPTY_ON if enabled else EMPTY_OFF, style="dim italic"), classes="empty"
        )
        self._shown: list[Static] = []

    def compose(self) -> ComposeResult:
        yield self._empty

    def _follow_tail(self) -> None:
        # Anchor only once the content overflows: an anchored container bottom-aligns short content.
        if not self.is_anchored and self.max_scroll_y > 0:
            self.anchor()

    def _passes(self, agent_id: str) -> bool:
        return self.filter_agent is None or agent_id == self.filter_agent

    def add(self, narratives: Iterable[tuple[str, NarrativeEntry]]) -> None:
        new = [
            Static(render_narrative(entry), classes=_classes(entry))
            for agent_id, entry in narratives
            if self._passes(agent_id)
        ]
        if not new:
            return
        self._empty.display = False
        self.mount_all(new)
        self.call_after_refresh(self._follow_tail)
        self._shown.extend(new)
        if len(self._shown) > MAX_SHOWN:
            for old in self._shown[: len(self._shown) - MAX_SHOWN]:
                old.remove()
            del self._shown[: len(self._shown) - MAX_SHOWN]

    def show(
        self, narratives: Sequence[tuple[str, NarrativeEntry]], filter_agent: str | None
    ) -> None:
        """Rebuild with a new filter (None: every agent): its newest MAX_SHOWN lines. The
        lines shown are redrawn in place with the new ones (mounting and removing widgets is
        most of a switch's cost); only the difference is mounted or removed."""
        self.filter_agent = filter_agent
        self.anchor(False)
        recent = narratives[-MAX_SHOWN:] if filter_agent is None else narratives
        wanted = [entry for agent_id, entry in recent if self._passes(agent_id)][-MAX_SHOWN:]
        kept = self._shown[: len(wanted)]
        for static, entry in zip(kept, wanted, strict=False):
            static.update(render_narrative(entry))
            final = entry.metadata.is_final
            if static.has_class("final") != final:  # a change of classes restyles it
                static.set_class(final, "final")
        for old in self._shown[len(wanted) :]:
            old.remove()
        new = [
            Static(render_narrative(entry), classes=_classes(entry))
            for entry in wanted[len(kept) :]
        ]
        self._shown = [*kept, *new]
        if new:
            self.mount_all(new)
        self._empty.display = not wanted
        self.call_after_refresh(self._follow_tail)
        self.border_subtitle = "all agents" if filter_agent is None else "selected agent"


def _classes(entry: NarrativeEntry) -> str:
    return "narrative final" if entry.metadata.is_final else "narrative"
