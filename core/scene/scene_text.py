"""A scene as it was played, as plain text: each round's input and what each character did.

This is the scene root's result, so `agentui run --scene` prints the story on stdout. Model
text is copied as it is; whoever shows it on a terminal passes it through terminal_text.
"""

from __future__ import annotations

from agentui.core.scene.scene_state import SceneState

PERSON = "You"


def scene_text(state: SceneState) -> str:
    blocks = [f"# {state.file.title}"]
    for round_record in state.record.rounds:
        request = round_record.request
        lines = [f"## Round {round_record.number}"]
        if request.kind == "user_input":
            lines.append(f"{PERSON}: {request.text}")
        else:
            lines.append("(the scene went on by itself)")
        lines += [f"{m.speaker}: {m.text.strip()}" for m in round_record.messages]
        blocks.append("\n\n".join(lines))
    if len(blocks) == 1:
        blocks.append("(no round was played)")
    return "\n\n".join(blocks) + "\n"
