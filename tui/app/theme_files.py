"""Theme files: the shipped ones (themes/*.toml) and the person's (config dir `themes/`).

The shipped files are read straight into textual.theme.Theme: the default theme is one of them
and the first frame is drawn with it, before pydantic loads (a test validates each one as a
person's file is). The person's files are validated (theme_check.py): a broken one is skipped
with a warning naming the file, the key and what is wrong, never fatal.
"""

from __future__ import annotations

import tomllib
from importlib.util import find_spec
from pathlib import Path

from textual.theme import Theme

from agentui.core.support.paths import config_dir

# Re-exported: the app and its tests read the status colours here, beside the theme files.
from agentui.tui.app.theme_variables import AGENT_VARIABLES as AGENT_VARIABLES

DEFAULT_THEME = "agentui-dark"


def user_theme_dir() -> Path:
    return config_dir() / "themes"


def shipped_theme_texts() -> list[tuple[str, str]]:
    """Each shipped theme file's name (as messages give it) and text, by file name."""
    # The package's folder, not importlib.resources: that module (and the zipfile it brings)
    # cost ~2 ms of start-up, for files that are always plain files in an installed package.
    spec = find_spec("agentui.themes")
    assert spec is not None and spec.submodule_search_locations is not None  # package data
    folder = Path(next(iter(spec.submodule_search_locations)))
    files = sorted(folder.glob("*.toml"), key=lambda p: p.name)
    return [(f"themes/{p.name}", p.read_text("utf-8")) for p in files]


def load_themes() -> tuple[list[Theme], list[str]]:
    """Every shipped theme and every user theme; problems come back as warnings."""
    themes = [Theme(**tomllib.loads(text)) for _, text in shipped_theme_texts()]
    warnings: list[str] = []
    user_dir = user_theme_dir()
    paths = sorted(user_dir.glob("*.toml")) if user_dir.is_dir() else []
    if not paths:
        return themes, warnings
    from agentui.tui.app.theme_check import ThemeFileError, parse_theme

    for path in paths:
        try:
            themes.append(parse_theme(path.read_text("utf-8"), str(path)))
        except (OSError, UnicodeDecodeError) as exc:
            warnings.append(f"{path}: cannot read ({exc})")
        except ThemeFileError as exc:
            warnings.append(str(exc))
    return themes, warnings
