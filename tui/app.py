"""AgentUIApp: the layout, the keys, and the timer that turns event batches into redraws."""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import anyio
from agentui.core.clock import Clock, SystemClock
from agentui.core.errors import AgentUIError
from agentui.core.events import Subscription
from agentui.core.runtime import Runtime
from agentui.core.tree import AgentStatus
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Input, Tree
from textual.worker import Worker

from .view_model import RunViewModel
from .widgets.agent_tree import AgentTree
from .widgets.status_bar import StatusBar
from .widgets.transcript import Transcript

FLUSH_HZ = 20  # redraws per second at most; events are batched in between

LIVE_ONLY = {"pause", "cancel"}


class AgentUIApp(App[int]):
    CSS_PATH = "app.tcss"
    TITLE = "agentui"
    AUTO_FOCUS = None  # focus follows the run: the tree, or the prompt when a question waits
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n", "new_task", "New task"),
        Binding("p", "pause", "Pause"),
        Binding("r", "resume", "Resume"),
        Binding("c", "cancel", "Cancel"),
        Binding("d", "delete", "Delete"),
        Binding("ctrl+n", "next_question", "Next question", priority=True),
        Binding("escape", "decline", "Decline", show=False),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(
        self,
        runtime_factory: Callable[[], Runtime],
        *,
        initial_task: str | None = None,
        clock: Clock | None = None,
    ) -> None:
        super().__init__()
        self._runtime_factory = runtime_factory
        self._initial_task = initial_task
        self.clock: Clock = clock if clock is not None else SystemClock()
        self.runtime: Runtime | None = None
        self.model = RunViewModel()
        self._events: Subscription | None = None
        # Created in on_mount: anyio events need the running loop.
        self._runtime_ready: anyio.Event | None = None
        self._runtime_stop: anyio.Event | None = None
        self._started_at: float | None = None
        self.selected_id: str | None = None  # the agent every agent key acts on
        self._runtime_worker: Worker[None] | None = None

    # -- layout --------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        with Horizontal(id="panes"):
            yield AgentTree(self.clock.now, id="tree")
            yield Transcript(id="transcript")
        yield Input(placeholder="What should the agents do? (enter starts it)", id="prompt")
        yield StatusBar(id="status")
        yield Footer()

    async def on_mount(self) -> None:
        self._runtime_ready, self._runtime_stop = anyio.Event(), anyio.Event()
        self.runtime = self._runtime_factory()
        self._runtime_worker = self.run_worker(
            self._host_runtime(self.runtime), name="runtime", exit_on_error=True
        )
        await self._runtime_ready.wait()
        self.set_interval(1 / FLUSH_HZ, self.flush_events)
        self.set_interval(1.0, self._tick)
        self._refresh_status()
        if self._initial_task:
            self._start_task(self._initial_task)
        else:
            self.query_one("#prompt", Input).focus()

    async def _host_runtime(self, runtime: Runtime) -> None:
        """Keep the runtime's task group open for the life of the app, in a task of its own."""
        async with runtime:
            self._events = runtime.subscribe(maxsize=4096)
            assert self._runtime_ready is not None and self._runtime_stop is not None
            self._runtime_ready.set()
            await self._runtime_stop.wait()

    # -- events to widgets ---------------------------------------------------------------

    def flush_events(self) -> None:
        """Apply every pending event to the screen now (the timer calls this ~20 times a second)."""
        if self._events is None:
            return
        batch = self._events.drain()
        if not batch:
            return
        changes = self.model.apply(batch)
        tree = self.query_one(AgentTree)
        if changes.added:
            tree.add_agents(self.model.agents[i] for i in changes.added)
        tree.relabel(self.model.agents[i] for i in changes.relabel)
        transcript = self.query_one(Transcript)
        if self.selected_id is None and changes.added:
            self.selected_id = changes.added[0]
        if self.selected_id in changes.added:
            tree.select_agent(self.selected_id)
            tree.focus()  # agent keys act on it; a question moves focus to the prompt below
        selected = self.selected_id
        if selected is not None and transcript.agent_id != selected:
            transcript.show(self.model.agents[selected])
        elif selected in changes.transcript:
            transcript.sync(self.model.agents[selected])
        if changes.queries_changed:
            self._update_prompt()
            if self.model.open_queries:
                self.bell()
        if changes.relabel:
            self.refresh_bindings()
        self._refresh_status()

    def _tick(self) -> None:
        live = [a for a in self.model.agents.values() if a.status.is_live]
        self.query_one(AgentTree).relabel(live)
        self._refresh_status()

    def _refresh_status(self) -> None:
        runtime = self.runtime
        if runtime is None:
            return
        starts = [a.started_ts for a in self.model.agents.values() if a.started_ts is not None]
        elapsed = self.clock.now() - min(starts) if starts else None
        self.query_one(StatusBar).show(
            self.model, runtime.provider.name, runtime.provider.model, elapsed
        )

    @on(Tree.NodeHighlighted, "#tree")
    def _agent_highlighted(self, event: Tree.NodeHighlighted[str]) -> None:
        agent_id = event.node.data
        if agent_id is not None and agent_id in self.model.agents and agent_id != self.selected_id:
            self.selected_id = agent_id
            self.query_one(Transcript).show(self.model.agents[agent_id])
            self._update_prompt()
            self.refresh_bindings()

    # -- the prompt: tasks and answers ---------------------------------------------------

    def _selected(self) -> str | None:
        return self.selected_id

    def _update_prompt(self) -> None:
        prompt = self.query_one("#prompt", Input)
        selected = self._selected()
        agent = self.model.agents.get(selected) if selected else None
        if agent is not None and agent.open_query is not None:
            prompt.placeholder = (
                f"Answer {agent.name}: {agent.open_query_prompt} (enter answers, esc declines)"
            )
            prompt.focus()  # typed letters must answer, never trigger agent keys
        else:
            prompt.placeholder = "What should the agents do? (enter starts it)"

    @on(Input.Submitted, "#prompt")
    def _prompt_submitted(self, event: Input.Submitted) -> None:
        text = event.value.strip()
        event.input.clear()
        selected = self._selected()
        agent = self.model.agents.get(selected) if selected else None
        if agent is not None and agent.open_query is not None:
            self._answer(agent.open_query, text or None)
            self.query_one(AgentTree).focus()
        elif text:
            self._start_task(text)

    def _start_task(self, task: str) -> None:
        assert self.runtime is not None
        self.selected_id = self.runtime.start(task)

    def _answer(self, query_id: str, text: str | None) -> None:
        assert self.runtime is not None
        try:
            self.runtime.answer(query_id, text)
        except AgentUIError as exc:
            self.notify(str(exc), severity="warning")

    # -- actions ---------------------------------------------------------------------------

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action in {"pause", "resume", "cancel", "delete"}:
            selected = self._selected()
            agent = self.model.agents.get(selected) if selected else None
            if agent is None:
                return None
            live = agent.status.is_live
            if action == "pause":
                return (live and agent.status is not AgentStatus.PAUSED) or None
            if action == "resume":
                return agent.status is AgentStatus.PAUSED or None
            if action == "cancel":
                return live or None
            if action == "delete":
                return agent.status is not AgentStatus.DELETED or None
        if action == "next_question":
            return bool(self.model.open_queries) or None
        return True

    def _command(self, name: str, call: Callable[[str], None]) -> None:
        selected = self._selected()
        if selected is None:
            self.notify("Select an agent first.", severity="warning")
            return
        try:
            call(selected)
        except AgentUIError as exc:
            self.notify(f"{name}: {exc}", severity="warning")

    def action_pause(self) -> None:
        assert self.runtime is not None
        self._command("pause", self.runtime.pause)

    def action_resume(self) -> None:
        assert self.runtime is not None
        self._command("resume", self.runtime.resume)

    def action_cancel(self) -> None:
        assert self.runtime is not None
        self._command("cancel", self.runtime.cancel)

    def action_delete(self) -> None:
        assert self.runtime is not None
        self._command("delete", self.runtime.delete)

    def action_new_task(self) -> None:
        prompt = self.query_one("#prompt", Input)
        prompt.placeholder = "What should the agents do? (enter starts it)"
        prompt.focus()

    def action_next_question(self) -> None:
        if not self.model.open_queries:
            return
        selected = self._selected()
        agent_ids = list(dict.fromkeys(self.model.open_queries.values()))
        after = agent_ids.index(selected) + 1 if selected in agent_ids else 0
        target = agent_ids[after % len(agent_ids)]
        self.selected_id = target
        self.query_one(AgentTree).select_agent(target)
        self.query_one(Transcript).show(self.model.agents[target])
        self._update_prompt()
        self.query_one("#prompt", Input).focus()

    def action_decline(self) -> None:
        selected = self._selected()
        agent = self.model.agents.get(selected) if selected else None
        if agent is not None and agent.open_query is not None:
            self._answer(agent.open_query, None)

    async def action_quit(self) -> None:
        # Let the runtime cancel its agents and record their ends before the app goes.
        if self._runtime_stop is not None and self._runtime_worker is not None:
            self._runtime_stop.set()
            await self._runtime_worker.wait()
        self.exit(0)
