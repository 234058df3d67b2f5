"""The help screen and the README's key table list the same keys, each where it works."""

from __future__ import annotations

import re
from pathlib import Path

from agentui.tui.app.keymap import DEFAULT_KEY_MAP

README = Path(__file__).resolve().parents[2] / "README.md"


def readme_keys() -> set[tuple[str, str]]:
    """(key, where) for every key in the README's `| key | where | does |` table."""
    lines = README.read_text(encoding="utf-8").splitlines()
    start = lines.index("| key | where | does |") + 2
    keys: set[tuple[str, str]] = set()
    for line in lines[start:]:
        if not line.startswith("|"):
            break
        key_cell, where = (cell.strip() for cell in line.split("|")[1:3])
        keys |= {(key.lower(), where) for key in re.findall(r"`([^`]+)`", key_cell)}
    return keys


def help_keys() -> set[tuple[str, str]]:
    """(key, where) for every row of the help screen: `p / space`, `esc esc` are keys apart."""
    return {
        (key, where)
        for keys, where, _ in DEFAULT_KEY_MAP.help_rows()
        for key in keys.replace(" / ", " ").replace(",", " ").split()
    }


def test_help_lists_every_key_the_readme_lists_and_no_other() -> None:
    readme, shown = readme_keys(), help_keys()
    assert len(readme) > 20, "the README's key table was found"
    assert readme - shown == set(), "in the README, not in help"
    assert shown - readme == set(), "in help, not in the README"
