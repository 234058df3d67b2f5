"""The inbox's list of rows: one option per thing that waits on the person, what unblocks most
first (core/state/inbox.py's order). Each says its kind, how long it has waited, how many
agents it holds up and the agent's path, then what it waits for on a line of its own: the
question's words, the approval's tool and arguments, the budget's limit reached, since when a
stalled agent has said nothing, the steer not read.

Every word from a model, a tool or a task passes through visible_controls and is drawn as
rich Text, never as markup. Drawn again each second (the waits grow) without moving the
highlight off the row it was on.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from rich.text import Text
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app.widgets.agent_tree import format_elapsed

if TYPE_CHECKING:
    from agentui.core.state.inbox import InboxKind, InboxRow

LINE_CHARS = 300  # what a row says, on its second line, at most (the pane below shows all)
# How each kind stands out (Rich styles: the rows are drawn as Text).
KIND_STYLES: dict[InboxKind, str] = {
    "question": "bold",
    "approval": "bold yellow",
    "budget": "bold red",
    "stalled": "bold magenta",
    "steer": "bold cyan",
}


def one_line(text: str) -> str:
    """Hostile text on one line: controls visible, any run of whitespace one space."""
    return " ".join(visible_controls(text).split())


def clock_time(ts: float) -> str:
    return time.strftime("%H:%M:%S", time.localtime(ts))


def call_text(tool: str | None, arguments: dict[str, object] | None) -> str:
    """An approval's tool call on one line: `lookup {"city": "Oslo"}`; the python tool's code
    as code, its lines joined by ⏎ (as the approval shows it, not as escaped JSON)."""
    code = (arguments or {}).get("code")
    if isinstance(code, str) and set(arguments or {}) == {"code"}:
        return f"{tool or 'a tool'}: " + " ⏎ ".join(code.strip("\n").splitlines())
    args = json.dumps(arguments or {}, ensure_ascii=False, sort_keys=True)
    return f"{tool or 'a tool'} {args}"


def what_it_waits_for(row: InboxRow, names: Callable[[str], str]) -> str:
    """The row's own words, whole (unescaped: the caller shows them through visible_controls)."""
    match row.kind:
        case "approval":
            return call_text(row.tool, row.arguments)
        case "stalled":
            return f"{row.text} {clock_time(row.since)}"
        case "steer":
            return f"not read yet: {row.text}"
        case "question" if len(row.agent_ids) > 1:
            askers = ", ".join(names(agent_id) for agent_id in row.agent_ids)
            return f"{row.text} (asked by {len(row.agent_ids)}: {askers})"
        case _:
            return row.text


def row_prompt(row: InboxRow, now: float, names: Callable[[str], str]) -> Text:
    """`question   2m05s  blocks 2 agents  main > writer` and, under it, what it waits for."""
    kind = row.kind + (f" ×{len(row.agent_ids)}" if len(row.agent_ids) > 1 else "")
    text = Text()
    text.append(f"{kind:<11}", style=KIND_STYLES[row.kind])
    text.append(f"{format_elapsed(row.waited_s(now)):>6}", style="bold")
    # The live agents under it: what answering it lets go on.
    agents = "agent" if row.waiting == 1 else "agents"
    text.append(f"  blocks {row.waiting} {agents}  ", style="dim")
    text.append(one_line(row.path))
    text.append("\n  ")
    text.append(clipped(one_line(what_it_waits_for(row, names)), LINE_CHARS))
    return text


class InboxList(OptionList):
    """The rows; the highlighted one is what the pane under the list acts on."""

    DEFAULT_CSS = """
    InboxList { height: auto; max-height: 1fr; }
    """

    def __init__(self, **kwargs: object) -> None:
        super().__init__(**kwargs)  # type: ignore[arg-type]
        self._ids: list[str] = []

    @property
    def highlighted_id(self) -> str | None:
        index = self.highlighted
        return self._ids[index] if index is not None and index < len(self._ids) else None

    def show(self, rows: Sequence[InboxRow], now: float, names: Callable[[str], str]) -> None:
        """Draw `rows`; the highlight stays on its row (or its place, when that row went)."""
        ids = [row.id for row in rows]
        prompts = [row_prompt(row, now, names) for row in rows]
        if ids == self._ids:
            for index, prompt in enumerate(prompts):
                self.replace_option_prompt_at_index(index, prompt)
            return
        was, place = self.highlighted_id, self.highlighted
        self._ids = ids
        self.clear_options()
        self.add_options(
            Option(prompt, id=row_id) for prompt, row_id in zip(prompts, ids, strict=True)
        )
        if not ids:
            return
        if was in ids:
            self.highlighted = ids.index(was)
        else:
            self.highlighted = min(place or 0, len(ids) - 1)
