"""`agentui profiles`: every agent profile with its kind and where it came from, and the files
that could not be loaded with why."""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from agentui.core.config.sources import ConfigError
from agentui.core.profiles.catalog import ProfileCatalog, agents_dir, load_catalog
from agentui.core.support.terminal_json import terminal_json
from agentui.core.support.terminal_text import clipped, visible_controls

HEADER = ("NAME", "KIND", "FROM", "DESCRIPTION")
MIN_DESCRIPTION = 20


def main(argv: Sequence[str]) -> int:
    directory = agents_dir()
    parser = argparse.ArgumentParser(
        prog="agentui profiles",
        description="List the agent profiles (built-in, and your own in "
        f"{directory}): name, kind (text, json object, json schema), where each came from, "
        "and the files that could not be loaded, with why.",
    )
    parser.add_argument(
        "--json", action="store_true", help="one JSON document: the profiles and the bad files"
    )
    args = parser.parse_args(argv)
    from agentui.core.config.settings import load_config
    from agentui.core.tools.builtin import builtin_tools
    from agentui.core.tools.mcp.config import McpConfig

    catalog = load_catalog(directory)
    try:
        mcp = load_config().config.mcp
    except ConfigError:
        mcp = McpConfig()  # a bad config is reported by the commands that use it
    # An MCP server's tools are listed once it runs: names of a configured one are not missing.
    catalog.problems += catalog.naming_missing_tools(builtin_tools().names(), mcp.may_offer)
    if args.json:
        print(terminal_json(profiles_document(catalog, directory), indent=2))
        return 0
    columns = shutil.get_terminal_size((100, 24)).columns
    sys.stdout.write(visible_controls(format_profiles(catalog, directory, columns)))
    return 0


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
