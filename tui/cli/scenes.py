"""`agentui scenes`: the scenes agentui ships, with their casts (waiting characters marked)."""

from __future__ import annotations

from typing import Any

from agentui.core.scene.scene_file import SceneFile

HEADER = ("NAME", "TITLE", "CHARACTERS")


def scenes_document(scenes: dict[str, SceneFile]) -> dict[str, Any]:
    """What the listing shows, as data (`agentui scenes --json`), every string exact."""
    return {
        "scenes": [
            {
                "name": name,
                "title": scene.title,
                "characters": [{"name": c.name, "waiting": not c.active} for c in scene.characters],
            }
            for name, scene in scenes.items()
        ]
    }


def format_scenes(scenes: dict[str, SceneFile], width: int = 100) -> str:
    """The listing as text (not yet made safe for a terminal: the caller does that)."""
    rows = [HEADER]
    for name, scene in scenes.items():
        cast = ", ".join(c.name + ("" if c.active else " (waiting)") for c in scene.characters)
        rows.append((name, scene.title, cast))
    widths = [max(len(row[i]) for row in rows) for i in range(2)]
    room = max(width - sum(widths) - 4, 20)
    lines = []
    for row in rows:
        cast = row[2] if len(row[2]) <= room else row[2][: room - 1] + "…"
        lines.append(f"{row[0].ljust(widths[0])}  {row[1].ljust(widths[1])}  {cast}".rstrip())
    lines += [
        "",
        "Play one: agentui --scene NAME (or agentui run --scene NAME); --scene also takes the "
        "path of your own .toml scene file.",
    ]
    return "\n".join(lines) + "\n"
