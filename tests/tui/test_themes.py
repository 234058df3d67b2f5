"""Theme files: the shipped ones load, user ones are added, broken ones warn, the choice sticks."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from agentui.tui.theme_files import AGENT_VARIABLES, ThemeFileError, load_themes, parse_theme
from agentui.tui.ui_state import load_ui_state

from .helpers import make_app

pytestmark = pytest.mark.anyio

GOOD = """
name = "mine"
primary = "#112233"
dark = true
[variables]
agent-running = "#00ff00"
"""


def test_the_shipped_themes_load_with_every_status_colour() -> None:
    themes, warnings = load_themes()
    names = {t.name for t in themes}
    assert {"agentui-dark", "agentui-light", "agentui-high-contrast"} <= names
    assert warnings == []
    for theme in themes:
        assert set(AGENT_VARIABLES) <= set(theme.variables), theme.name


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("name = 'x'\nprimary = '#000'\ncolour = 'red'", "unknown key 'colour'"),
        ("primary = '#000'", "'name' is required"),
        ("name = 'x'\nprimary = 'not a colour'", "'primary' is not a colour"),
        (
            "name = 'x'\nprimary = '#000'\n[variables]\nagent-running = 'nope'",
            "'agent-running' is not a colour",
        ),
        ("name = [", "not valid TOML"),
    ],
)
def test_a_broken_theme_file_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ThemeFileError, match=problem):
        parse_theme(text, "mine.toml")


def test_user_themes_load_and_broken_ones_become_warnings() -> None:
    themes_dir = Path(os.environ["AGENTUI_CONFIG_DIR"]) / "themes"
    themes_dir.mkdir(parents=True, exist_ok=True)
    (themes_dir / "mine.toml").write_text(GOOD)
    (themes_dir / "broken.toml").write_text("name = 'b'\nprimary = 'blue-ish'")
    try:
        themes, warnings = load_themes()
        assert "mine" in {t.name for t in themes}
        assert len(warnings) == 1 and "broken.toml" in warnings[0]
    finally:
        for path in themes_dir.iterdir():
            path.unlink()


async def test_the_app_starts_despite_a_broken_theme_and_remembers_the_choice() -> None:
    themes_dir = Path(os.environ["AGENTUI_CONFIG_DIR"]) / "themes"
    themes_dir.mkdir(parents=True, exist_ok=True)
    (themes_dir / "broken.toml").write_text("name = 'b'")
    try:
        app = make_app(remember_theme=True)
        async with app.run_test() as pilot:
            assert app.theme == "agentui-dark"
            app.theme = "agentui-high-contrast"
            await pilot.pause()
        assert load_ui_state()["theme"] == "agentui-high-contrast"
        again = make_app(remember_theme=True)
        async with again.run_test():
            assert again.theme == "agentui-high-contrast"
        chosen = make_app(remember_theme=True, theme="agentui-light")
        async with chosen.run_test():
            assert chosen.theme == "agentui-light", "an explicit choice beats the remembered one"
        unknown = make_app(remember_theme=False, theme="no-such-theme")
        async with unknown.run_test():
            assert unknown.theme == "agentui-dark"
        last = load_ui_state()["theme"]
        assert last != "agentui-dark"
        typo = make_app(remember_theme=True, theme="no-such-theme")
        async with typo.run_test():
            assert typo.theme == last, "a typo falls back to the last theme used"
    finally:
        for path in themes_dir.iterdir():
            path.unlink()
