"""Two runs side by side (`agentui diff A B` in the app), one page at a time: per agent, its
steps in A beside its steps in B, aligned by core's `diff_runs` (core/session/run_diff.py:
agents matched by name, a fork with its origin); for two directed scenes, first a page of
their rounds, compared round by round.

At the top, the two runs and where they first part (`agentui diff`'s words); then the page:
an agent's tokens, cost, time, status and the person's answers on each side, where that agent
parts (`▶`, scrolled to; later differences `≠`), its steps aligned, and under the list the
highlighted pair's two steps whole (words, tool calls with their arguments, results). ← and →
turn the pages (the first page is the rounds when both runs are scenes, else the first agent
that differs); ↑↓ move in the list; esc closes.

The runs come from `source` (tui/app/run_comparison.py reads and outlines the logs in worker
threads); until they are there the window says it is reading, and when one cannot be read it
says why, once. Everything from a log is shown through terminal_text's `visible_controls`,
as Text (never markup). Nothing here acts on an agent: letters do nothing.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, ClassVar

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import BindingType
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import Footer, OptionList, Static

from agentui.core.session.run_diff import AgentDiff, RunDiff, StepPair
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.keymap import COMPARE_RUNS, window_bindings
from agentui.tui.app.screens.run_diff import step_detail, two_columns
from agentui.tui.app.widgets.round_pairs import RoundPairs, round_detail, round_number
from agentui.tui.app.widgets.step_pairs import StepPairs

if TYPE_CHECKING:
    from agentui.core.session.run_outline import AgentOutline, RunOutline
    from agentui.tui.app.run_comparison import ReadRuns

READING = "Reading the two runs' logs…"
SAME_WORK = "The same work: no step differs."
SAME_ROUNDS = "The same rounds: every round played alike."
HINT = "↑↓ {rows} · ←→ {pages} · esc closes · letters do nothing"


@dataclass(frozen=True, slots=True)
class Page:
    """One page of the window: the scenes' rounds (agent None), or one agent's steps."""

    title: str
    agent: AgentDiff | None = None


def pages_of(result: RunDiff) -> tuple[list[Page], int]:
    """The pages, and the one to open on: the rounds when both runs are scenes, else the
    first agent that differs (the first agent when none does)."""
    pages = [Page("Rounds")] if result.rounds else []
    count = len(result.agents)
    pages += [
        Page(f"Agent {n} of {count}: {visible_controls(agent.name)}", agent)
        for n, agent in enumerate(result.agents, 1)
    ]
    if result.rounds and result.a.rounds and result.b.rounds:
        return pages, 0
    first = result.first
    return pages, next((i for i, page in enumerate(pages) if page.agent is first), 0)


def shown_diff(diff: AgentDiff) -> AgentDiff:
    """An agent only one run has, as pairs against nothing (its first step marked ▶);
    a matched agent as it is."""
    if diff.a is not None and diff.b is not None:
        return diff
    if diff.a is not None:
        pairs = [StepPair(step, None) for step in diff.a.steps]
    else:
        pairs = [StepPair(None, step) for step in diff.b.steps]  # type: ignore[union-attr]
    return AgentDiff(diff.a, diff.b, pairs, 0 if pairs else None)


def agent_figures(agent: AgentOutline | None, side: str) -> Text:
    """A column head: the agent's name and status, what it spent, how long it ran, and the
    person's answers to its questions."""
    if agent is None:
        return Text(f"(not in {side})", style="dim italic")
    head = Text(visible_controls(agent.name), style="bold")
    head.append(f"  {agent.status}", style="italic")
    cost = "–" if agent.cost_usd is None else f"${agent.cost_usd:.4f}"
    seconds = "–" if agent.seconds is None else f"{agent.seconds:.1f} s"
    head.append(f"\n{agent.tokens:,} tok · {cost} · {seconds}")
    if agent.answers:
        said = " · ".join("(declined)" if a is None else " ".join(a.split()) for a in agent.answers)
        head.append(f"\nanswered: {visible_controls(said)}", style="dim")
    return head


