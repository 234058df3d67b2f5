"""Small choices the app remembers between runs (the theme), kept apart from config.toml."""

from __future__ import annotations

import json
from pathlib import Path

from agentui.core.support.paths import state_dir


def _path() -> Path:
    return state_dir() / "ui.json"


def load_ui_state() -> dict[str, str]:
    try:
        data = json.loads(_path().read_text("utf-8"))
    except (OSError, ValueError):
        return {}  # first run, or a damaged file: start from defaults
    return (
        {k: v for k, v in data.items() if isinstance(k, str) and isinstance(v, str)}
        if isinstance(data, dict)
        else {}
    )


def save_ui_state(state: dict[str, str]) -> None:
    path = _path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(json.dumps(state, indent=2), "utf-8")
        tmp.replace(path)
    except OSError:
        pass  # remembering the theme is a convenience; never fail the app over it
