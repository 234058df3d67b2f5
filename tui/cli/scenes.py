"""`agentui scenes`: the scenes agentui ships, with their casts (waiting characters marked)."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from typing import Any

from agentui.core.scene.scene_file import SceneFile
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import visible_controls

HEADER = ("NAME", "TITLE", "CHARACTERS")


def main(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="agentui scenes",
        description="List the directed scenes agentui ships: name, title and characters "
        "(play one with agentui --scene NAME).",
    )
    parser.add_argument("--json", action="store_true", help="one JSON document: the scenes")
    args = parser.parse_args(argv)
    from agentui.core.scene.scene_loading import shipped_scenes

    if args.json:
        print(terminal_json(scenes_document(shipped_scenes()), indent=2))
        return 0
    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(visible_controls(format_scenes(shipped_scenes(), columns)))
    return 0


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
