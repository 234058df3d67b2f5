"""The first frame's settings read as given agree with the validated ones, or are not read.

The app draws its first frame from the theme, the monologue switch and the provider settings
before the settings are validated (tui/cli/first_frame.py). Whatever a file, a variable or an
option gives, that reading is either what validation keeps or refused (the settings are then
validated before the screen opens).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from agentui.core.config.settings import ConfigError, Flag, load_config
from agentui.core.config.sources import gather_settings
from agentui.tui.cli.first_frame import first_frame, plain_frame_settings, validated_frame_settings

NAMES = st.sampled_from(["agentui-light", "sonnet", "x", " ", "", " padded ", "\t"])
VALUES: dict[str, st.SearchStrategy[Any]] = {
    "provider": st.sampled_from(["scripted", "openai", "google", "claude", "replay:d", "", 3]),
    "model": NAMES | st.integers(),
    "theme": NAMES | st.booleans(),
    "base_url": st.sampled_from(["http://localhost:1/v1", " https://x.org ", "localhost"]),
    "monologue.enabled": st.booleans() | st.sampled_from(["off", "true", "maybe", 0]),
}
VARIABLES = {"provider": "AGENTUI_PROVIDER", "theme": "AGENTUI_THEME", "model": "AGENTUI_MODEL"}


def _toml(key: str, value: Any) -> str:
    if isinstance(value, bool):
        written = "true" if value else "false"
    elif isinstance(value, str):
        written = '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    else:
        written = str(value)
    section, _, name = key.partition(".")
    return f"[{section}]\n{name} = {written}\n" if name else f"{key} = {written}\n"


@st.composite
def given_settings(draw: st.DrawFn) -> tuple[str, dict[str, str], dict[str, Flag]]:
    """Some of the frame's keys, each from any of the file, a variable and an option (a
    variable or an option over the file's value, which may be bad)."""
    file_lines, environ, flags = [], {}, {}
    for key, values in VALUES.items():
        for where in draw(st.sets(st.sampled_from(["file", "variable", "option"]))):
            value = draw(values)
            if where == "file":
                file_lines.append(_toml(key, value))
            elif where == "variable" and key in VARIABLES and isinstance(value, str):
                environ[VARIABLES[key]] = value
            elif where == "option":
                flags[key] = Flag(f"--{key}", value)
    # Sections last: TOML puts every key after a [table] header into that table.
    file_lines.sort(key=lambda line: line.startswith("["))
    return "".join(file_lines), environ, flags


@settings(max_examples=100, deadline=None)
@given(given_settings())
def test_the_settings_read_as_given_are_the_validated_ones(
    tmp_path_factory: pytest.TempPathFactory,
    case: tuple[str, dict[str, str], dict[str, Flag]],
) -> None:
    text, environ, flags = case
    path = tmp_path_factory.mktemp("config") / "config.toml"
    path.write_text(text)
    plain = plain_frame_settings(gather_settings(flags, environ=environ, path=path))
    try:
        validated = validated_frame_settings(load_config(flags, environ=environ, path=path))
    except ConfigError:
        # Every key given here is one the frame reads: a bad one, even in the file under a
        # variable or an option, is said before the screen opens.
        assert plain is None
        return
    if plain is not None:
        assert plain == validated


def test_what_the_first_frame_shows(tmp_path: Path) -> None:
    path = tmp_path / "config.toml"
    path.write_text('theme = "agentui-light"\n[monologue]\nenabled = false\n')
    gathered = gather_settings({"model": Flag("--model", "haiku")}, environ={}, path=path)
    plain = plain_frame_settings(gathered)
    assert plain is not None
    frame = first_frame(plain, script=None, environ={"OPENAI_API_KEY": "k"})
    assert frame.theme == "agentui-light"
    assert frame.monologue_shown is False
    assert frame.provider_label == ("openai", "haiku")
    assert frame.provider_notice == "picked by OPENAI_API_KEY"


@pytest.mark.parametrize(
    ("text", "flags"),
    [
        ('theme = "  "\n', {}),
        ("[monologue]\nenabled = 1\n", {}),
        ("monologue = 3\n", {}),
        ('base_url = "http://localhost:8080/v1"\n', {}),
        ("", {"provider": Flag("--provider", "replay:somewhere")}),
        # The file's own bad value, under an option: validation still refuses the file.
        ('model = " "\n', {"model": Flag("--model", "haiku")}),
        ("[monologue]\nenabled = 1\n", {"monologue.enabled": Flag("--no-monologue", False)}),
    ],
)
def test_anything_not_plainly_valid_is_validated_first(
    tmp_path: Path, text: str, flags: dict[str, Flag]
) -> None:
    path = tmp_path / "config.toml"
    path.write_text(text)
    assert plain_frame_settings(gather_settings(flags, environ={}, path=path)) is None