def run_figures(run: RunOutline) -> Text:
    """A scene's column head: its rounds and what all its agents spent."""
    tokens = sum(agent.tokens for agent in run.agents.values())
    costs = [agent.cost_usd for agent in run.agents.values() if agent.cost_usd is not None]
    cost = f"${sum(costs):.4f}" if costs else "–"
    head = Text(visible_controls(run.session), style="bold")
    head.append(f"\n{len(run.rounds)} rounds · {tokens:,} tok · {cost}")
    return head


def first_divergence(result: RunDiff) -> str:
    """Where the two runs first part, in `agentui diff`'s words; for two scenes, the round
    first (then the step, when one differs)."""
    first = result.first
    at = result.round_diverges_at
    if at is not None and (first is None or (result.a.rounds and result.b.rounds)):
        said = f"First divergence: round {round_number(result.rounds[at])}"
        return f"{said} ({first.divergence()})" if first is not None else said
    if first is not None:
        return f"First divergence: {first.divergence()}"
    return SAME_WORK


class RunsComparisonScreen(ModalScreen[None]):
    """Two runs compared, a page per agent (and the rounds): see the module's docstring."""

    BINDINGS: ClassVar[list[BindingType]] = [*window_bindings(COMPARE_RUNS)]  # keymap.py
    DEFAULT_CSS = """
    RunsComparisonScreen { align: center middle; }
    RunsComparisonScreen #dialog {
        width: 96%; max-width: 150; height: 94%;
        border: thick $primary; background: $surface; padding: 0 1;
    }
    /* One line each, cut with … (never wrapped onto a line the layout hides). */
    RunsComparisonScreen #runs, RunsComparisonScreen #page, RunsComparisonScreen #keys {
        height: 1; text-wrap: nowrap; text-overflow: ellipsis;
    }
    RunsComparisonScreen #overall { height: auto; max-height: 3; }
    RunsComparisonScreen #page { margin-top: 1; }
    RunsComparisonScreen #figures, RunsComparisonScreen #verdict { height: auto; }
    RunsComparisonScreen #pairs, RunsComparisonScreen #rounds {
        height: 1fr; min-height: 3; border: none; padding: 0;
    }
    RunsComparisonScreen #detail {
        height: auto; border-top: solid $primary-muted;
        text-wrap: nowrap; text-overflow: ellipsis;
    }
    """

    def __init__(
        self, a_label: str, b_label: str, source: Callable[[], Awaitable[ReadRuns]]
    ) -> None:
        super().__init__(classes="runs-diff")
        self._labels = (a_label, b_label)
        self._source = source
        self.result: RunDiff | None = None  # once read
        self.pages: list[Page] = []
        self.page = 0

    def compose(self) -> ComposeResult:
        a, b = (visible_controls(label) for label in self._labels)
        with Vertical(id="dialog"):
            runs = Text("A ", style="bold")
            runs.append(a)
            runs.append("  beside  ", style="dim")
            runs.append("B ", style="bold")
            runs.append(b)
            yield Static(runs, id="runs")
            yield Static(Text(READING, style="italic"), id="overall")
            yield Static(id="page")
            yield Static(id="figures")
            yield Static(id="verdict")
            yield StepPairs(id="pairs")
            yield RoundPairs(id="rounds")
            yield Static(id="detail")
            yield Static(self._hint(), id="keys")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one(RoundPairs).display = False
        self.query_one(StepPairs).focus()
        self.run_worker(self._compare(), group="runs diff", exclusive=True)

    def _hint(self) -> Text:
        """The keys, in the page's words: the rounds' page lists rounds, an agent's steps."""
        scene = bool(self.pages) and self.pages[0].agent is None
        on_rounds = scene and self.pages[self.page].agent is None
        rows, pages = "rounds" if on_rounds else "steps", "rounds/agents" if scene else "agents"
        return Text(HINT.format(rows=rows, pages=pages), style="dim")

    async def _compare(self) -> None:
        import anyio

        from agentui.core.session.run_diff import diff_runs

        overall = self.query_one("#overall", Static)
        try:
            read = await self._source()
        except AgentUIError as exc:  # a log missing, unreadable or not here: said once
            overall.update(Text(visible_controls(str(exc)), style="bold"))
            return
        except OSError as exc:
            why = f"Cannot read a session log: {exc.strerror or exc}"
            overall.update(Text(visible_controls(why), style="bold"))
            return
        # Aligning two long runs takes a moment: off the event loop, as the reading was.
        try:
            result = await anyio.to_thread.run_sync(diff_runs, read.a, read.b)
        except Exception as exc:  # a fault in the comparison ends this window's work, not the app
            why = f"The runs could not be compared: {type(exc).__name__}: {exc}"
            overall.update(Text(visible_controls(why), style="bold"))
            return
        self.result = result
        said = Text(visible_controls(first_divergence(result)), style="bold")
        for note in read.notes:
            said.append(f"\n{visible_controls(note)}", style="italic")
        overall.update(said)
        self.pages, self.page = pages_of(result)
        self._show_page()

    def action_turn(self, step: int) -> None:
        """← / →: the previous or next page (rounds, then each agent), round and round."""
        if not self.pages:
            return
        self.page = (self.page + step) % len(self.pages)
        self._show_page()

    def _show_page(self) -> None:
        result = self.result
        if result is None or not self.pages:
            if result is not None:
                self.query_one("#verdict", Static).update(Text("Neither run has an agent."))
            return
        page = self.pages[self.page]
        where = Text(f"◀ {page.title} ▶", style="bold")
        where.append(f"  ({self.page + 1}/{len(self.pages)})", style="dim")
        self.query_one("#page", Static).update(where)
        self.query_one("#keys", Static).update(self._hint())
        steps, rounds = self.query_one(StepPairs), self.query_one(RoundPairs)
        steps.display, rounds.display = page.agent is not None, page.agent is None
        if page.agent is None:
            self._show_rounds(result, rounds)
        else:
            self._show_agent(page.agent, steps)

    def _show_agent(self, diff: AgentDiff, steps: StepPairs) -> None:
        a, b = diff.a, diff.b
        self.query_one("#figures", Static).update(
            two_columns(agent_figures(a, "A"), agent_figures(b, "B"))
        )
        said = diff.divergence()
        verdict = Text(f"▶ {visible_controls(said)}" if said else SAME_WORK, style="bold")
        if diff.fork_point is not None and a is not None and b is not None:
            at_a, at_b = diff.fork_point
            copy = f"{a.name}@{at_a} is {b.name}@{at_b} (a fork's copy); the steps after it:"
            verdict.append(f"\n{visible_controls(copy)}", style="dim")
        self.query_one("#verdict", Static).update(verdict)
        steps.show(shown_diff(diff))
        steps.focus()
        self._detail()

    def _show_rounds(self, result: RunDiff, rounds: RoundPairs) -> None:
        self.query_one("#figures", Static).update(
            two_columns(run_figures(result.a), run_figures(result.b))
        )
        at = result.round_diverges_at
        if at is None:
            verdict = Text(SAME_ROUNDS, style="bold")
        else:
            number = round_number(result.rounds[at])
            verdict = Text(f"▶ round {number} differs", style="bold")
        self.query_one("#verdict", Static).update(verdict)
        rounds.show(result.rounds, at)
        rounds.focus()
        self._detail()

    @on(OptionList.OptionHighlighted)
    def _highlighted(self) -> None:
        self._detail()

    def _detail(self) -> None:
        """Under the list, the highlighted pair whole: a step's calls, arguments and
        results, or a round's input and each character's turn."""
        detail = self.query_one("#detail", Static)
        if self.result is None or not self.pages:
            detail.update("")
            return
        page = self.pages[self.page]
        if page.agent is None:
            rounds = self.query_one(RoundPairs)
            played = rounds.pair_at(rounds.highlighted)
            if played is None:
                detail.update("")
                return
            number = round_number(played)
            lines = [round_detail("A", played.a, number), round_detail("B", played.b, number)]
        else:
            steps = self.query_one(StepPairs)
            pair = steps.pair_at(steps.highlighted)
            if pair is None:
                detail.update("")
                return
            diff = page.agent
            a_name = diff.a.name if diff.a is not None else ""
            b_name = diff.b.name if diff.b is not None else ""
            lines = [step_detail("A", a_name, pair.a), step_detail("B", b_name, pair.b)]
        detail.update(Text("\n", no_wrap=True, overflow="ellipsis").join(lines))

    def action_close(self) -> None:
        self.dismiss(None)
