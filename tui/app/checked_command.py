"""A command to the runtime about one agent, given only when core's table (`allowed`) holds it
for that agent now, as the fold the screen draws tells it; else the table's own words say why
(`refusal`). The runtime applies the same table again: what it refuses is said too."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from agentui.core.protocol.commands import Command, refusal

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


def run_checked(
    app: AgentUIApp, what: str, agent_id: str, command: Command, call: Callable[[], None]
) -> bool:
    """Run `call` if `command` applies to `agent_id` now; True when the runtime took it."""
    fold = app.main.fold
    agent = fold.agents.get(agent_id) if fold is not None else None
    if fold is None or agent is None or app.host.runtime is None:
        app.notify(f"{what}: that agent is not here (a replay, or it is gone)", severity="warning")
        return False
    refused = refusal(agent.name, fold.view(agent), command, app.host.mode)
    if refused is not None:
        app.notify(f"{what}: {refused}", severity="warning")
        return False
    return app.run_command(what, lambda: call())
