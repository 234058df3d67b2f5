"""agentui's settings: `config.toml`, then environment variables, then command-line flags.

The file is TOML at `config_dir()/config.toml` (`platformdirs.user_config_dir("agentui")`, or
AGENTUI_CONFIG_DIR). Every key is optional:

    provider = "anthropic"        # scripted | anthropic | openai | google | replay:DIR
    model = "sonnet"              # the agents' model (an alias or an id)
    base_url = "http://localhost:11434/v1"   # the provider's endpoint (a local server)
    narrator_model = "haiku"      # the monologue's model (wins over [monologue] model)
    theme = "agentui-dark"
    workflow = "six-step"         # six-step | plain

    [limits]                      # any field of core/agent/limits.py's Limits
    max_iterations = 25
    tool_timeout_s = 30

    [approval]
    policy = "ask"                # ask | yes (run tools that need approval without asking)

    [monologue]                   # any field of MonologueConfig
    enabled = true

    [profiles]                    # agent profiles' JSON answers (core/profiles/config.py)
    json_retries = 2              # an invalid answer goes back with its errors this often
    log_payloads = false          # put each validated payload in its event (debugging)

    [scene]                       # a directed scene's context envelope (core/scene/settings.py)
    max_context_tokens = 16000

    [attention]                   # calling the person back (core/config/attention.py)
    nudge = "notify"

    [mcp.servers.files]           # an MCP server whose tools agents get (core/tools/mcp/config.py)
    command = "npx"
    args = ["-y", "@modelcontextprotocol/server-filesystem", "/home/me/notes"]

    [keys]                        # the app's keys by id (tui/app/keymap.py), comma separated
    pause = "p"
    cancel = "c,x"

    [prices."claude-sonnet-4-6"]  # USD per million tokens; replaces that model's entry
    input = 3.0
    output = 15.0
    cache_write = 3.75
    cache_read = 0.30

Environment variables (ENV_VARIABLES) override the file; flags override both. Each effective
value remembers where it came from, for `agentui config show`. A bad file, variable or flag
raises ConfigError with one message naming where, which key, and what is wrong. API keys are
never read from here: they stay in the environment (ANTHROPIC_API_KEY, OPENAI_API_KEY,
GEMINI_API_KEY or GOOGLE_API_KEY; see providers/keys.py).
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from agentui.core.agent.budget import Budget
from agentui.core.agent.limits import Limits
from agentui.core.config.attention import AttentionSettings

# Gathered there, validated here; what importers of the settings need is named here too.
from agentui.core.config.sources import ENV_VARIABLES as ENV_VARIABLES
from agentui.core.config.sources import (
    PROVIDERS,
    ConfigError,
    Flag,
    GatheredSettings,
    gather_settings,
)
from agentui.core.config.sources import config_path as config_path
from agentui.core.monologue.config import MonologueConfig
from agentui.core.profiles.config import ProfilesConfig
from agentui.core.providers.keys import key_report, provider_by_key
from agentui.core.scene.settings import SceneSettings
from agentui.core.support.pricing import DEFAULT_PRICES, ModelPrice, PriceTable
from agentui.core.support.validation import describe_problem, error_location
from agentui.core.tools.mcp.config import McpConfig
from agentui.core.tools.sandbox_settings import SandboxSettings

REPLAY_PREFIX = "replay:"

Workflow = Literal["six-step", "plain"]
ApprovalPolicy = Literal["ask", "yes"]

# Numbers given as options rather than settings (`--pace`, `--timeout`, `--speed`) are checked
# as settings are: finite, and not below their least value.
Seconds = Annotated[float, Field(ge=0, allow_inf_nan=False)]
PositiveSeconds = Annotated[float, Field(gt=0, allow_inf_nan=False)]


def checked_number(text: str, kind: Any) -> Any:
    """`text` as a number of `kind` (Seconds, PositiveSeconds); ValueError names it once."""
    try:
        return TypeAdapter(kind).validate_python(text)
    except ValidationError as exc:
        raise ValueError(describe_problem(exc.errors()[0])) from None


class ApprovalConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    policy: ApprovalPolicy = Field(
        "ask",
        description="ask: a tool that needs approval waits for the person; yes: it runs "
        "without asking (like --yes).",
    )


class Config(BaseModel):
    """The whole file. Unset keys keep their defaults; None means "the built-in choice"."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    provider: str | None = Field(
        None,
        description="scripted, anthropic, openai, google or replay:DIR; unset: the provider of "
        "the first API key set, else scripted.",
    )
    model: str | None = Field(
        None, description="The agents' model: an alias or an id; unset: the provider's default."
    )
    base_url: str | None = Field(
        None,
        description="The provider's endpoint (a local server); unset: the provider's own "
        "variable (OPENAI_BASE_URL, ...), else its public API.",
    )
    narrator_model: str | None = Field(
        None,
        description="The monologue's model (wins over [monologue] model); unset: [monologue] "
        "model, or Claude's narrator default.",
    )
    theme: str | None = Field(
        None, description="The app's theme; unset: the theme the app remembers, else its default."
    )
    workflow: Workflow = Field(
        "six-step", description="How a task runs: six-step (the workflow) or plain (the bare loop)."
    )
    limits: Limits = Field(default_factory=Limits)
    approval: ApprovalConfig = Field(default_factory=ApprovalConfig)
    monologue: MonologueConfig = Field(default_factory=MonologueConfig)
    profiles: ProfilesConfig = Field(default_factory=ProfilesConfig)
    scene: SceneSettings = Field(default_factory=SceneSettings)
    prices: dict[str, ModelPrice] = Field(
        default_factory=dict,
        description="USD per million tokens by model id; an entry replaces that model's "
        "built-in price.",
    )
    mcp: McpConfig = Field(default_factory=McpConfig)
    sandbox: SandboxSettings = Field(default_factory=SandboxSettings)
    attention: AttentionSettings = Field(default_factory=AttentionSettings)
    # Every root agent's budget (its subtree's; core/agent/budget.py): none by default.
    budget: Budget = Field(default_factory=Budget)
    # Checked here as text only: the ids, key names and collisions are the app's
    # (tui/app/keymap.py), which says what is wrong the same way before the screen opens.
    keys: dict[str, str] = Field(
        default_factory=dict,
        description="The app's keys by id: each id to the keys it takes instead of its own, "
        "comma separated (file only).",
    )

    @field_validator("provider")
    @classmethod
    def _known_provider(cls, value: str | None) -> str | None:
        if value is None or value in PROVIDERS:
            return value
        if value.startswith(REPLAY_PREFIX) and value[len(REPLAY_PREFIX) :]:
            return value
        raise ValueError(
            f"must be scripted, anthropic, openai, google or replay:DIR (got {value!r})"
        )

    @field_validator("base_url")
    @classmethod
    def _web_address(cls, value: str | None) -> str | None:
        if value is None:
            return value
        address = value.strip()
        scheme, _, rest = address.partition("://")
        if scheme.lower() not in ("http", "https") or not rest.strip("/"):
            raise ValueError(
                "must be an http:// or https:// address, like http://localhost:11434/v1"
            )
        return address

    @field_validator("model", "narrator_model", "theme")
    @classmethod
    def _not_blank(cls, value: str | None) -> str | None:
        if value is not None and not value.strip():
            raise ValueError("must not be empty (leave the key out for the default)")
        return value

    def price_table(self) -> PriceTable:
        """The built-in prices with the file's entries over them."""
        return PriceTable.from_dict(
            {k: v.model_dump() for k, v in self.prices.items()}, base=DEFAULT_PRICES
        )

    def monologue_config(self) -> MonologueConfig:
        """[monologue] with `narrator_model` applied."""
        if self.narrator_model is None:
            return self.monologue
        return self.monologue.model_copy(update={"model": self.narrator_model})


