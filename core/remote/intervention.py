"""The seed's `userIntervention` as the runtime's commands, all of them or none.

The body's parts were checked against each other when it was read (api_models.Intervention).
Before the first command runs, each command is checked against the one table of what applies
to the agent now (`Runtime.check`, protocol/commands.py): the agent exists, and a refusal comes
before anything changed, in the runtime's own words. After that each command applies: the
comment first (a steer, a modify or a delete), then the status.
"""

from __future__ import annotations

from agentui.core.protocol.commands import Command
from agentui.core.remote.api_models import Intervention
from agentui.core.runtime import Runtime

_STATUS_COMMANDS = {"paused": Command.PAUSE, "running": Command.RESUME, "cancelled": Command.CANCEL}


def apply_intervention(runtime: Runtime, agent_id: str, body: Intervention) -> None:
    runtime.node(agent_id)  # an unknown agent is a 404 before anything is done
    comment = None if body.user_comment == "unchanged" else body.user_comment
    if comment == "delete" or body.status == "deleted":
        runtime.delete(agent_id)
        return
    commands: list[Command] = []
    if comment == "modify":
        commands.append(Command.MODIFY)
    elif comment is not None:
        commands.append(Command.STEER)
    if body.status in _STATUS_COMMANDS:
        commands.append(_STATUS_COMMANDS[body.status])
    for command in commands:
        runtime.check(agent_id, command)
    for command in commands:
        if command is Command.MODIFY:
            runtime.modify(agent_id, content=body.user_content)
        elif command is Command.STEER:
            assert comment is not None
            runtime.steer(agent_id, comment)
        elif command is Command.PAUSE:
            runtime.pause(agent_id)
        elif command is Command.RESUME:
            runtime.resume(agent_id)
        else:
            runtime.cancel(agent_id)
