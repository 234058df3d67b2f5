"""The monologue sidebar: the narrator's first-person summaries, newest at the bottom."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import VerticalScroll
from textual.geometry import Size
from textual.widgets import Static

from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import VIEW_KEYS, bindings

if TYPE_CHECKING:  # narration's models load after the first frame
    from agentui.core.monologue.entry import NarrativeEntry

MAX_SHOWN = 300
# Narratives whose heights are kept (every line shown under either filter, and some).
HEIGHTS_KEPT = 4 * MAX_SHOWN

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


class NarrativeHeights:
    """The lines each narrative takes at each width, as its line measured it: a switch of the
    filter rebinds the lines shown to other narratives, and measuring each again (wrapping
    its text) was most of a switch's cost. A narrative's height depends on its text and the
    width only (a theme changes colours, not cells). Keyed by identity, holding the entry,
    so an id is never reused while kept; the oldest go first."""

    def __init__(self, kept: int = HEIGHTS_KEPT) -> None:
        self._kept = kept
        self._heights: dict[int, tuple[NarrativeEntry, dict[int, int]]] = {}

    def get(self, entry: NarrativeEntry, width: int) -> int | None:
        found = self._heights.get(id(entry))
        return found[1].get(width) if found is not None else None

    def put(self, entry: NarrativeEntry, width: int, height: int) -> None:
        found = self._heights.get(id(entry))
        if found is None:
            if len(self._heights) >= self._kept:
                del self._heights[next(iter(self._heights))]
            found = self._heights[id(entry)] = (entry, {})
        found[1][width] = height

    def __len__(self) -> int:
        return len(self._heights)


class NarrativeLine(Static):
    """One narrative of the sidebar; rebound to another on a switch of the filter."""

    def __init__(self, entry: NarrativeEntry, heights: NarrativeHeights) -> None:
        super().__init__(render_narrative(entry), classes=_classes(entry))
        self.entry = entry
        self._heights = heights

    def rebind(self, entry: NarrativeEntry) -> None:
        if entry is self.entry:
            return
        self.entry = entry
        self.update(render_narrative(entry))
        final = entry.metadata.is_final
        if self.has_class("final") != final:  # a change of classes restyles it
            self.set_class(final, "final")

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        height = self._heights.get(self.entry, width)
        if height is None:
            height = super().get_content_height(container, viewport, width)
            self._heights.put(self.entry, width, height)
        return height


class MonologueSidebar(VerticalScroll):
    BINDINGS: ClassVar[list[BindingType]] = [*bindings(VIEW_KEYS)]

    def __init__(self, *, enabled: bool = True, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.enabled = enabled
        self.filter_agent: str | None = None  # None: every agent
        self._say_whose()  # what `f` switches, said from the start
        self._empty = Static(
            Text(EMPTY_ON if enabled else EMPTY_OFF, style="dim italic"), classes="empty"
        )
        self._shown: list[NarrativeLine] = []
        # Lines a switch to fewer narratives hid, below the shown ones: a switch back shows
        # them again instead of mounting new ones (mounting is a switch's other cost).
        self._spare: list[NarrativeLine] = []
        self.heights = NarrativeHeights()

    def compose(self) -> ComposeResult:
        yield self._empty

    def _follow_tail(self) -> None:
        # Anchor only once the content overflows: an anchored container bottom-aligns short content.
        if not self.is_anchored and self.max_scroll_y > 0:
            self.anchor()

    def _passes(self, agent_id: str) -> bool:
        return self.filter_agent is None or agent_id == self.filter_agent

    def _line(self, entry: NarrativeEntry) -> NarrativeLine:
        return NarrativeLine(entry, self.heights)

    def add(self, narratives: Iterable[tuple[str, NarrativeEntry]]) -> None:
        # More at once than are shown (a resumed run's): the older ones would go at once.
        wanted = [entry for agent_id, entry in narratives if self._passes(agent_id)][-MAX_SHOWN:]
        if not wanted:
            return
        self._empty.display = False
        reused = self._spare[: len(wanted)]  # the first spare is just below the last shown
        del self._spare[: len(reused)]
        for line, entry in zip(reused, wanted, strict=False):
            line.rebind(entry)
            line.display = True
        new = [self._line(entry) for entry in wanted[len(reused) :]]
        if new:
            self.mount_all(new)
        self.call_after_refresh(self._follow_tail)
        self._shown.extend([*reused, *new])
        if len(self._shown) > MAX_SHOWN:
            for old in self._shown[: len(self._shown) - MAX_SHOWN]:
                old.remove()
            del self._shown[: len(self._shown) - MAX_SHOWN]

    def show(
        self, narratives: Sequence[tuple[str, NarrativeEntry]], filter_agent: str | None
    ) -> None:
        """Rebuild with a new filter (None: every agent): its newest MAX_SHOWN lines. The
        lines mounted are rebound in place to the new ones (mounting and removing widgets is
        most of a switch's cost), those left over hidden for the next switch; only lines
        beyond them are mounted."""
        self.filter_agent = filter_agent
        self.anchor(False)
        recent = narratives[-MAX_SHOWN:] if filter_agent is None else narratives
        wanted = [entry for agent_id, entry in recent if self._passes(agent_id)][-MAX_SHOWN:]
        lines = [*self._shown, *self._spare]  # in screen order
        for line, entry in zip(lines, wanted, strict=False):
            line.rebind(entry)
            line.display = True
        self._spare = lines[len(wanted) :]
        for spare in self._spare:
            spare.display = False
        new = [self._line(entry) for entry in wanted[len(lines) :]]
        self._shown = [*lines[: len(wanted)], *new]
        if new:
            self.mount_all(new)
        self._empty.display = not wanted
        self.call_after_refresh(self._follow_tail)
        self._say_whose()

    def _say_whose(self) -> None:
        self.border_subtitle = "all agents" if self.filter_agent is None else "selected agent"


def _classes(entry: NarrativeEntry) -> str:
    return "narrative final" if entry.metadata.is_final else "narrative"
