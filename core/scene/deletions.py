"""The person's deletes of a scene's character agents: each takes its character out of the scene.

Deleting a character deactivates it. A delete during the character's own turn ends
that turn as deleted, and the round takes the character out then (rounds.py). A delete at any
other time, from the tree (an agent of an earlier turn, between rounds), is seen here: the
scene watches the runtime's events for the person's deletes, and its round takes each such
character out before its next director pass or turn (`CharacterDeactivated(by="person")`, so
the fold, and a resumed session's scene, have it as every other change).

Only a delete aimed at a character's agent counts (its `intervention:applied`): deleting a
round, whose subtree holds its characters' agents, takes no one out.
"""

from __future__ import annotations

from agentui.core.bus import Subscription
from agentui.core.protocol.events import InterventionApplied
from agentui.core.scene.scene_state import SceneState


class PersonDeletes:
    """The deletes the person made since the last look, read from the runtime's events."""

    def __init__(self, events: Subscription) -> None:
        """`events`: a subscription made when the scene starts; closed with `close`."""
        self._events = events

    def characters_taken_out(self, scene: SceneState) -> list[str]:
        """The scene's active characters one of whose agents the person deleted since the
        last call, in the order of the deletes (each once)."""
        names: list[str] = []
        for event in self._events.drain():
            if not (isinstance(event, InterventionApplied) and event.kind == "delete"):
                continue
            name = scene.character_agents.get(event.agent_id)
            character = scene.record.character(name) if name is not None else None
            if character is not None and character.active and character.name not in names:
                names.append(character.name)
        return names

    def close(self) -> None:
        self._events.close()
