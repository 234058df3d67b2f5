"""Where agentui keeps config, data and UI state (platformdirs; overridable for tests)."""

from __future__ import annotations

import os
from pathlib import Path

import platformdirs

APP_NAME = "agentui"


def _dir(variable: str, default: str) -> Path:
    override = os.environ.get(variable)
    return Path(override) if override else Path(default)


def config_dir() -> Path:
    """Config (config.toml, user themes). AGENTUI_CONFIG_DIR overrides."""
    return _dir("AGENTUI_CONFIG_DIR", platformdirs.user_config_dir(APP_NAME))


def data_dir() -> Path:
    """Data (sessions). AGENTUI_DATA_DIR overrides."""
    return _dir("AGENTUI_DATA_DIR", platformdirs.user_data_dir(APP_NAME))


def state_dir() -> Path:
    """Small remembered choices (the last theme). AGENTUI_STATE_DIR overrides."""
    return _dir("AGENTUI_STATE_DIR", platformdirs.user_state_dir(APP_NAME))


def cache_dir() -> Path:
    """What can be made again (Textual's parsed CSS). AGENTUI_CACHE_DIR overrides."""
    return _dir("AGENTUI_CACHE_DIR", platformdirs.user_cache_dir(APP_NAME))
