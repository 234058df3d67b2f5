"""`agentui profiles`: every agent profile with its kind and where it came from, and the files
that could not be loaded with why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from agentui.core.profiles.catalog import ProfileCatalog
from agentui.core.support.terminal_text import clipped

HEADER = ("NAME", "KIND", "FROM", "DESCRIPTION")
MIN_DESCRIPTION = 20


def profiles_document(catalog: ProfileCatalog, directory: Path) -> dict[str, Any]:
    """What the listing shows, as data (`agentui profiles --json`), every string exact (the
    description too: the listing runs its lines together)."""
    return {
        "profiles": [
            {
                "name": profile.name,
                "kind": profile.kind,
                "from": profile.origin.describe(),
                "description": profile.description,
            }
            for profile in catalog
        ],
        "directory": str(directory),
        "problems": list(catalog.problems),
    }


def format_profiles(catalog: ProfileCatalog, directory: Path, width: int = 100) -> str:
    """The listing as text (not yet made safe for a terminal: the caller does that)."""
    rows = [HEADER]
    rows += [
        (
            profile.name,
            profile.kind,
            profile.origin.describe(),
            " ".join(profile.description.split()),
        )
        for profile in catalog
    ]
    widths = [max(len(row[i]) for row in rows) for i in range(3)]
    room = max(width - sum(widths) - 6, MIN_DESCRIPTION)
    lines = []
    for row in rows:
        cells = [row[i].ljust(widths[i]) for i in range(3)]
        description = clipped(row[3], room)
        lines.append("  ".join([*cells, description]).rstrip())
    lines += [
        "",
        f"Your own profiles go in {directory} (*.toml or *.json); one named like a built-in "
        "replaces it.",
    ]
    if catalog.problems:
        lines += ["", f"Left out or unusable ({len(catalog.problems)}):"]
        lines += [f"  {problem}" for problem in catalog.problems]
    return "\n".join(lines) + "\n"
