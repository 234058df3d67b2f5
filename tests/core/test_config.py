"""config.toml < AGENTUI_* environment variables < flags, with the source of every value."""

from __future__ import annotations

import math
import tomllib
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from agentui.core.agent.limits import DAY_S, Limits
from agentui.core.config.settings import (
    ENV_VARIABLES,
    Config,
    ConfigError,
    Flag,
    PositiveSeconds,
    Seconds,
    checked_number,
    config_path,
    format_settings,
    load_config,
)
from agentui.core.support.pricing import DEFAULT_PRICES

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


def test_the_tables_sourced_key_by_key_are_the_settings_tables() -> None:
    """config_sources.py names them without loading the models: `config show` gives each of
    their keys its source only while the two lists agree."""
    from agentui.core.config.settings import SECTIONS
    from agentui.core.config.sources import SECTION_NAMES

    assert set(SECTION_NAMES) == set(SECTIONS)


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
        (
            'provider = "mistral"\n',
            "provider",
            "must be scripted, anthropic, openai, google or replay:DIR",
        ),
        ('base_url = "localhost:11434"\n', "base_url", "must be an http:// or https:// address"),
        ('[approval]\npolicy = "never"\n', "approval.policy", "'ask' or 'yes'"),
        (
            "[monologue]\nmin_buffer = 5\nmax_buffer = 2\n",
            "monologue.max_buffer",
            "at least min_buffer",
        ),
        (
            '[prices."m"]\ninput = 1.0\ncache_write = 1.0\ncache_read = 1.0\n',
            "prices.m",
            "missing output",
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


# -- numbers: negative, NaN and infinite values are refused, each named once --------------------


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ("[limits]\nmax_iterations = 100000\n", "limits.max_iterations", "10000 (got 100000)"),
        ("[limits]\ntool_timeout_s = 1e308\n", "limits.tool_timeout_s", "86400 (got 1e+308)"),
        ("[limits]\nmax_duration_s = 1e9\n", "limits.max_duration_s", "604800 (got 1000000000.0)"),
        ("[limits]\nmax_depth = 100000\n", "limits.max_depth", "20 (got 100000)"),
        ("[limits]\nmax_live_children = 5000\n", "limits.max_live_children", "256 (got 5000)"),
        ("[limits]\nmax_tool_calls = 10000000\n", "limits.max_tool_calls", "(got 10000000)"),
        ("[limits]\nmax_messages = 10000000\n", "limits.max_messages", "(got 10000000)"),
        ("[limits]\nllm_retries = 1000\n", "limits.llm_retries", "20 (got 1000)"),
        ("[limits]\nretry_backoff_s = 1e6\n", "limits.retry_backoff_s", "3600 (got 1000000.0)"),
        ("[limits]\ndecision_retries = 99\n", "limits.decision_retries", "10 (got 99)"),
    ],
)
def test_a_limit_past_its_upper_bound_is_refused(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    message = str(caught.value)
    assert message.startswith(f"config file {path}: {key}: Input should be less than or equal")
    assert message.endswith(problem) and "\n" not in message, message


def test_a_limit_as_large_as_its_bound_is_taken(tmp_path: Path) -> None:
    text = "[limits]\nmax_iterations = 10000\ntool_timeout_s = 86400\nmax_depth = 20\n"
    limits = load_config(environ={}, path=_file(tmp_path, text)).config.limits
    assert (limits.max_iterations, limits.tool_timeout_s, limits.max_depth) == (10000, 86400, 20)


def test_a_price_entry_with_several_problems_is_one_line(tmp_path: Path) -> None:
    path = _file(tmp_path, '[prices."x"]\ninput = nan\n')
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    assert str(caught.value) == (
        f"config file {path}: prices.x: input: Input should be a finite number (got nan); "
        "missing output, cache_write, cache_read; "
        "a price is input, output, cache_write, cache_read, in USD per million tokens"
    )


@pytest.mark.parametrize(
    ("text", "key", "problem"),
    [
        ("[limits]\ntool_timeout_s = inf\n", "limits.tool_timeout_s", "finite number (got inf)"),
        ("[limits]\ntool_timeout_s = nan\n", "limits.tool_timeout_s", "finite number (got nan)"),
        ("[limits]\ntool_timeout_s = -1\n", "limits.tool_timeout_s", "greater than 0 (got -1)"),
        ("[limits]\nmax_duration_s = inf\n", "limits.max_duration_s", "finite number (got inf)"),
        ("[limits]\nretry_backoff_s = -0.5\n", "limits.retry_backoff_s", "(got -0.5)"),
        ("[limits]\nretry_backoff_s = +inf\n", "limits.retry_backoff_s", "(got inf)"),
        ("[limits]\nmax_tool_calls = -3\n", "limits.max_tool_calls", "(got -3)"),
        ("[limits]\nmax_iterations = inf\n", "limits.max_iterations", "finite number (got inf)"),
        ("[monologue]\ntimeout_s = inf\n", "monologue.timeout_s", "finite number (got inf)"),
        (
            '[prices."claude-3.5"]\ninput = inf\noutput = 1.0\ncache_write = 1.0\ncache_read = 1.0\n',
            "prices.claude-3.5",
            "input: Input should be a finite number (got inf)",
        ),
    ],
)
def test_a_number_out_of_range_or_not_finite_in_the_file_is_refused(
    tmp_path: Path, text: str, key: str, problem: str
) -> None:
    path = _file(tmp_path, text)
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    message = str(caught.value)
    assert message.startswith(f"config file {path}: {key}: "), message
    assert message.endswith(problem) and message.count("(got ") == 1, message


@pytest.mark.parametrize("written", ["inf", "-inf", "nan", "NaN", "Infinity", "1e999", "-1", "0"])
def test_a_timeout_variable_must_be_a_finite_positive_number(tmp_path: Path, written: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(environ={"AGENTUI_TOOL_TIMEOUT": written}, path=tmp_path / "none.toml")
    message = str(caught.value)
    assert message.startswith("environment variable AGENTUI_TOOL_TIMEOUT: limits.tool_timeout_s: ")
    assert message.count(repr(written)) == 1 and message.count("(got ") == 1, message
    assert "\n" not in message


@pytest.mark.parametrize("written", ["inf", "nan", "-1", "2.5"])
def test_a_count_variable_must_be_a_whole_number_in_range(tmp_path: Path, written: str) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(environ={"AGENTUI_MAX_CHILDREN": written}, path=tmp_path / "none.toml")
    message = str(caught.value)
    assert message.startswith("environment variable AGENTUI_MAX_CHILDREN: limits.max_live_children")
    assert message.count(repr(written)) == 1, message


@pytest.mark.parametrize("value", [math.inf, -math.inf, math.nan, -2.0])
def test_a_timeout_flag_must_be_a_finite_positive_number(tmp_path: Path, value: float) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(
            {"limits.tool_timeout_s": Flag("--tool-timeout", value)},
            environ={},
            path=tmp_path / "none.toml",
        )
    message = str(caught.value)
    assert message.startswith("option --tool-timeout: limits.tool_timeout_s: ")
    assert message.endswith(f"(got {value!r})") and message.count("(got ") == 1, message


def test_a_bad_provider_variable_is_named_once(tmp_path: Path) -> None:
    with pytest.raises(ConfigError) as caught:
        load_config(environ={"AGENTUI_PROVIDER": "mistral"}, path=tmp_path / "none.toml")
    assert str(caught.value) == (
        "environment variable AGENTUI_PROVIDER: provider: "
        "must be scripted, anthropic, openai, google or replay:DIR (got 'mistral')"
    )


def test_a_derived_problem_names_the_value_once(tmp_path: Path) -> None:
    path = _file(tmp_path, "[monologue]\nmin_buffer = 5\nmax_buffer = 2\n")
    with pytest.raises(ConfigError) as caught:
        load_config(environ={}, path=path)
    assert str(caught.value).endswith(
        ": monologue.max_buffer: max_buffer (2) must be at least min_buffer (5)"
    )


@pytest.mark.parametrize(
    ("text", "kind", "problem"),
    [
        ("-1", Seconds, "Input should be greater than or equal to 0 (got '-1')"),
        ("nan", Seconds, "Input should be a finite number (got 'nan')"),
        ("inf", PositiveSeconds, "Input should be a finite number (got 'inf')"),
        ("0", PositiveSeconds, "Input should be greater than 0 (got '0')"),
        ("soon", Seconds, "unable to parse string as a number (got 'soon')"),
    ],
)
def test_numbers_given_as_options_are_checked_like_settings(
    text: str, kind: object, problem: str
) -> None:
    with pytest.raises(ValueError) as caught:
        checked_number(text, kind)
    assert str(caught.value).endswith(problem)
    assert (checked_number("0", Seconds), checked_number("0.25", PositiveSeconds)) == (0.0, 0.25)


@given(st.floats() | st.integers().map(float))
def test_any_timeout_is_either_a_finite_positive_setting_or_one_message(value: float) -> None:
    environ = {"AGENTUI_TOOL_TIMEOUT": repr(value)}
    try:
        loaded = load_config(environ=environ, path=Path("/nonexistent/config.toml"))
    except ConfigError as exc:
        assert str(exc).count("\n") == 0 and str(exc).count(repr(repr(value))) == 1
        assert not (math.isfinite(value) and 0 < value <= DAY_S)
    else:
        timeout = loaded.config.limits.tool_timeout_s
        assert 0 < timeout <= DAY_S and timeout == value


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
    assert 'provider = "scripted"' in offline and "(no API key)" in offline
    assert 'provider = "anthropic"' in online and "ANTHROPIC_API_KEY is set" in online
    assert "sk-test-never-shown" not in online


@pytest.mark.parametrize(
    ("environ", "provider", "why"),
    [
        ({"OPENAI_API_KEY": "sk-open-1"}, "openai", "OPENAI_API_KEY is set"),
        ({"GOOGLE_API_KEY": "AIza-goo-2"}, "google", "GOOGLE_API_KEY is set"),
        (
            {"GEMINI_API_KEY": "AIza-gem-3", "OPENAI_API_KEY": "sk-open-4"},
            "openai",
            "OPENAI_API_KEY is set",
        ),
        (
            {"GEMINI_API_KEY": "AIza-5", "OPENAI_API_KEY": "sk-6", "ANTHROPIC_API_KEY": "sk-ant-7"},
            "anthropic",
            "ANTHROPIC_API_KEY is set",
        ),
    ],
)
def test_show_lists_every_key_as_set_or_not_and_never_its_value(
    tmp_path: Path, environ: dict[str, str], provider: str, why: str
) -> None:
    shown = format_settings(load_config(environ={}, path=tmp_path / "none.toml"), environ)

    assert f'provider = "{provider}"' in shown and why in shown
    for variable in ("ANTHROPIC_API_KEY", "OPENAI_API_KEY", "GEMINI_API_KEY", "GOOGLE_API_KEY"):
        state = "set" if variable in environ else "not set"
        assert f"#   {variable}: {state} (" in shown
    assert not [value for value in environ.values() if value in shown]


def test_base_url_comes_from_the_file_a_variable_or_a_flag(tmp_path: Path) -> None:
    path = _file(tmp_path, 'base_url = "http://localhost:11434/v1"\n')
    from_file = load_config(environ={}, path=path)
    from_env = load_config(environ={"AGENTUI_BASE_URL": "http://127.0.0.1:8000/v1"}, path=path)
    from_flag = load_config(
        {"base_url": Flag("--base-url", "https://openrouter.ai/api/v1")},
        environ={"AGENTUI_BASE_URL": "http://127.0.0.1:8000/v1"},
        path=path,
    )

    assert (from_file.config.base_url, from_file.source("base_url")) == (
        "http://localhost:11434/v1",
        "file",
    )
    assert from_env.source("base_url") == "env AGENTUI_BASE_URL"
    assert from_flag.config.base_url == "https://openrouter.ai/api/v1"
    assert from_flag.source("base_url") == "flag --base-url"
