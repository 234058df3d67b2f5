"""Choosing a provider by name, for the command line and the app.

    scripted      the offline model (the default without ANTHROPIC_API_KEY)
    anthropic     Claude through the official SDK (the default with ANTHROPIC_API_KEY)
    replay:DIR    a recording made with `record=DIR`, played back offline

The API key and ANTHROPIC_BASE_URL come from the environment, never from a file or an option.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

from ..errors import AgentUIError
from .anthropic.defaults import DEFAULT_MODEL, DEFAULT_TIMEOUT_S, resolve_model
from .base import Provider
from .scripted.provider import ScriptedProvider
from .scripted.script import Script

PROVIDER_NAMES = ("scripted", "anthropic", "replay:DIR")
REPLAY_PREFIX = "replay:"
KEY_VARIABLE = "ANTHROPIC_API_KEY"


def default_provider_name(environ: Mapping[str, str] = os.environ) -> str:
    """Claude when an API key is set, else the offline scripted model."""
    return "anthropic" if environ.get(KEY_VARIABLE) else "scripted"


def make_provider(
    name: str = "scripted",
    *,
    model: str | None = None,
    script: str | Path | None = None,
    pace_s: float = 0.0,
    thinking_budget: int | None = None,
    timeout_s: float | None = None,
    record: str | Path | None = None,
    environ: Mapping[str, str] = os.environ,
) -> Provider:
    """The provider `name`; with `record`, wrapped so every exchange is saved in that directory.

    `thinking_budget` and `timeout_s` apply to Claude only (None: its defaults).
    """
    provider: Provider
    if name == "scripted":
        provider = ScriptedProvider(
            Script.load(script) if script is not None else None,
            model=model or "scripted-1",
            pace_s=pace_s,
        )
    elif name == "anthropic":
        # Imported here: the SDK costs start-up time that offline runs need not pay.
        from .anthropic.provider import AnthropicProvider

        provider = AnthropicProvider(
            model=resolve_model(model or DEFAULT_MODEL),
            api_key=environ.get(KEY_VARIABLE),
            base_url=environ.get("ANTHROPIC_BASE_URL") or None,
            thinking_budget=thinking_budget,
            timeout_s=timeout_s if timeout_s is not None else DEFAULT_TIMEOUT_S,
        )
    elif name.startswith(REPLAY_PREFIX) and name[len(REPLAY_PREFIX) :]:
        from .record.replay import ReplayProvider

        provider = ReplayProvider(
            Path(name[len(REPLAY_PREFIX) :]).expanduser(),
            model=resolve_model(model) if model else None,
        )
    else:
        known = ", ".join(PROVIDER_NAMES)
        raise AgentUIError(f"unknown provider {name!r}; this version has: {known}")
    if record is not None:
        from .record.recorder import RecordingProvider

        key = environ.get(KEY_VARIABLE)
        provider = RecordingProvider(
            provider, Path(record).expanduser(), redact=[key] if key else []
        )
    return provider
