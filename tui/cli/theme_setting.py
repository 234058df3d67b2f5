"""A theme named in the settings or with --theme, checked before the screen opens."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from agentui.core.support.errors import AgentUIError

if TYPE_CHECKING:
    from agentui.core.config.settings import LoadedConfig


def add_theme(options: dict[str, Any], app_class: type, loaded: LoadedConfig) -> None:
    """The settings' theme, checked, into the app's `options` (when its class takes one)."""
    theme = loaded.config.theme
    if theme is not None and _accepts(app_class, "theme"):
        check_theme(theme, loaded.origin("theme"))
        options["theme"] = theme


def _accepts(function: Callable[..., Any], parameter: str) -> bool:
    from inspect import signature  # only for this check: not loaded on every start

    return parameter in signature(function).parameters


def check_theme(name: str, where: str) -> None:
    """A theme named in config, a variable or --theme must exist: a bad setting, like any
    other, stops before the screen opens (exit 2) instead of drawing something else."""
    from difflib import get_close_matches

    from textual.theme import BUILTIN_THEMES

    from agentui.tui.app.theme_files import load_themes

    themes, skipped = load_themes()  # otherwise a broken file's warning shows in the app
    known = sorted({theme.name for theme in themes} | set(BUILTIN_THEMES))
    if name not in known:
        close = get_close_matches(name, known, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        # It may be the theme of a file that could not be read: why each was skipped.
        broken = [f"theme file skipped: {warning}" for warning in skipped]
        raise AgentUIError(
            "\n".join(
                [
                    f"{where}: theme: unknown theme {name!r}{hint}; the themes are: "
                    + ", ".join(known),
                    *broken,
                ]
            )
        )
