"""A director's decision held to the scene as it stands: what the round can act on.

The rules (the seed's "Director wins", made concrete):
- only the scene's characters can be named; anything else is ignored, with its path;
- an activation brings in a character not in the scene; a deactivation takes out one that is;
  a character cannot enter and leave in one pass (the activation stands);
- who acts must be in the scene once the activations are applied; each acts once per pass;
- order: the acting list by priority then name, then any character entering or leaving whom
  the list left out (so every entry and exit is played, with its guidance);
- state updates and world updates are applied before anyone acts; an update that changes
  nothing is dropped; for one character, a later update of a field beats an earlier one;
- a field left empty, only whitespace, or a placeholder ("unchanged", "same") sets nothing:
  it never wipes what the scene knows (core/director_payloads.set_value).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from agentui.core.protocol.director_payloads import CharacterGuidance, DirectorDecision, PlannedTurn
from agentui.core.scene.ordering import acting_order
from agentui.core.scene.record import SceneRecord


@dataclass(slots=True)
class VettedDecision:
    turns: list[PlannedTurn] = field(default_factory=list)  # in acting order
    activations: dict[str, str] = field(default_factory=dict)  # name -> entry guidance
    deactivations: dict[str, str] = field(default_factory=dict)  # name -> exit guidance
    state_changes: dict[str, dict[str, str]] = field(default_factory=dict)  # name -> changes
    world_changes: dict[str, str] = field(default_factory=dict)
    open_guidance: str = ""
    ignored: list[str] = field(default_factory=list)  # `path: why`


def vet_decision(decision: DirectorDecision, scene: SceneRecord) -> VettedDecision:
    vetted = VettedDecision(open_guidance=decision.open_guidance)
    known = {c.name: c for c in scene.characters}
    ignored = vetted.ignored

    for index, activation in enumerate(decision.activations):
        where, name = f"activations[{index}]", activation.name
        if name not in known:
            ignored.append(f"{where}: no character named {name!r} in this scene")
        elif known[name].active:
            ignored.append(f"{where}: {name} is already in the scene")
        elif name in vetted.activations:
            ignored.append(f"{where}: {name} is activated twice")
        else:
            vetted.activations[name] = activation.entry_guidance

    for index, deactivation in enumerate(decision.deactivations):
        where, name = f"deactivations[{index}]", deactivation.name
        if name not in known:
            ignored.append(f"{where}: no character named {name!r} in this scene")
        elif name in vetted.activations:
            ignored.append(f"{where}: {name} enters in this pass; it cannot also leave")
        elif not known[name].active:
            ignored.append(f"{where}: {name} is not in the scene")
        elif name in vetted.deactivations:
            ignored.append(f"{where}: {name} is deactivated twice")
        else:
            vetted.deactivations[name] = deactivation.exit_guidance

    in_scene = {name for name, state in known.items() if state.active} | set(vetted.activations)
    listed: dict[str, str] = {}  # name -> guidance, the first entry for each
    acting = []
    for index, one in enumerate(decision.acting_characters):
        where, name = f"acting_characters[{index}]", one.name
        if name not in known:
            ignored.append(f"{where}: no character named {name!r} in this scene")
        elif name not in in_scene:
            ignored.append(f"{where}: {name} is not in the scene and is not activated")
        elif name in listed:
            ignored.append(f"{where}: {name} is listed twice; it acts once per pass")
        else:
            listed[name] = one.guidance
            acting.append(one)
    order = [one.name for one in acting_order(acting)]
    order += [name for name in vetted.activations if name not in listed]
    order += [name for name in vetted.deactivations if name not in listed]
    vetted.turns = [
        PlannedTurn(
            name=name,
            guidance=CharacterGuidance(
                directive=listed.get(name, ""),
                entry=vetted.activations.get(name, ""),
                exit=vetted.deactivations.get(name, ""),
            ),
        )
        for name in order
    ]

    for index, update in enumerate(decision.state_updates):
        name = update.name
        if name not in known:
            ignored.append(f"state_updates[{index}]: no character named {name!r} in this scene")
            continue
        state = known[name]
        changes = {k: v for k, v in update.changes().items() if getattr(state, k) != v}
        if changes:
            vetted.state_changes.setdefault(name, {}).update(changes)

    facts = scene.world.facts
    for world_update in decision.world_updates:
        change = world_update.change()
        if change is None:
            continue
        key, value = change
        if facts.get(key) != value:
            vetted.world_changes[key] = value
        else:
            vetted.world_changes.pop(key, None)
    return vetted
