"""The seed's `userIntervention` as the runtime's commands, all of them or none.

The body's parts were checked against each other when it was read (api_models.Intervention).
Before the first command runs, the agent is checked against what every part needs (it exists;
it is live for anything but a delete; a comment or a modify is for an agent a model runs), so a
refusal comes before anything changed. After that each command applies: the comment first (a
steer, a modify or a delete), then the status.
"""

from __future__ import annotations

from agentui.core.remote.api_models import Intervention
from agentui.core.runtime import Runtime
from agentui.core.support.errors import CommandRefusedError

_STATUS_COMMANDS = {"paused": "pause", "running": "resume", "cancelled": "cancel"}


def apply_intervention(runtime: Runtime, agent_id: str, body: Intervention) -> None:
    node = runtime.node(agent_id)  # an unknown agent is a 404 before anything is done
    comment = None if body.user_comment == "unchanged" else body.user_comment
    if comment == "delete" or body.status == "deleted":
        runtime.delete(agent_id)
        return
    commands = []
    if comment == "modify":
        commands.append("modify")
    elif comment is not None:
        commands.append("steer")
    if body.status in _STATUS_COMMANDS:
        commands.append(_STATUS_COMMANDS[body.status])
    if not commands:
        return
    if not node.status.is_live:
        raise CommandRefusedError(f"cannot {commands[0]} {node.name}: it is {node.status}")
    if node.driver is not None and commands[0] in ("modify", "steer"):
        raise CommandRefusedError(
            f"{node.name} is a {node.driver} that agentui runs, not a model: it cannot be "
            f"{'modified' if comment == 'modify' else 'steered'}"
        )
    for command in commands:
        if command == "modify":
            runtime.modify(agent_id, content=body.user_content)
        elif command == "steer":
            assert comment is not None
            runtime.steer(agent_id, comment)
        elif command == "pause":
            runtime.pause(agent_id)
        elif command == "resume":
            runtime.resume(agent_id)
        else:
            runtime.cancel(agent_id)
