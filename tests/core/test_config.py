"""config.toml < AGENTUI_* environment variables < flags, with the source of every value."""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from agentui.core.config import (
    ENV_VARIABLES,
    Config,
    ConfigError,
    Flag,
    config_path,
    format_settings,
    load_config,
)
from agentui.core.limits import Limits
from agentui.core.pricing import DEFAULT_PRICES

FILE = """
provider = "scripted"
model = "from-file"
theme = "file-theme"
workflow = "plain"

[limits]
max_iterations = 11
tool_timeout_s = 12.5

[approval]
policy = "yes"

[monologue]
enabled = false
max_buffer = 4
model = "sonnet"

[prices."my-model"]
input = 1.0
output = 2.0
cache_write = 1.5
cache_read = 0.1
"""


def _file(tmp_path: Path, text: str = FILE) -> Path:
    path = tmp_path / "config.toml"
    path.write_text(text, "utf-8")
    return path


def test_the_file_lives_in_the_config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AGENTUI_CONFIG_DIR", str(tmp_path))
    assert config_path() == tmp_path / "config.toml"


def test_without_a_file_every_value_is_a_default(tmp_path: Path) -> None:
    loaded = load_config(environ={}, path=tmp_path / "absent.toml")
    assert not loaded.file_found
    assert loaded.config == Config()
    assert loaded.config.limits == Limits()
    assert {s.source for s in loaded.settings()} == {"default"}


def test_the_file_sets_what_it_names(tmp_path: Path) -> None:
    loaded = load_config(environ={}, path=_file(tmp_path))
    config = loaded.config
    assert loaded.file_found
    assert (config.provider, config.model, config.theme) == ("scripted", "from-file", "file-theme")
    assert config.workflow == "plain"
    assert config.approval.policy == "yes"
    assert (config.limits.max_iterations, config.limits.tool_timeout_s) == (11, 12.5)
    assert config.limits.max_tool_calls == Limits().max_tool_calls
    assert (config.monologue.enabled, config.monologue.max_buffer) == (False, 4)
    assert loaded.source("limits.max_iterations") == "file"
    assert loaded.source("limits.max_tool_calls") == "default"
    assert loaded.source("prices.my-model") == "file"


def test_prices_from_the_file_sit_over_the_built_in_table(tmp_path: Path) -> None:
    table = load_config(environ={}, path=_file(tmp_path)).config.price_table()
    assert table.models["my-model"].output == 2.0
    assert table.models["claude-sonnet-4-6"] == DEFAULT_PRICES.models["claude-sonnet-4-6"]


def test_narrator_model_wins_over_the_monologue_table(tmp_path: Path) -> None:
    path = _file(tmp_path, FILE.replace('workflow = "plain"', 'narrator_model = "haiku"'))
    config = load_config(environ={}, path=path).config
    assert config.monologue.model == "sonnet"
    assert config.monologue_config().model == "haiku"
    assert config.monologue_config().max_buffer == 4


@pytest.mark.parametrize(
    ("key", "variable", "option", "file_value", "env_value", "flag_value", "read"),
    [
        ("model", "AGENTUI_MODEL", "--model", "from-file", "from-env", "from-flag", str),
        ("theme", "AGENTUI_THEME", "--theme", "file-theme", "env-theme", "flag-theme", str),
        (
            "limits.max_iterations",
            "AGENTUI_MAX_ITERATIONS",
            "--max-iterations",
            11,
            "22",
            33,
            int,
        ),
        ("limits.tool_timeout_s", "AGENTUI_TOOL_TIMEOUT", "--tool-timeout", 12.5, "5", 1.5, float),
        ("monologue.enabled", "AGENTUI_MONOLOGUE", "--no-monologue", False, "1", False, bool),
    ],
)
def test_file_then_environment_then_flag(
    tmp_path: Path,
    key: str,
    variable: str,
    option: str,
    file_value: object,
    env_value: str,
    flag_value: object,
    read: type,
) -> None:
    path = _file(tmp_path)

    def value(loaded: object) -> object:
        data: object = loaded.config  # type: ignore[attr-defined]
        for part in key.split("."):
            data = getattr(data, part)
        return data

    only_file = load_config(environ={}, path=path)
    assert (value(only_file), only_file.source(key)) == (file_value, "file")

    with_env = load_config(environ={variable: env_value}, path=path)
    assert (value(with_env), with_env.source(key)) == (read(env_value), f"env {variable}")

    with_flag = load_config(
        {key: Flag(option, flag_value)}, environ={variable: env_value}, path=path
    )
    assert (value(with_flag), with_flag.source(key)) == (flag_value, f"flag {option}")


def test_an_empty_variable_counts_as_unset(tmp_path: Path) -> None:
    loaded = load_config(environ={"AGENTUI_MODEL": "  "}, path=_file(tmp_path))
    assert (loaded.config.model, loaded.source("model")) == ("from-file", "file")


