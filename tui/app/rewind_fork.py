"""Rewind or fork the selected agent (`w` on the panes, or the palette): the window of its
steps (screens/time_travel.py), then the runtime's `rewind` or `fork_from` through the port.

A rewind and a fork are checked against core's table first (Command.REWIND, Command.FORK), as
every command is: a scene's own agent has no steps, in the table's words. The steps come
from the screen's StepBook (the events it drew), or for an agent of a resumed session drawn
before any event, from the local runtime that recalled them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from agentui.core.protocol.commands import Command, allowed, refusal
from agentui.core.support.errors import AgentUIError
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.checked_command import run_checked

if TYPE_CHECKING:
    from agentui.core.agent.steps import Step
    from agentui.tui.app.app import AgentUIApp
    from agentui.tui.app.screens.time_travel import TimeTravelChoice


class RewindAndFork:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app

    def steps_of(self, agent_id: str) -> list[Step]:
        """The agent's steps: as the screen folded them, else as the local runtime has them."""
        book = self.app.main.steps
        if book.knows(agent_id):
            return book.steps(agent_id)
        local = self.app.host.local_runtime
        if local is None:
            return []
        try:
            return local.steps(agent_id)
        except AgentUIError:
            return []

    def open(self) -> None:
        """The steps window for the selected agent, its chosen block's step highlighted."""
        app, main = self.app, self.app.main
        agent = main.selected_agent()
        fold = main.fold
        if agent is None or fold is None or app.host.runtime is None:
            app.notify("Select an agent first (a replay has nothing to rewind).", timeout=4)
            return
        view = fold.view(agent)
        refused = refusal(agent.name, view, Command.REWIND, app.host.mode)
        if refused is not None and Command.FORK not in allowed(view, app.host.mode):
            app.notify(f"rewind or fork: {refused}", severity="warning")
            return
        steps = self.steps_of(agent.id)
        if not steps:
            app.notify(f"{agent.name} has no step yet: nothing to go back to.", timeout=4)
            return
        block = main.transcript_view.selected_block()
        chosen = block.entry.uid if block is not None and block.entry.agent_id == agent.id else None
        picked = main.steps.step_at(agent.id, [e.uid for e in agent.entries], chosen)
        from agentui.tui.app.screens.time_travel import TimeTravelScreen

        agent_id = agent.id
        window = TimeTravelScreen(
            agent.name,
            steps,
            picked,
            rewind_question=lambda step: self.rewind_question(agent_id, step),
            can_rewind=refused is None,
        )
        app.open_overlay(window, lambda choice: self.apply(agent_id, choice))

    def rewind_question(self, agent_id: str, step: int) -> str:
        """What a rewind to `step` does, as the confirmation asks it."""
        main = self.app.main
        agent = main.model.agents[agent_id]
        live = [
            main.model.agents[child]
            for child in main.steps.started_after(agent_id, step)
            if child in main.model.agents
        ]
        stops = " Its run stops first." if agent.status.is_live else ""
        if live:
            names = ", ".join(visible_controls(child.name) for child in live[:5]) + (
                ", …" if len(live) > 5 else ""
            )
            aside = (
                f" {len(live)} subagent{'s' if len(live) != 1 else ''} started after it "
                f"{'are' if len(live) != 1 else 'is'} cancelled and set aside ({names})."
            )
        else:
            aside = ""
        return (
            f"Rewind {visible_controls(agent.name)} to step #{step}?{stops} What came after it is set aside "
            f"(kept in the log).{aside} Then it waits for you, paused: r continues it, s steers "
            "it, m modifies it."
        )

    def apply(self, agent_id: str, choice: TimeTravelChoice | None) -> None:
        """Do what the window chose (None: nothing)."""
        app = self.app
        runtime = app.host.runtime
        if choice is None or runtime is None:
            return
        if choice.kind == "rewind":
            run_checked(
                app,
                "rewind",
                agent_id,
                Command.REWIND,
                lambda: runtime.rewind(agent_id, choice.step),
            )
            return
        forked: list[str] = []
        taken = run_checked(
            app,
            "fork",
            agent_id,
            Command.FORK,
            lambda: forked.append(
                runtime.fork_from(agent_id, choice.step, instructions=choice.instructions)
            ),
        )
        if taken and forked[0]:  # "" attached: the server's started listener selects it
            app.main.select_when_shown(forked[0])
