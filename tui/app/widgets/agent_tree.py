"""The agent tree: one node per agent with status, name, task, tokens and elapsed time.

Time travel shows here too: a fork names its origin after its name (`main~1 ⑂ main@4`), an
agent rewound to a step says which while it waits there (`main ⟲#2`), a subagent its parent's rewind set aside is struck through, marked ↶, and says so before its task.

Nodes are added in batches from the app's flush timer, never per event (adding one node per
loop turn is quadratic in Textual's Tree). A row's label is drawn from the agent's view at paint
time, so only rows on screen cost anything: a change repaints its row if it is visible, and the
clock's tick repaints the visible rows of running agents. Nothing per tick or per change grows
with the number of agents. Status colours come from the theme's agent-* variables.

A row fits the pane: on a narrow one the task gives way (shortened, then gone) so that the
tokens and the elapsed time stay whole; a number is never cut (Textual would crop the row at the
pane's edge, `34` for 354).

An agent with a budget shows its subtree's spend against it instead of its own tokens: the
measure nearest its limit and a bar (budget_gauge.py). The gauge never pushes the task out:
the task keeps a fair share of the row (roots are told apart by it), and the gauge gives way
first (its unit, the elapsed time, then its bar or its amounts). What that needs beyond the fold's sums
(a subtree's calls and live agents, for a budget that limits them) is counted when something
in the subtree changed, never at paint time.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets.tree import TreeNode

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import AGENT_KEYS, LEADING_KEYS, TRAILING_VIEW_KEYS, bindings
from agentui.tui.app.textual_compat import (
    TreeOfRowsAddedAtOnce,
    TreeStyledOncePerDraw,
    draw_once_handled,
    store_node_label,
)
from agentui.tui.app.widgets.budget_gauge import Gauge, counts_needed, gauge_bar, nearest_limit

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.state import AgentState

# status -> (glyph, theme variable with its colour)
GLYPHS: dict[AgentStatus, tuple[str, str]] = {
    AgentStatus.PENDING: ("○", "agent-stopped"),
    AgentStatus.RUNNING: ("●", "agent-running"),
    AgentStatus.PAUSED: ("‖", "agent-paused"),
    AgentStatus.AWAITING_USER: ("?", "agent-waiting"),
    AgentStatus.MODIFIED: ("✎", "agent-modified"),
    AgentStatus.COMPLETED: ("✓", "agent-done"),
    AgentStatus.ERROR: ("✗", "agent-error"),
    AgentStatus.CANCELLED: ("⊘", "agent-stopped"),
    AgentStatus.DELETED: ("⌫", "agent-stopped"),
}
TASK_CHARS = 28


def format_elapsed(seconds: float) -> str:
    seconds = max(0, int(seconds))
    if seconds < 60:
        return f"{seconds}s"
    if seconds < 3600:
        return f"{seconds // 60}m{seconds % 60:02d}s"
    return f"{seconds // 3600}h{seconds % 3600 // 60:02d}m"


def format_tokens(tokens: int) -> str:
    return f"{tokens / 1000:.1f}k" if tokens >= 1000 else str(tokens)


def agent_label(
    agent: AgentState,
    now: float,
    palette: Mapping[str, str],
    width: int | None = None,
    counted: Mapping[str, float] | None = None,
    rewound_to: int | None = None,
) -> Text:
    """The row: glyph, name, task, then tokens (with a budget: its gauge) and elapsed time;
    fitted to `width` cells when given (see `fit_row`). `counted`: the subtree's counts a
    budget needs (budget_gauge.subtree_counts). `rewound_to`: the step a rewind took it back
    to, while it waits there."""
    glyph, variable = GLYPHS[agent.status]
    colour = palette.get(variable)
    ended = agent.status in (AgentStatus.CANCELLED, AgentStatus.DELETED)
    # Waiting for the person: a question, or a budget that stopped its subtree.
    waiting = bool(agent.open_queries) or agent.budget_stop is not None
    label = Text()
    label.append(glyph, style=Style(color=colour, bold=True))
    label.append(" ")
    # A subagent a rewind of its parent set aside: struck through, as a deleted one is.
    aside = agent.set_aside
    label.append(
        visible_controls(agent.name),
        style=Style(
            bold=not (ended or aside),
            dim=ended or aside,
            strike=agent.status is AgentStatus.DELETED or aside,
        ),
    )
    if rewound_to is not None:  # waiting for the person at the step it went back to
        label.append(f" ⟲#{rewound_to}", style=Style(dim=True))
    if aside:  # kept however narrow the pane: the task that says it goes first
        label.append(" ↶", style=Style(dim=True))
    if agent.forked_from is not None:  # a fork names the step it started from: ⑂ main@4
        label.append(f" ⑂ {visible_controls(agent.forked_from.origin)}", style=Style(dim=True))
    task = visible_controls(" ".join(agent.task.split()))
    if len(task) > TASK_CHARS:
        task = task[: TASK_CHARS - 1] + "…"
    if aside:
        task = f"set aside · {task}"
    elif agent.tool_progress and agent.status is AgentStatus.RUNNING:
        # What its tool call says of its progress (an MCP server's), ahead of the task.
        task = f"{visible_controls(agent.tool_progress)} · {task}"
    details: list[Detail] = []
    gauge = nearest_limit(agent, counted)
    if gauge is not None:
        details.append(gauge_forms(gauge, palette))
    elif agent.tokens:
        details.append((Text(format_tokens(agent.tokens)),))
    if agent.started_ts is not None:
        details.append((Text(format_elapsed((agent.ended_ts or now) - agent.started_ts)),))
    task_text = Text(f" {task}", style=Style(dim=True))
    fit_row(label, task_text, details, width, task_first=gauge is not None)
    if waiting:
        # Waiting for the person: the whole line stands out in the waiting colour.
        label.stylize(Style(color=palette.get("agent-waiting"), bold=True, reverse=True))
    return label


DETAIL = Style(dim=True, italic=True)
# A detail of a row in the forms it may take, the longest first: a number has one form.
Detail = tuple[Text, ...]
# A task keeps at least this many cells (a space, ten letters, the ellipsis) beside a budget's
# gauge, or half the room after the name when that is more: enough to tell roots apart.
TASK_FAIR_CELLS = 12
_AMOUNTS = re.compile(r"(\S+/\S+) [a-z]+")  # `2.1k/6k tok`: the amounts before the unit


def gauge_forms(gauge: Gauge, palette: Mapping[str, str]) -> Detail:
    """A budget's gauge in the forms it may take on a row, each shorter than the one before:
    `2.1k/6k tok █▊   `, then without the unit `2.1k/6k █▊   `, the amounts alone, the bar
    alone. (A minutes budget's limit, its spend unknown, has one form: `30 min`.)"""
    words = Text(gauge.words())
    if gauge.spent is None:
        return (words,)
    bar = gauge_bar(gauge.share, palette)
    amounts = _AMOUNTS.fullmatch(words.plain)
    number = Text(amounts.group(1)) if amounts else words
    forms: list[Text] = []
    for form in (Text.assemble(words, " ", bar), Text.assemble(number, " ", bar), number, bar):
        if not forms or form.cell_len < forms[-1].cell_len:
            forms.append(form)
    return tuple(forms)


def fit_row(
    label: Text, task: Text, details: list[Detail], width: int | None, *, task_first: bool = False
) -> None:
    """Append the task and the details (numbers, a budget's gauge) to `label` within `width`
    cells. A number is shown whole or not at all; the name is cut last.

    Without a gauge the task shortens first, then goes; then the elapsed time goes, then the
    tokens. With one (`task_first`: details[0] is the gauge) the task keeps its fair share
    (`TASK_FAIR_CELLS`, or half the room after the name): the gauge loses its unit
    first, then the elapsed time goes, then the gauge shortens (its amounts alone, its bar
    alone) and goes; the task has what is left, and gives way only where the name leaves less than its share."""

    def tail_of(parts: list[Detail]) -> str:
        return "  " + " ".join(forms[0].plain for forms in parts) if parts else ""

    if width is not None:
        if task_first:
            free = width - label.cell_len
            fair = min(task.cell_len, max(TASK_FAIR_CELLS, free // 2))
            shorter = _gauge_row_steps(details[0], details[1:])
            while details and Text(tail_of(details)).cell_len > free - fair:
                details = next(shorter)
        while details and label.cell_len + Text(tail_of(details)).cell_len > width:
            last = details[-1]
            details = [*details[:-1], last[1:]] if len(last) > 1 else details[:-1]
        tail = Text(tail_of(details))
        room = width - label.cell_len - tail.cell_len
        if room >= 3:  # a space, a letter and the ellipsis at least
            if task.cell_len > room:
                task.truncate(room, overflow="ellipsis")
            label.append_text(task)
    else:
        label.append_text(task)
    # One dim italic run, as one span; a detail's own styles (a gauge's bar) go over it.
    at = len(label.plain) + 2
    label.append(tail_of(details), style=DETAIL)
    for shown, *_shorter in details:
        for span in shown.spans:
            label.stylize(span.style, at + span.start, at + span.end)
        at += len(shown.plain) + 1
    if width is not None and label.cell_len > width:  # the name alone is wider than the row
        label.truncate(max(width, 1), overflow="ellipsis")


def _gauge_row_steps(gauge: Detail, clock: list[Detail]) -> Iterator[list[Detail]]:
    """A gauge row's details, each step shorter than the one before: the gauge without its
    unit; then without the elapsed time; then the gauge's shorter forms; then nothing."""
    if len(gauge) > 1:
        gauge = gauge[1:]
        yield [gauge, *clock]
    if clock:
        yield [gauge]
    while len(gauge) > 1:
        gauge = gauge[1:]
        yield [gauge]
    yield []


class AgentTree(TreeOfRowsAddedAtOnce, TreeStyledOncePerDraw):
    """Agents by parent. Node data is the agent id; each row is drawn from its agent's view."""

    # The agent commands live here, where nobody types (space pauses/resumes instead of
    # folding a node); enter on a waiting agent goes to its question. The letters are priority
    # bindings: while the tree holds the keys, the app runs them as the key arrives, instead
    # of forwarding the key to the tree's queue first. So `p` stops an agent within a few ms
    # (no wait behind a frame or a flush under load), and after `n` or `s` the keys queued
    # behind it reach the prompt they opened, never the tree's commands. So does enter: the
    # words typed after it go into the answer box or budget window it opens (run late, it
    # sent them as the answer, or let them run tree commands).
    BINDINGS: ClassVar[list[BindingType]] = [
        *(replace(binding, priority=True) for binding in bindings(LEADING_KEYS)),
        Binding("enter", "app.key('answer_selected')", "Answer", priority=True),
        *(replace(binding, priority=True) for binding in bindings(AGENT_KEYS)),
        *(replace(binding, priority=True) for binding in bindings(TRAILING_VIEW_KEYS)),
    ]

    def __init__(self, clock: Callable[[], float], **kwargs: Any) -> None:
        self._clock = clock
        self._agent_nodes: dict[str, TreeNode[str]] = {}
        self._agents: dict[str, AgentState] = {}
        self._widths: dict[str, int] = {}  # agent id -> its row's label width when last drawn
        # What a budget's gauge needs beyond the fold's sums: agent id -> its own (model
        # calls, tool calls, live) when last seen, and its subtree's (model calls, tool calls,
        # live agents below it). A change is added up the chain: depth, not size, per change.
        self._own: dict[str, tuple[int, int, int]] = {}
        self._below: dict[str, list[int]] = {}
        # Told at once when the cursor lands on another agent, in the same turn as the key
        # that moved it: what follows the cursor (the transcript) is drawn in the same frame
        # as the cursor. (NodeHighlighted arrives a message later, after a frame showing only
        # the cursor, and the next frame may be a while away.)
        self.on_cursor: Callable[[str], None] = lambda agent_id: None
        # The step a rewind took an agent back to, while it waits there (the screen's steps).
        self.rewound_to: Callable[[str], int | None] = lambda agent_id: None
        # A Text, not a str: Textual reads a str as markup, and its emoji table (~3 ms) would
        # load for this one word before the first frame.
        super().__init__(Text("agents"), **kwargs)
        self.show_root = False
        self.guide_depth = 2
        # A click on a row's label selects its agent; only the ▶/▼ folds (Textual's Tree folds
        # a node on every selection, so a click to read a subagent's parent would close it).
        self.auto_expand = False

    def _palette(self) -> dict[str, str]:
        return self.app.theme_variables if self.is_attached else {}

    def process_label(self, label: str | Text) -> Text:
        """A label of one line of Text is kept as it is: Textual's copies it to cut it at its
        first line, twice for each row added (a row's label is empty until it is painted, and
        agent_label's is one line): ~3 ms of a resumed session's first frame at 1,000 agents."""
        if isinstance(label, Text) and "\n" not in label.plain:
            return label
        return super().process_label(label)

    def add_agents(self, agents: Iterable[AgentState]) -> None:
        """A row's label is made when the row is first painted (render_label), fitted to the
        pane then: a resumed session of many agents would otherwise make every label before
        its first frame, for the few on screen. Until then the row counts 0 cells in the tree's
        width, which only pads rows (the pane never scrolls sideways, overflow-x hidden).

        Textual's Tree drops its line caches and asks for a layout at each node added; the
        rows added at once do it once, after the last (a resumed session's 1,000 agents: ~8 ms
        of its first frame)."""
        with self.adding_at_once():
            for agent in agents:
                parent = self._agent_nodes.get(agent.parent_id or "", self.root)
                if parent is not self.root:
                    parent.allow_expand = True
                self._agents[agent.id] = agent
                node = parent.add(Text(), data=agent.id, expand=True, allow_expand=False)
                self._agent_nodes[agent.id] = node
                self._count(agent)

    def relabel(self, agents: Iterable[AgentState]) -> None:
        """These agents changed: their rows are drawn again when (and only if) on screen."""
        now, palette = self._clock(), self._palette()
        for agent in agents:
            node = self._agent_nodes.get(agent.id)
            if node is None:
                continue
            self._agents[agent.id] = agent
            self._count(agent)
            store_node_label(node, self._label(agent, now, palette))
            node.refresh()  # drawn afresh when next shown, at once if on screen

    def _label(
        self, agent: AgentState, now: float, palette: Mapping[str, str], width: int | None = None
    ) -> Text:
        return agent_label(
            agent, now, palette, width, self._counted(agent), self.rewound_to(agent.id)
        )

    def _count(self, agent: AgentState) -> None:
        """Add what changed of the agent's calls and liveness to its subtree's counts and its
        ancestors'; an ancestor whose budget's gauge shows them is drawn again."""
        own = (agent.model_calls, agent.tool_calls, int(agent.status.is_live))
        before = self._own.get(agent.id, (0, 0, 0))
        if own == before:
            return
        self._own[agent.id] = own
        change = [now - then for now, then in zip(own, before, strict=True)]
        below = self._below.setdefault(agent.id, [0, 0, 0])
        below[0] += change[0]
        below[1] += change[1]
        parent_id = agent.parent_id
        while parent_id is not None and (parent := self._agents.get(parent_id)) is not None:
            below = self._below.setdefault(parent_id, [0, 0, 0])
            for measure, amount in enumerate(change):
                below[measure] += amount
            if counts_needed(parent.budget) and (node := self._agent_nodes.get(parent_id)):
                node.refresh()
            parent_id = parent.parent_id

    def _counted(self, agent: AgentState) -> dict[str, float] | None:
        """The subtree's counts its budget's gauge needs (None: it needs none)."""
        if not counts_needed(agent.budget):
            return None
        model_calls, tool_calls, live = self._below.get(agent.id, (0, 0, 0))
        return {"model_calls": model_calls, "tool_calls": tool_calls, "children": live}

    def tick(self) -> None:
        """The clock moved: repaint the rows on screen whose elapsed time runs (live agents)."""
        top = self.scroll_offset.y
        for line in range(top, top + self.size.height):
            node = self.get_node_at_line(line)
            if node is None:
                break
            agent = self._agents.get(node.data or "")
            if agent is not None and agent.status.is_live and agent.started_ts is not None:
                node.refresh()

    def watch_cursor_line(self, previous_line: int, line: int) -> None:
        before = self.cursor_node
        super().watch_cursor_line(previous_line, line)
        node = self.cursor_node
        if node is not None and node is not before and node.data is not None:
            self.on_cursor(node.data)
            # The cursor and the agent it shows in the frame now, not at the next tick.
            draw_once_handled(self)

    def _room_for(self, node: TreeNode[str]) -> int | None:
        """The cells the node's label has in the pane (its guides and toggle are left of it);
        None before the pane has a size."""
        pane = self.scrollable_content_region.width
        if pane <= 0:
            return None
        depth = 0
        parent = node.parent
        while parent is not None:
            depth += 1
            parent = parent.parent
        toggle = len(self.ICON_NODE) if node.allow_expand else 0
        return max(pane - depth * self.guide_depth - toggle, 1)

    def render_label(self, node: TreeNode[str], base_style: Style, style: Style) -> Text:
        agent = self._agents.get(node.data or "")
        if agent is not None:
            room = self._room_for(node)
            label = self._label(agent, self._clock(), self._palette(), room)
            store_node_label(node, label)
        text = super().render_label(node, base_style, style)
        if agent is not None:
            self._widths[agent.id] = text.cell_len
        return text

    def get_label_width(self, node: TreeNode[str]) -> int:
        # Textual's default draws every label at each rebuild (every batch of new agents).
        # The width last drawn is enough: this tree never scrolls sideways.
        return self._widths.get(node.data or "", 0)

    def select_agent(self, agent_id: str, *, retry: bool = True) -> None:
        """Put the cursor on the agent's node, so the highlight and the agent keys agree."""
        node = self._agent_nodes.get(agent_id)
        if node is None:
            return
        if node.line < 0 and retry:
            # Added in this batch: the node has no line until the tree is laid out again.
            self.call_after_refresh(self.select_agent, agent_id, retry=False)
            return
        self.move_cursor(node)
