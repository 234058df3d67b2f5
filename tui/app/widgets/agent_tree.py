"""The agent tree: one node per agent with status, name, task, tokens and elapsed time.

Nodes are added in batches from the app's flush timer, never per event (adding one node per
loop turn is quadratic in Textual's Tree). A row's label is drawn from the agent's view at paint
time, so only rows on screen cost anything: a change repaints its row if it is visible, and the
clock's tick repaints the visible rows of running agents. Nothing per tick or per change grows
with the number of agents. Status colours come from the theme's agent-* variables.

A row fits the pane: on a narrow one the task gives way (shortened, then gone) so that the
tokens and the elapsed time stay whole; a number is never cut (Textual would crop the row at the
pane's edge, `34` for 354).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from rich.style import Style
from rich.text import Text
from textual.binding import Binding, BindingType
from textual.widgets import Tree
from textual.widgets.tree import TreeNode

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import AGENT_KEYS, LEADING_KEYS, TRAILING_VIEW_KEYS, bindings
from agentui.tui.app.textual_compat import store_node_label

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


def budget_detail(agent: AgentState) -> str | None:
    """Its subtree's spend against its budget, `1.2k/5k tok` or `$0.40/$2.00` (the first of
    the two it has); None without either. A usd budget over a model with no price says so."""
    budget = agent.budget
    if budget is None:
        return None
    if budget.tokens is not None:
        # The limit as the budget's own words say it (5k, not 5.0k); loaded with the fold.
        from agentui.core.agent.budget import short_count

        return f"{format_tokens(agent.subtree_tokens)}/{short_count(budget.tokens)} tok"
    if budget.usd is not None:
        if agent.subtree_tokens and not agent.subtree_usd:
            return f"{format_tokens(agent.subtree_tokens)} tok (tokens only)/${budget.usd:.2f}"
        return f"${agent.subtree_usd:.2f}/${budget.usd:.2f}"
    return None


def agent_label(
    agent: AgentState, now: float, palette: dict[str, str], width: int | None = None
) -> Text:
    """The row: glyph, name, task, then tokens and elapsed time; fitted to `width` cells when
    given (see `fit_row`)."""
    glyph, variable = GLYPHS[agent.status]
    colour = palette.get(variable)
    ended = agent.status in (AgentStatus.CANCELLED, AgentStatus.DELETED)
    # Waiting for the person: a question, or a budget that stopped its subtree.
    waiting = bool(agent.open_queries) or agent.budget_stop is not None
    label = Text()
    label.append(glyph, style=Style(color=colour, bold=True))
    label.append(" ")
    label.append(
        visible_controls(agent.name),
        style=Style(bold=not ended, dim=ended, strike=agent.status is AgentStatus.DELETED),
    )
    task = visible_controls(" ".join(agent.task.split()))
    if len(task) > TASK_CHARS:
        task = task[: TASK_CHARS - 1] + "…"
    details = []
    spent = budget_detail(agent)
    if spent is not None:
        details.append(spent)
    elif agent.tokens:
        details.append(format_tokens(agent.tokens))
    if agent.started_ts is not None:
        details.append(format_elapsed((agent.ended_ts or now) - agent.started_ts))
    fit_row(label, Text(f" {task}", style=Style(dim=True)), details, width)
    if waiting:
        # Waiting for the person: the whole line stands out in the waiting colour.
        label.stylize(Style(color=palette.get("agent-waiting"), bold=True, reverse=True))
    return label


def fit_row(label: Text, task: Text, details: list[str], width: int | None) -> None:
    """Append the task and the details (numbers) to `label` within `width` cells: the task
    shortens first, then goes; then the elapsed time goes, then the tokens; the name is cut
    last. A number is shown whole or not at all."""
    style = Style(dim=True, italic=True)
    if width is None:
        label.append_text(task)
        if details:
            label.append("  " + " ".join(details), style=style)
        return
    while details and label.cell_len + len("  " + " ".join(details)) > width:
        details = details[:-1]
    tail = "  " + " ".join(details) if details else ""
    room = width - label.cell_len - len(tail)
    if room >= 3:  # a space, a letter and the ellipsis at least
        if task.cell_len > room:
            task.truncate(room, overflow="ellipsis")
        label.append_text(task)
    label.append(tail, style=style)
    if label.cell_len > width:  # the name alone is wider than the row
        label.truncate(max(width, 1), overflow="ellipsis")


class AgentTree(Tree[str]):
    """Agents by parent. Node data is the agent id; each row is drawn from its agent's view."""

    # The agent commands live here, where nobody types (space pauses/resumes instead of
    # folding a node); enter on a waiting agent goes to its question. The letters are priority
    # bindings: while the tree holds the keys, the app runs them as the key arrives, instead
    # of forwarding the key to the tree's queue first. So `p` stops an agent within a few ms
    # (no wait behind a frame or a flush under load), and after `n` or `s` the keys queued
    # behind it reach the prompt they opened, never the tree's commands.
    BINDINGS: ClassVar[list[BindingType]] = [
        *(replace(binding, priority=True) for binding in bindings(LEADING_KEYS)),
        Binding("enter", "app.key('answer_selected')", "Answer"),
        *(replace(binding, priority=True) for binding in bindings(AGENT_KEYS)),
        *(replace(binding, priority=True) for binding in bindings(TRAILING_VIEW_KEYS)),
    ]

    def __init__(self, clock: Callable[[], float], **kwargs: Any) -> None:
        self._clock = clock
        self._agent_nodes: dict[str, TreeNode[str]] = {}
        self._agents: dict[str, AgentState] = {}
        self._widths: dict[str, int] = {}  # agent id -> its row's label width when last drawn
        # Told at once when the cursor lands on another agent, in the same turn as the key
        # that moved it: what follows the cursor (the transcript) is drawn in the same frame
        # as the cursor. (NodeHighlighted arrives a message later, after a frame showing only
        # the cursor, and the next frame may be ~30 ms away.)
        self.on_cursor: Callable[[str], None] = lambda agent_id: None
        super().__init__("agents", **kwargs)
        self.show_root = False
        self.guide_depth = 2

    def _palette(self) -> dict[str, str]:
        return self.app.theme_variables if self.is_attached else {}

    def add_agents(self, agents: Iterable[AgentState]) -> None:
        now, palette = self._clock(), self._palette()
        for agent in agents:
            parent = self._agent_nodes.get(agent.parent_id or "", self.root)
            if parent is not self.root:
                parent.allow_expand = True
            self._agents[agent.id] = agent
            node = parent.add(Text(), data=agent.id, expand=True, allow_expand=False)
            # Fitted to the pane from the first: the tree's width is reckoned from these.
            label = agent_label(agent, now, palette, self._room_for(node))
            store_node_label(node, label)
            self._widths[agent.id] = label.cell_len
            self._agent_nodes[agent.id] = node

    def relabel(self, agents: Iterable[AgentState]) -> None:
        """These agents changed: their rows are drawn again when (and only if) on screen."""
        now, palette = self._clock(), self._palette()
        for agent in agents:
            node = self._agent_nodes.get(agent.id)
            if node is None:
                continue
            self._agents[agent.id] = agent
            store_node_label(node, agent_label(agent, now, palette))
            node.refresh()  # drawn afresh when next shown, at once if on screen

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
            store_node_label(node, agent_label(agent, self._clock(), self._palette(), room))
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
