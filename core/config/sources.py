"""Where settings come from: config.toml, then AGENTUI_* variables, then command-line flags.

This gathers the values as given, with where each came from, and checks nothing but that the
file is TOML; core/config/settings.py validates them. Apart because the app draws its first frame from a
few of them before pydantic is loaded (tui/cli/first_frame.py): importing pydantic and the settings'
models is about a third of a start-up.
"""

from __future__ import annotations

import copy
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentui.core.support.errors import AgentUIError
from agentui.core.support.paths import config_dir

CONFIG_FILE = "config.toml"
PROVIDERS = ("scripted", "anthropic", "openai", "google")  # and replay:DIR

# Settings an environment variable may set, by dotted key. An empty variable counts as unset.
# (A test keeps every key a setting config.py knows.)
ENV_VARIABLES: dict[str, str] = {
    "provider": "AGENTUI_PROVIDER",
    "model": "AGENTUI_MODEL",
    "base_url": "AGENTUI_BASE_URL",
    "narrator_model": "AGENTUI_NARRATOR_MODEL",
    "theme": "AGENTUI_THEME",
    "workflow": "AGENTUI_WORKFLOW",
    "approval.policy": "AGENTUI_APPROVAL",
    "monologue.enabled": "AGENTUI_MONOLOGUE",
    "limits.max_iterations": "AGENTUI_MAX_ITERATIONS",
    "limits.tool_timeout_s": "AGENTUI_TOOL_TIMEOUT",
    "limits.max_depth": "AGENTUI_MAX_DEPTH",
    "limits.max_live_children": "AGENTUI_MAX_CHILDREN",
}


class ConfigError(AgentUIError):
    """A setting is invalid; the message names the file (or variable, or flag) and the key."""


def config_path() -> Path:
    return config_dir() / CONFIG_FILE


@dataclass(frozen=True, slots=True)
class Flag:
    """A value given on the command line, with the option that gave it (for messages)."""

    option: str
    value: Any


@dataclass(frozen=True, slots=True)
class GatheredSettings:
    """Every value given, not yet validated: the file's, with variables and flags over them."""

    path: Path
    file_found: bool
    file_data: dict[str, Any]  # the file alone: its own mistakes are named as the file's
    data: dict[str, Any]
    # Where each value that is not a default came from, by dotted key: "file",
    # "env AGENTUI_MODEL", "flag --model".
    sources: dict[str, str] = field(default_factory=dict)

    def source(self, key: str) -> str:
        return self.sources.get(key, "default")

    def origin(self, key: str) -> str:
        """Where the value came from, as messages say it: the file, a variable, an option."""
        return described(self.sources.get(key, "file"), self.path)

    def value(self, key: str) -> Any:
        """The value given for a dotted key ("monologue.enabled"), None when none was."""
        section, _, name = key.partition(".")
        value = self.data.get(section)
        if name:
            return value.get(name) if isinstance(value, dict) else None
        return value


def gather_settings(
    flags: Mapping[str, Flag] | None = None,
    *,
    environ: Mapping[str, str] = os.environ,
    path: Path | None = None,
) -> GatheredSettings:
    """The file's values, then the variables', then `flags` (the options the person gave).

    Raises ConfigError for a file that cannot be read or is not TOML."""
    path = path if path is not None else config_path()
    raw = _read_file(path)
    sources = {key: "file" for key in _file_keys(raw)}
    data = copy.deepcopy(raw)
    for key, variable in ENV_VARIABLES.items():
        value = environ.get(variable, "")
        if value.strip():
            _set(data, key, value.strip())
            sources[key] = f"env {variable}"
    for key, given in (flags or {}).items():
        if given.value is not None:
            _set(data, key, given.value)
            sources[key] = f"flag {given.option}"
    return GatheredSettings(path, path.is_file(), raw, data, sources)


def described(source: str, path: Path) -> str:
    """Where a value came from, as messages say it: the file, a variable, an option."""
    if source.startswith("env "):
        return f"environment variable {source[4:]}"
    if source.startswith("flag "):
        return f"option {source[5:]}"
    return f"config file {path}"


def _read_file(path: Path) -> dict[str, Any]:
    try:
        text = path.read_text("utf-8")
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"config file {path}: cannot be read: {exc}") from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"config file {path}: not valid TOML: {exc}") from None


# Tables of the file whose keys are settings of their own (shown and sourced one by one).
SECTION_NAMES = (
    "limits", "approval", "monologue", "profiles", "scene", "sandbox", "attention", "budget",
)  # fmt: skip


def _file_keys(raw: Mapping[str, Any]) -> list[str]:
    keys: list[str] = []
    for key, value in raw.items():
        if (key in SECTION_NAMES or key == "prices") and isinstance(value, dict):
            keys.extend(f"{key}.{inner}" for inner in value)
        elif key == "mcp" and isinstance(value, dict) and isinstance(value.get("servers"), dict):
            keys.extend(f"mcp.servers.{name}" for name in value["servers"])
        else:
            keys.append(key)
    return keys


def _set(data: dict[str, Any], key: str, value: Any) -> None:
    section, _, name = key.partition(".")
    if name:
        table = data.get(section)
        if not isinstance(table, dict):
            table = data[section] = {}
        table[name] = value
    else:
        data[key] = value