# Tables of the file whose keys are settings of their own (shown and sourced one by one).
SECTIONS: dict[str, type[BaseModel]] = {
    "limits": Limits,
    "approval": ApprovalConfig,
    "monologue": MonologueConfig,
    "profiles": ProfilesConfig,
    "scene": SceneSettings,
    "sandbox": SandboxSettings,
    "attention": AttentionSettings,
    "budget": Budget,
}


@dataclass(frozen=True, slots=True)
class Setting:
    key: str  # dotted: "limits.max_iterations", "prices.claude-haiku-4-5"
    value: Any
    source: str  # "default", "file", "env AGENTUI_MODEL", "flag --model"


@dataclass(frozen=True, slots=True)
class LoadedConfig:
    config: Config
    gathered: GatheredSettings  # what was validated, with where each value came from

    @property
    def path(self) -> Path:
        return self.gathered.path

    @property
    def file_found(self) -> bool:
        return self.gathered.file_found

    def source(self, key: str) -> str:
        return self.gathered.source(key)

    def origin(self, key: str) -> str:
        """Where the value came from, as messages say it: the file, a variable, an option."""
        return self.gathered.origin(key)

    def settings(self) -> list[Setting]:
        """Every effective value, in file order, with its source."""
        out: list[Setting] = []
        data = self.config.model_dump(mode="json")
        for key, value in data.items():
            if key == "prices":
                for model, price in self.config.price_table().models.items():
                    dotted = f"prices.{model}"
                    out.append(Setting(dotted, price.model_dump(), self.source(dotted)))
            elif key == "mcp":
                # A server each, its env and headers hidden unless they only name variables.
                for name, server in self.config.mcp.servers.items():
                    dotted = f"mcp.servers.{name}"
                    out.append(Setting(dotted, server.shown(), self.source(dotted)))
            elif key == "keys":
                for name, keys in value.items():
                    out.append(Setting(f"keys.{name}", keys, self.source(key)))
            elif key in SECTIONS:
                for name, inner in value.items():
                    dotted = f"{key}.{name}"
                    out.append(Setting(dotted, inner, self.source(dotted)))
            else:
                out.append(Setting(key, value, self.source(key)))
        return out


