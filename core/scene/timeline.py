"""The per-round timeline of a session's directed scenes, as Markdown (`export --format rounds`).

The seed's audit log: for each round, the person's input, each director pass (its turns in
order, its open guidance, what of it was ignored), each character's turn, every state change
with its source, entries and exits, and how the round closed with the running summary; then
the state at the end and the context each section used (the rolling usage record). It is
written from the scene's events as the fold kept them, in the order they happened.
"""

from __future__ import annotations

from agentui.core.protocol import events as ev
from agentui.core.protocol.director_payloads import STATE_FIELDS
from agentui.core.scene.scene_state import RoundProgress, SceneState, scenes_of
from agentui.core.state import RunState
from agentui.core.state.scene_items import scene_line


def rounds_timeline(state: RunState) -> list[str]:
    """The timeline's lines; none when the session played no scene."""
    out: list[str] = []
    for root_id, scene in scenes_of(state).items():
        root = state.agents.get(root_id)
        name = root.name if root is not None else root_id
        out += ["", f"## Scene: {scene.file.title} ({scene.source}) · {name}"]
        if scene.file.description:
            out += ["", scene.file.description]
        for progress in _own_rounds(scene, state):
            out += ["", *_round_lines(progress, state)]
        out += ["", "### State at the end", "", *_state_lines(scene)]
        if len(scene.context_usage):
            out += ["", "### Context per section", "", *_context_lines(scene)]
    return out


def _own_rounds(scene: SceneState, state: RunState) -> list[RoundProgress]:
    """The rounds played under this scene's root (a continued scene lists the earlier ones
    under its first root)."""
    return [
        p
        for p in scene.rounds
        if (agent := state.agents.get(p.round_id)) is not None and agent.parent_id == scene.scene_id
    ]


def _round_lines(progress: RoundProgress, state: RunState) -> list[str]:
    request = progress.request
    said = f"you: {request.text}" if request.kind == "user_input" else "the scene went on"
    lines = [f"### Round {progress.number} · {said}", ""]
    for event in progress.events:
        line = scene_line(event)
        if line is None or isinstance(event, ev.RoundStarted):
            continue
        who = _agent_name(event, state)
        title = f"**{line.title}**" + (f" ({who})" if who else "")
        body = line.text.replace("\n", "\n  ")
        lines.append(f"- {title}: {body}")
        if isinstance(event, ev.RoundCompleted) and event.running_summary:
            summary = event.running_summary.replace("\n", "\n  > ")
            lines.append(f"- **running summary**:\n  > {summary}")
    return lines


def _agent_name(event: ev.Event, state: RunState) -> str:
    if isinstance(event, ev.DirectorPassCompleted):
        agent_id = event.director_id
    elif isinstance(event, ev.CharacterCompleted):
        agent_id = event.character_id
    else:
        return ""
    agent = state.agents.get(agent_id)
    return agent.name if agent is not None else ""


def _state_lines(scene: SceneState) -> list[str]:
    record = scene.record
    lines = [f"- world: {'; '.join(f'{k}: {v}' for k, v in record.world.facts.items()) or '-'}"]
    for character in record.characters:
        known = [
            f"{field} {getattr(character, field)}"
            for field in STATE_FIELDS
            if getattr(character, field)
        ]
        presence = "in the scene" if character.active else "not in the scene"
        lines.append(f"- {character.name} ({presence}): {'; '.join(known) or '-'}")
    return lines


def _context_lines(scene: SceneState) -> list[str]:
    """The context each section used, on average over the scene's recent agent calls."""
    usage = scene.context_usage
    used, given = usage.mean_used(), usage.mean_budgets()
    calls = len(usage)
    lines = [f"Tokens, mean of the last {calls} agent call{'s' if calls != 1 else ''}:", ""]
    lines += [f"- {section}: {used[section]:.0f} used of {given[section]:.0f}" for section in given]
    return lines
