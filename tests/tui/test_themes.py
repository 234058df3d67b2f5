"""Theme files: the shipped ones load, user ones are added, broken ones warn, the choice sticks.

Every problem in a user's theme file is found at load: the theme is skipped with a warning that
names the file, the key and the value, and it never reaches the picker, where it would crash the
app.
"""

from __future__ import annotations

import dataclasses
import os
from pathlib import Path

import pytest
from textual.command import CommandList, CommandPalette
from textual.theme import Theme
from textual.widgets._toast import Toast

from agentui.tui.app.theme_check import ThemeFile, ThemeFileError, known_variables, parse_theme
from agentui.tui.app.theme_files import AGENT_VARIABLES, load_themes, shipped_theme_texts
from agentui.tui.app.ui_state import load_ui_state

from .helpers import make_app, notifications, settle

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


def test_each_shipped_theme_passes_the_check_a_person_s_file_gets() -> None:
    """They are read unchecked (the first frame is drawn before pydantic loads): each must be
    what the check would make of it."""
    shipped = shipped_theme_texts()
    assert len(shipped) >= 3
    read, _ = load_themes()
    for (source, text), theme in zip(shipped, read, strict=False):
        assert theme == parse_theme(text, source), source


BASE = "name = 'x'\nprimary = '#000'\n"

BROKEN = {
    "unknown key": (BASE + "colour = 'red'", "colour: not a theme key; theme keys are name,"),
    "no name": ("primary = '#000'", "name: required"),
    "empty name": ("name = ''\nprimary = '#000'", "name: String should have at least 1"),
    "name with an escape": ('name = "x\\u001b[2J"\nprimary = "#000"', r"(got 'x\x1b[2J')"),
    "not a colour": (
        "name = 'x'\nprimary = 'not a colour'",
        "primary: not a colour such as 'red', '#RRGGBB' or 'rgb(r, g, b)' (got 'not a colour')",
    ),
    "a number for a colour": (
        BASE + "surface = 5",
        "surface: Input should be a valid string (got 5)",
    ),
    "dark as text": (BASE + "dark = 'no'", "dark: Input should be a valid boolean (got 'no')"),
    "spread as text": (
        BASE + "luminosity_spread = 'wide'",
        "luminosity_spread: Input should be a valid number (got 'wide')",
    ),
    "spread out of range": (BASE + "luminosity_spread = -0.5", "greater than or equal to 0"),
    "alpha not finite": (BASE + "text_alpha = nan", "text_alpha: Input should be a finite number"),
    "ansi as number": (BASE + "ansi = 1", "ansi: Input should be a valid boolean (got 1)"),
    "status colour": (
        BASE + "[variables]\nagent-running = 'nope'",
        "variables: agent-running is not a colour (got 'nope')",
    ),
    "textual colour variable": (
        BASE + "[variables]\nfooter-key-foreground = 'nope'",
        "variables: footer-key-foreground is not a colour (got 'nope')",
    ),
    "text style variable": (
        BASE + "[variables]\nblock-cursor-text-style = 'shiny'",
        "block-cursor-text-style is not a value for text-style",
    ),
    "escape in a variable": (
        BASE + '[variables]\nagent-done = "\\u001b[31m"',
        r"agent-done must be one plain CSS value (no control characters, ';', '{' or '}') "
        r"(got '\x1b[31m')",
    ),
    "CSS smuggled into a variable": (
        BASE + "[variables]\nborder = 'red; background: blue'",
        "border must be one plain CSS value",
    ),
    "unknown variable": (
        BASE + "[variables]\nagent-runing = '#fff'",
        "agent-runing is not a variable Textual or agentui uses (a typo?)",
    ),
    "variable not text": (BASE + "[variables]\nborder = 5", "variables.border: Input should be"),
    "variables not a table": (BASE + "variables = 5", "variables: Input should be a valid dict"),
    "not TOML": ("name = [", "not valid TOML"),
}