def load_config(
    flags: Mapping[str, Flag] | None = None,
    *,
    environ: Mapping[str, str] = os.environ,
    path: Path | None = None,
) -> LoadedConfig:
    """The effective settings: defaults < the file < environment variables < `flags`.

    `flags` maps dotted keys to the values the person gave on the command line (leave out
    the options they did not give). Raises ConfigError naming the culprit.
    """
    return validate_settings(gather_settings(flags, environ=environ, path=path))


def validate_settings(gathered: GatheredSettings) -> LoadedConfig:
    """The gathered values checked; ConfigError names where, which key and what is wrong."""
    path = gathered.path

    def in_the_file(key: str) -> str:
        return f"config file {path}"

    try:
        _check_finite(Config.model_validate(gathered.file_data), gathered.file_data, in_the_file)
    except ValidationError as exc:
        raise _config_error(exc, in_the_file) from None

    try:
        config = Config.model_validate(gathered.data)
    except ValidationError as exc:
        raise _config_error(exc, gathered.origin) from None
    _check_finite(config, gathered.data, gathered.origin)
    return LoadedConfig(config, gathered)


def _check_finite(config: Config, given: Mapping[str, Any], origin: Any) -> None:
    """Refuse an infinite or NaN number anywhere: a limit, timeout or price is a real amount.

    pydantic lets `inf` (or "inf", or 1e999) through a float field unless the field says
    otherwise, and the sections' models live with the code that uses them; one check here
    covers every number a file, variable or flag can set.
    """
    lines: list[str] = []

    def walk(value: Any, where: tuple[str, ...]) -> None:
        if isinstance(value, dict):
            for name, inner in value.items():
                walk(inner, (*where, str(name)))
        elif isinstance(value, float) and not math.isfinite(value):
            key = ".".join(where)
            written = _given(given, where)
            lines.append(f"{origin(key)}: {key}: must be a finite number (got {written!r})")

    walk(config.model_dump(), ())
    if lines:
        raise ConfigError("\n".join(lines))