def test_every_variable_names_a_real_setting() -> None:
    loaded = load_config(environ={}, path=Path("/nonexistent/config.toml"))
    keys = {s.key for s in loaded.settings()}
    assert set(ENV_VARIABLES) <= keys
    assert {"provider", "model", "narrator_model", "theme", "workflow"} <= set(ENV_VARIABLES)


# -- invalid settings: one message naming where, the key and the problem -----------------------


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        (
            "[limits]\nmax_iterations = 0\n",
            "limits.max_iterations",
            "greater than or equal to 1 (got 0)",
        ),
        ("[limits]\nmax_iteratons = 5\n", "limits.max_iteratons", "not a setting agentui knows"),
        ('workflow = "fancy"\n', "workflow", "'six-step' or 'plain' (got 'fancy')"),
        ('provider = "openai"\n', "provider", "must be scripted, anthropic or replay:DIR"),
        ('[approval]\npolicy = "never"\n', "approval.policy", "'ask' or 'yes'"),
        (
            "[monologue]\nmin_buffer = 5\nmax_buffer = 2\n",
            "monologue.max_buffer",
            "at least min_buffer",
        ),
        (
            '[prices."m"]\ninput = 1.0\ncache_write = 1.0\ncache_read = 1.0\n',
            "prices.m.output",
            "missing",
        ),
        ('model = ""\n', "model", "must not be empty"),
        ("limits = 3\n", "limits", "valid dictionary"),
    ],
)
def test_a_bad_value_names_the_file_the_key_and_the_problem(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    message = str(caught.value)
    assert message.startswith(f"config file {path}: {key}: "), message
    assert problem in message
    assert "\n" not in message, "one problem, one line"


def test_an_api_key_in_the_file_is_pointed_at_the_environment(tmp_path: Path) -> None:
    path = _file(tmp_path, 'anthropic_api_key = "sk-ant-oops"\n')
    with pytest.raises(ConfigError, match="read from the environment") as caught:
        load_config(environ={}, path=path)
    assert "sk-ant-oops" not in str(caught.value), "the secret is not repeated"


def test_broken_toml_names_the_file_and_the_line(tmp_path: Path) -> None:
    path = _file(tmp_path, 'model = "ok"\nlimits.max_iterations = \n')
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    assert str(caught.value).startswith(f"config file {path}: not valid TOML")
    assert "line 2" in str(caught.value)


def test_several_problems_are_one_message_with_a_line_each(tmp_path: Path) -> None:
    path = _file(tmp_path, "[limits]\nmax_iterations = 0\nllm_retries = -1\n")
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    lines = str(caught.value).splitlines()
    assert [line.split(": ")[1] for line in lines] == [
        "limits.max_iterations",
        "limits.llm_retries",
    ]


def test_a_bad_file_is_reported_even_when_a_variable_would_override_it(tmp_path: Path) -> None:
    path = _file(tmp_path, "[limits]\nmax_iterations = 0\n")
    with pytest.raises(ConfigError, match="config file"):
        load_config(environ={"AGENTUI_MAX_ITERATIONS": "5"}, path=path)


def test_a_bad_variable_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(environ={"AGENTUI_MAX_ITERATIONS": "many"}, path=tmp_path / "none.toml")
    assert str(caught.value).startswith(
        "environment variable AGENTUI_MAX_ITERATIONS: limits.max_iterations: "
    )
    assert "'many'" in str(caught.value)


def test_a_bad_flag_is_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(
            {"limits.max_iterations": Flag("--max-iterations", 0)},
            environ={},
            path=tmp_path / "none.toml",
        )
    assert str(caught.value).startswith("option --max-iterations: limits.max_iterations: ")


# -- config show -------------------------------------------------------------------------------


def test_show_is_toml_of_the_effective_values_with_their_sources(tmp_path: Path) -> None:
    loaded = load_config(
        {"model": Flag("--model", "flagged")},
        environ={"AGENTUI_THEME": "env-theme"},
        path=_file(tmp_path),
    )
    shown = format_settings(loaded, environ={})

    assert shown.splitlines()[0] == f"# config file: {tmp_path / 'config.toml'}"
    assert 'model = "flagged"' in shown and "# flag --model" in shown
    assert "# env AGENTUI_THEME" in shown
    line = next(x for x in shown.splitlines() if x.startswith("limits.max_iterations"))
    assert line.split("#")[-1].strip() == "file"
    parsed = tomllib.loads(shown)  # the comments keep it valid TOML
    assert parsed["limits"]["max_iterations"] == 11
    assert parsed["monologue"]["enabled"] is False
    assert parsed["prices"]["my-model"]["output"] == 2.0
    assert parsed["theme"] == "env-theme"


def test_show_resolves_the_provider_from_the_key(tmp_path: Path) -> None:
    loaded = load_config(environ={}, path=tmp_path / "none.toml")
    offline = format_settings(loaded, environ={})
    online = format_settings(loaded, environ={"ANTHROPIC_API_KEY": "sk-test-never-shown"})
    assert 'provider = "scripted"' in offline and "no ANTHROPIC_API_KEY" in offline
    assert 'provider = "anthropic"' in online and "ANTHROPIC_API_KEY is set" in online
    assert "sk-test-never-shown" not in online
