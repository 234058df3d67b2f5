"""Theme files: TOML mapped onto textual.theme.Theme, from the package and the config dir.

Format (see themes/dark.toml): top-level keys are Theme's fields (name, primary, secondary,
warning, error, success, accent, foreground, background, surface, panel, boost, dark,
luminosity_spread, text_alpha); `[variables]` holds CSS variables, including agentui's
status colours `agent-running`, `agent-waiting`, `agent-paused`, `agent-modified`,
`agent-done`, `agent-error`, `agent-stopped`. A broken file is reported, never fatal.
"""

from __future__ import annotations

import dataclasses
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from textual.color import Color, ColorParseError
from textual.theme import Theme

from agentui.core.paths import config_dir

# agentui's own variables with defaults, so Textual's built-in themes work too.
AGENT_VARIABLES: dict[str, str] = {
    "agent-running": "#4CC38A",
    "agent-waiting": "#E879F9",
    "agent-paused": "#F5A524",
    "agent-modified": "#38BDF8",
    "agent-done": "#7BC99A",
    "agent-error": "#F06A6A",
    "agent-stopped": "#6B7280",
}

_FIELDS = {f.name for f in dataclasses.fields(Theme)}
_COLOR_FIELDS = {
    "primary", "secondary", "warning", "error", "success", "accent",
    "foreground", "background", "surface", "panel", "boost",
}  # fmt: skip
DEFAULT_THEME = "agentui-dark"


class ThemeFileError(ValueError):
    pass


def parse_theme(text: str, source: str) -> Theme:
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"{source}: not valid TOML ({exc})") from None
    unknown = sorted(set(data) - _FIELDS)
    if unknown:
        raise ThemeFileError(
            f"{source}: unknown key {', '.join(map(repr, unknown))}; "
            f"theme keys are {', '.join(sorted(_FIELDS))}"
        )
    for key in ("name", "primary"):
        if not isinstance(data.get(key), str) or not data[key]:
            raise ThemeFileError(f"{source}: '{key}' is required and must be a string")
    variables = data.get("variables", {})
    if not isinstance(variables, dict) or not all(isinstance(v, str) for v in variables.values()):
        raise ThemeFileError(f"{source}: [variables] must map names to strings")
    to_check = {k: v for k, v in data.items() if k in _COLOR_FIELDS}
    to_check |= {k: v for k, v in variables.items() if k in AGENT_VARIABLES}
    for key, value in to_check.items():
        try:
            Color.parse(value)
        except (ColorParseError, TypeError):
            raise ThemeFileError(f"{source}: '{key}' is not a colour: {value!r}") from None
    try:
        return Theme(**data)
    except TypeError as exc:
        raise ThemeFileError(f"{source}: {exc}") from None


def user_theme_dir() -> Path:
    return config_dir() / "themes"


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every shipped theme and every user theme; problems come back as warnings."""
    themes: list[Theme] = []
    warnings: list[str] = []
    shipped = sorted(
        (p for p in resources.files("agentui.themes").iterdir() if p.name.endswith(".toml")),
        key=lambda p: p.name,
    )
    sources: list[tuple[str, str]] = [(f"themes/{p.name}", p.read_text("utf-8")) for p in shipped]
    user_dir = user_theme_dir()
    if user_dir.is_dir():
        for path in sorted(user_dir.glob("*.toml")):
            try:
                sources.append((str(path), path.read_text("utf-8")))
            except (OSError, UnicodeDecodeError) as exc:
                warnings.append(f"{path}: cannot read ({exc})")
    for source, text in sources:
        try:
            themes.append(parse_theme(text, source))
        except ThemeFileError as exc:
            warnings.append(str(exc))
    return themes, warnings