@pytest.mark.parametrize(("text", "problem"), BROKEN.values(), ids=BROKEN.keys())
def test_a_broken_theme_file_says_what_is_wrong(text: str, problem: str) -> None:
    with pytest.raises(ThemeFileError) as caught:
        parse_theme(text, "mine.toml")
    message = str(caught.value)
    assert message.startswith("mine.toml: ")
    assert problem in message
    assert "\x1b" not in message, "the value is quoted, its escapes made visible"


def test_every_problem_in_a_file_is_named_once() -> None:
    text = BASE.replace("'#000'", "'nope'") + "dark = 'no'\n[variables]\nborder = 'bad'\n"
    with pytest.raises(ThemeFileError) as caught:
        parse_theme(text, "mine.toml")
    message = str(caught.value)
    for named in ("(got 'nope')", "(got 'no')", "(got 'bad')"):
        assert message.count(named) == 1, message


def test_the_file_model_has_exactly_theme_s_fields() -> None:
    assert set(ThemeFile.model_fields) == {f.name for f in dataclasses.fields(Theme)}


def test_every_variable_may_be_set_to_its_default_and_to_other_values_of_its_kind() -> None:
    variables = "\n".join(f"{name} = {value!r}" for name, value in known_variables().items())
    theme = parse_theme(f"{BASE}[variables]\n{variables}\n", "all.toml")
    assert theme.variables == known_variables()
    kinds = (
        "[variables]\nagent-done = 'ansi_green'\ntext = 'auto 60%'\n"
        "block-cursor-text-style = 'bold underline'\nlink-background = 'initial'\n"
        "footer-key-background = 'transparent'\nborder = 'rgb(10, 20, 30)'\n"
    )
    assert parse_theme(BASE + "luminosity_spread = 1\ntext_alpha = 0\n" + kinds, "k.toml")


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


async def test_a_running_app_skips_broken_user_themes_and_never_offers_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    themes_dir = tmp_path / "themes"
    themes_dir.mkdir()
    broken = {
        "dark-as-text": "dark = 'no'",
        "wide-spread": "luminosity_spread = 'wide'",
        "bad-variable": "[variables]\nfooter-key-foreground = 'nope'",
        "bad-style": "[variables]\nblock-cursor-text-style = 'shiny'",
    }
    for name, extra in broken.items():
        (themes_dir / f"{name}.toml").write_text(f"name = '{name}'\nprimary = '#123456'\n{extra}\n")
    (themes_dir / "mine.toml").write_text(GOOD)

    app = make_app()
    async with app.run_test() as pilot:
        assert app.theme == "agentui-dark", "the app started as usual"
        skipped = [n.message for n in notifications(app) if n.title == "Theme file skipped"]
        assert sorted(Path(m.split(": ")[0]).stem for m in skipped) == sorted(broken)
        app.query_one("#transcript").focus()  # a view key (an empty tree takes words)
        await pilot.press("t")
        assert isinstance(app.screen, CommandPalette)
        commands = app.screen.query_one(CommandList)
        # The palette fills in from a worker: a few turns of the loop.
        await settle(pilot, lambda: commands.option_count == len(app.available_themes))
        offered = {
            str(commands.get_option_at_index(i).prompt) for i in range(commands.option_count)
        }
        assert "mine" in offered and "agentui-light" in offered
        assert not offered & set(broken)
        await pilot.press(*"mine")
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert app.theme == "mine" and app.is_running
        assert app.get_css_variables()["agent-running"] == "#00ff00"


async def test_an_unknown_theme_is_said_in_a_toast_on_the_main_screen() -> None:
    app = make_app(remember_theme=False, theme="no-such-theme")
    async with app.run_test(notifications=True) as pilot:  # tests draw no toast by default
        # Drawn on the main screen, not only kept (said before it had mounted, it was neither).
        await settle(pilot, lambda: bool(app.main.query(Toast)))
        (said,) = [n for n in notifications(app) if n.severity == "warning"]
        assert "no-such-theme" in said.message
