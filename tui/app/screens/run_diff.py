"""Two agents of this session side by side (`agentui diff` in the app): their steps aligned by
core's `diff_agents` (core/session/run_diff.py, the one alignment), the first pair that
differs marked `▶` and scrolled to, later ones `≠`; at the top, each agent's tokens, cost,
time and status, as the outline of the session's log has them; under the list, the
highlighted pair's two steps in one line each: words, tool calls with their arguments,
results (two rows that read alike may differ only there).

The outline comes from `source` (tui/app/agent_comparison.py reads the session's log in a
thread); until it is there the window says it is reading, and when there is none it says why.
Nothing here acts on an agent: the list takes arrows, esc closes, and letters do nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, ClassVar

from rich.table import Table
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static

from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import COMPARE_WITH, window_bindings
from agentui.tui.app.widgets.step_pairs import StepPairs

if TYPE_CHECKING:
    from agentui.core.session.run_diff import AgentDiff
    from agentui.core.session.run_outline import AgentOutline, RunOutline, StepContent
    from agentui.tui.app.agent_comparison import ReadOutline

NO_DIFFERENCE = "No difference: the two did the same work at every step."
READING = "Reading this session's log…"


def figures(agent: AgentOutline) -> Text:
    """An agent's column head: its name and status, then what it spent and how long it ran."""
    head = Text(visible_controls(agent.name), style="bold")
    head.append(f"  {agent.status}", style="italic")
    cost = "–" if agent.cost_usd is None else f"${agent.cost_usd:.4f}"
    seconds = "–" if agent.seconds is None else f"{agent.seconds:.1f} s"
    head.append(f"\n{agent.tokens:,} tok · {cost} · {seconds}")
    return head


def two_columns(left: Text, right: Text) -> Table:
    """Two heads over a pair list's two columns (its mark column left blank)."""
    grid = Table.grid(expand=True, padding=(0, 1, 0, 0))
    grid.add_column(width=1)
    for _ in range(2):
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
    grid.add_row(Text(" "), left, right)
    return grid


def verdict(diff: AgentDiff) -> Text:
    """Where the two part, in `agentui diff`'s words, or that they do not; and a fork's copy."""
    said = diff.divergence()
    line = Text(f"▶ {visible_controls(said)}" if said else NO_DIFFERENCE, style="bold")
    if diff.fork_point is not None and diff.a is not None and diff.b is not None:
        at_a, at_b = diff.fork_point
        copy = f"{diff.a.name}@{at_a} is {diff.b.name}@{at_b} (a fork's copy); the steps after it:"
        line.append(f"\n{visible_controls(copy)}", style="dim")
    return line


def step_detail(label: str, name: str, step: StepContent | None) -> Text:
    """One line of what a step did, whole where the row clipped it: its words, its tool calls
    with their arguments, its results (two steps whose rows read alike differ here)."""
    line = Text(f"{label} ", style="bold")
    if step is None:
        line.append("(no such step)", style="dim italic")
        return line
    line.append(f"{visible_controls(name)}@{step.number} {step.kind}: ", style="italic")
    parts = [step.text, *(str(call) for call in step.calls)]
    parts += [f"{'error: ' if error else ''}{content}" for content, error in step.results]
    line.append(visible_controls(" · ".join(" ".join(part.split()) for part in parts if part)))
    return line


def _by_id(outline: RunOutline, agent_id: str) -> AgentOutline | None:
    return next((agent for agent in outline.agents.values() if agent.id == agent_id), None)


class ComparisonScreen(ModalScreen[None]):
    """Two agents' steps side by side (see the module's docstring)."""

    BINDINGS: ClassVar[list[BindingType]] = [*window_bindings(COMPARE_WITH)]  # keymap.py
    DEFAULT_CSS = """
    ComparisonScreen { align: center middle; }
    ComparisonScreen #dialog {
        width: 96%; max-width: 150; height: 94%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    ComparisonScreen #figures { height: auto; margin-bottom: 1; }
    ComparisonScreen #verdict { height: auto; }
    ComparisonScreen #pairs { height: 1fr; min-height: 3; border: none; padding: 0; }
    ComparisonScreen #detail {
        height: auto; border-top: solid $primary-muted;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    ComparisonScreen #keys { height: 1; text-wrap: nowrap; text-overflow: ellipsis; }
    """

    def __init__(
        self,
        left_name: str,
        right_name: str,
        left_id: str,
        right_id: str,
        source: Callable[[], Awaitable[ReadOutline]],
    ) -> None:
        super().__init__(classes="run-diff")
        self._names = (left_name, right_name)
        self._ids = (left_id, right_id)
        self._source = source
        self.diff: AgentDiff | None = None  # once read

    def compose(self) -> ComposeResult:
        left, right = (visible_controls(name) for name in self._names)
        with Vertical(id="dialog"):
            yield Static(Text(f"{left} beside {right}, step by step", style="bold"), id="title")
            yield Static(id="figures")
            yield Static(Text(READING, style="italic"), id="verdict")
            yield StepPairs(id="pairs")
            yield Static(id="detail")
            yield Static(
                Text("↑↓ scroll · esc closes · letters here do nothing", style="dim"), id="keys"
            )
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(StepPairs).focus()
        self.run_worker(self._compare(), group="run diff", exclusive=True)

    async def _compare(self) -> None:
        import anyio

        from agentui.core.session.run_diff import diff_agents

        verdict_view = self.query_one("#verdict", Static)
        try:
            read = await self._source()
        except AgentUIError as exc:  # no log here, or one that cannot be read: said
            verdict_view.update(Text(str(exc), style="bold"))
            return
        except OSError as exc:
            why = f"Cannot read the session log: {exc.strerror or exc}"
            verdict_view.update(Text(visible_controls(why), style="bold"))
            return
        left, right = (_by_id(read.outline, agent_id) for agent_id in self._ids)
        if left is None or right is None:
            missing = self._names[0] if left is None else self._names[1]
            verdict_view.update(
                Text(f"{visible_controls(missing)} is not in the session's log yet.", style="bold")
            )
            return
        # Aligning two long paths takes a moment: off the event loop, as the reading was.
        diff = await anyio.to_thread.run_sync(diff_agents, left, right)
        self.diff = diff
        self.query_one("#figures", Static).update(two_columns(figures(left), figures(right)))
        said = verdict(diff)
        if read.note:
            said.append(f"\n{read.note}", style="italic")
        verdict_view.update(said)
        self.query_one(StepPairs).show(diff)

    @on(OptionList.OptionHighlighted, "#pairs")
    def _pair_highlighted(self) -> None:
        """Under the list, the highlighted pair's steps in full: calls, arguments, results."""
        pairs = self.query_one(StepPairs)
        pair = pairs.pair_at(pairs.highlighted)
        diff = self.diff
        detail = self.query_one("#detail", Static)
        if pair is None or diff is None or diff.a is None or diff.b is None:
            detail.update("")
            return
        lines = Text("\n", no_wrap=True, overflow="ellipsis").join(
            [step_detail("A", diff.a.name, pair.a), step_detail("B", diff.b.name, pair.b)]
        )
        detail.update(lines)

    def action_close(self) -> None:
        self.dismiss(None)
