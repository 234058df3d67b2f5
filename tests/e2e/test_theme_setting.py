"""A theme named in config, a variable or --theme that does not exist stops with status 2."""

from __future__ import annotations

from pathlib import Path

from .test_headless import agentui, child_env


def test_an_unknown_theme_flag_is_a_bad_setting(tmp_path: Path) -> None:
    done = agentui("--theme", "nope", env=child_env(AGENTUI_CONFIG_DIR=str(tmp_path)))
    assert done.returncode == 2
    assert "unknown theme 'nope'" in done.stderr and "agentui-dark" in done.stderr
    assert "option --theme: theme:" in done.stderr, "it says where the name came from"


def test_an_unknown_theme_in_the_config_file_is_a_bad_setting(tmp_path: Path) -> None:
    (tmp_path / "config.toml").write_text('theme = "gone"\n', encoding="utf-8")
    done = agentui(env=child_env(AGENTUI_CONFIG_DIR=str(tmp_path)))
    assert done.returncode == 2
    assert "unknown theme 'gone'" in done.stderr
    assert f"config file {tmp_path / 'config.toml'}: theme:" in done.stderr


def test_an_unknown_theme_in_a_variable_names_it_and_the_closest_theme(tmp_path: Path) -> None:
    env = child_env(AGENTUI_CONFIG_DIR=str(tmp_path), AGENTUI_THEME="agentui-drak")
    done = agentui(env=env)
    assert done.returncode == 2
    assert "environment variable AGENTUI_THEME: theme: unknown theme 'agentui-drak'" in done.stderr
    assert "did you mean 'agentui-dark'?" in done.stderr


def test_a_theme_named_whose_file_is_broken_says_why_the_file_was_skipped(tmp_path: Path) -> None:
    (tmp_path / "themes").mkdir()
    (tmp_path / "themes" / "broken.toml").write_text('name = "broken-one"\nprimary = 12\n')
    done = agentui("--theme", "broken-one", env=child_env(AGENTUI_CONFIG_DIR=str(tmp_path)))
    assert done.returncode == 2
    lines = done.stderr.splitlines()
    assert "unknown theme 'broken-one'" in lines[0]
    assert lines[1] == (
        f"agentui: theme file skipped: {tmp_path / 'themes' / 'broken.toml'}: "
        "primary: Input should be a valid string (got 12)"
    )
