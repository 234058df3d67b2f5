"""The theme files registered and the theme picked before the first frame (set after mount, a
theme restyles every widget): the one asked for, else the person's last pick, else the
default."""

from __future__ import annotations

from typing import Any

from textual.app import App

from agentui.tui.app.textual_compat import set_theme_before_start
from agentui.tui.app.theme_files import DEFAULT_THEME, load_themes
from agentui.tui.app.ui_state import load_ui_state


def choose_theme(app: App[Any], wanted: str | None, remember: bool) -> list[tuple[str, str]]:
    """Register the theme files and set `app.theme`; returns the warnings to show (title,
    text)."""
    warnings: list[tuple[str, str]] = []
    themes, skipped = load_themes()
    for theme in themes:
        app.register_theme(theme)
    warnings += [("Theme file skipped", warning) for warning in skipped]
    remembered = load_ui_state().get("theme") if remember else None
    chosen = wanted or remembered or DEFAULT_THEME
    if chosen not in app.available_themes:
        # The person's last pick, if it still exists, beats the default.
        fallback = remembered if remembered in app.available_themes else DEFAULT_THEME
        warnings.append(("", f"Unknown theme {chosen!r}; using {fallback}."))
        chosen = fallback
    set_theme_before_start(app, chosen)
    return warnings