def _given(data: Mapping[str, Any], where: tuple[str, ...]) -> Any:
    """The value as the person wrote it (a variable's text, a file's number)."""
    value: Any = data
    for part in where:
        value = value.get(part) if isinstance(value, Mapping) else None
    return value


_SECRET_WORDS = ("key", "token", "secret", "password")


def _config_error(exc: ValidationError, origin: Any) -> ConfigError:
    """One message: a line per problem, each naming where, the key and what is wrong."""
    lines: list[str] = []
    for error in exc.errors():
        key = error_location(error, "(the file)")
        lines.append(f"{origin(key)}: {key}: {_problem(key, error)}")
    return ConfigError("\n".join(lines))


def _problem(key: str, error: Any) -> str:
    if error["type"] == "extra_forbidden":
        if any(word in key.lower() for word in _SECRET_WORDS):
            return (
                "not a setting: API keys are read from the environment (ANTHROPIC_API_KEY, "
                "OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY), never from a file"
            )
        return "not a setting agentui knows (a typo, or the wrong table?)"
    if error["type"] == "missing":
        return "missing: this table needs it"
    return describe_problem(error)


# What an unset key means, for `config show`.
_UNSET = {
    "model": "the provider's default",
    "base_url": "the provider's own variable, else its public API",
    "narrator_model": "[monologue] model; the provider's cheap model on Claude, OpenAI, Gemini",
    "theme": "the theme last picked in the app",
}
_ALIGN = 56  # comments line up unless a value is longer than this


def format_settings(loaded: LoadedConfig, environ: Mapping[str, str] = os.environ) -> str:
    """`agentui config show`: every effective value as TOML, with where it came from."""
    found = "" if loaded.file_found else " (not found: nothing read from it)"
    lines = [
        f"# config file: {loaded.path}{found}",
        "# sources: default, file, env VARIABLE, flag --option",
    ]
    rows: list[tuple[str, str]] = []
    for setting in loaded.settings():
        key, value, source = setting.key, setting.value, setting.source
        if key.startswith("prices."):
            key = "prices." + _toml_key(key.removeprefix("prices."))
        elif key.startswith("mcp.servers."):
            key = "mcp.servers." + _toml_key(key.removeprefix("mcp.servers."))
        if key == "provider" and value is None:
            choice = provider_by_key(environ)
            value = choice.provider if choice is not None else "scripted"
            source += f" ({choice.variable} is set)" if choice is not None else " (no API key)"
        if value is None:
            rows.append((f"# {key} = (not set: {_UNSET.get(key, 'built-in')})", source))
        else:
            rows.append((f"{key} = {_toml_value(value)}", source))
    width = min(max(len(text) for text, _ in rows), _ALIGN)
    lines += [f"{text:<{width}}  # {source}" for text, source in rows]
    # Whether each key is there, never its value: keys live in the environment only.
    lines.append("# API keys (from the environment only):")
    lines += [
        f"#   {variable}: {'set' if present else 'not set'} ({provider})"
        for provider, variable, present in key_report(environ)
    ]
    return "\n".join(lines) + "\n"


def _toml_key(key: str) -> str:
    bare = key.replace("-", "").replace("_", "").isalnum() and key.isascii()
    return key if bare else _toml_value(key)


def _toml_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)  # a JSON string is a TOML basic string
    if isinstance(value, dict):
        inner = ", ".join(f"{_toml_key(str(k))} = {_toml_value(v)}" for k, v in value.items())
        return "{ " + inner + " }" if inner else "{}"
    if isinstance(value, list):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return json.dumps(str(value))
