"""Choosing a provider by name, for the command line and the app.

    scripted      the offline model (the default without an API key)
    anthropic     Claude through the official SDK (ANTHROPIC_API_KEY)
    openai        OpenAI, or any OpenAI-compatible server at a base URL (OPENAI_API_KEY)
    google        Gemini through the official SDK (GOOGLE_API_KEY or GEMINI_API_KEY)
    replay:DIR    a recording made with `record=DIR`, played back offline

Without a name, a key present picks its provider (see keys.py). API keys come from the
environment, never from a file or an option. A base URL given here (`--base-url`, the
`base_url` setting) wins over the provider's own variable (ANTHROPIC_BASE_URL,
OPENAI_BASE_URL, GOOGLE_GEMINI_BASE_URL).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from agentui.core.providers.anthropic import defaults as claude
from agentui.core.providers.keys import (
    key_value,
    key_values,
    key_variable,
    no_key_message,
    provider_by_key,
)
from agentui.core.providers.openai import defaults as openai_defaults
from agentui.core.providers.scripted import defaults as scripted
from agentui.core.support.errors import AgentUIError

if TYPE_CHECKING:
    from agentui.core.providers.base import Provider

PROVIDER_NAMES = ("scripted", "anthropic", "openai", "google", "replay:DIR")
REPLAY_PREFIX = "replay:"


def default_provider_name(environ: Mapping[str, str] = os.environ) -> str:
    """The provider of the first key set (Anthropic, OpenAI, Google), else the offline model."""
    choice = provider_by_key(environ)
    return choice.provider if choice is not None else "scripted"


def label_of(
    name: str,
    *,
    model: str | None = None,
    base_url: str | None = None,
    environ: Mapping[str, str] = os.environ,
) -> tuple[str, str]:
    """The provider's name and the model `make_provider` with these settings runs, found
    without building it: the app draws its first frame with them, before the SDKs load (each is
    slow to import). A recording's model is known once it is read ("" until then). Raises the
    AgentUIError make_provider would for want of a key or a model, or for an unknown provider,
    so the app says so before its screen opens."""
    if name == "scripted":
        return name, model or scripted.DEFAULT_MODEL
    if name == "anthropic":
        _need_key(name, environ)
        return name, claude.resolve_model(model or claude.DEFAULT_MODEL)
    if name == "openai":
        url = openai_base_url(base_url, environ)
        if openai_defaults.is_openai(url):  # a local server may want no key
            _need_key(name, environ)
        elif model is None:
            raise AgentUIError(
                f"name the model the server at {url} runs: --model NAME "
                "(as the server calls it, e.g. qwen3:8b on Ollama)"
            )
        return name, (model or openai_defaults.DEFAULT_MODEL).strip()
    if name == "google":
        from agentui.core.providers.google import defaults as gemini

        _need_key(name, environ)
        return name, gemini.resolve_model(model or gemini.DEFAULT_MODEL)
    if name.startswith(REPLAY_PREFIX) and name[len(REPLAY_PREFIX) :]:
        return "replay", model or ""
    known = ", ".join(PROVIDER_NAMES)
    raise AgentUIError(f"unknown provider {name!r}; this version has: {known}")


def _need_key(provider: str, environ: Mapping[str, str]) -> None:
    if key_variable(provider, environ) is None:
        raise AgentUIError(no_key_message(provider))


def make_provider(
    name: str = "scripted",
    *,
    model: str | None = None,
    base_url: str | None = None,
    script: str | Path | None = None,
    pace_s: float = 0.0,
    thinking_budget: int | None = None,
    timeout_s: float | None = None,
    record: str | Path | None = None,
    environ: Mapping[str, str] = os.environ,
) -> Provider:
    """The provider `name`; with `record`, wrapped so every exchange is saved in that directory.

    `thinking_budget` applies to Claude and Gemini (their thinking) and OpenAI (room for
    reasoning); `timeout_s` and `base_url` to the network providers (None: their defaults).
    """
    _, settled = label_of(name, model=model, base_url=base_url, environ=environ)
    provider: Provider
    if name == "scripted":
        from agentui.core.providers.scripted.provider import ScriptedProvider
        from agentui.core.providers.scripted.script import Script

        provider = ScriptedProvider(
            Script.load(script) if script is not None else None, model=settled, pace_s=pace_s
        )
    elif name == "anthropic":
        from agentui.core.providers.anthropic.provider import AnthropicProvider

        provider = AnthropicProvider(
            model=settled,
            api_key=environ.get("ANTHROPIC_API_KEY"),
            base_url=base_url or environ.get("ANTHROPIC_BASE_URL") or None,
            thinking_budget=thinking_budget,
            timeout_s=timeout_s if timeout_s is not None else claude.DEFAULT_TIMEOUT_S,
        )
    elif name == "openai":
        from agentui.core.providers.openai.provider import OpenAIProvider

        provider = OpenAIProvider(
            model=settled,
            api_key=environ.get(openai_defaults.KEY_VARIABLE, "").strip() or None,
            base_url=openai_base_url(base_url, environ),
            thinking_budget=thinking_budget,
            timeout_s=timeout_s if timeout_s is not None else openai_defaults.DEFAULT_TIMEOUT_S,
        )
    elif name == "google":
        from agentui.core.providers.google import defaults as gemini
        from agentui.core.providers.google.provider import GoogleProvider

        provider = GoogleProvider(
            model=settled,
            api_key=key_value("google", environ),
            base_url=base_url or gemini.base_url(environ),
            timeout_s=timeout_s if timeout_s is not None else gemini.DEFAULT_TIMEOUT_S,
            thinking_budget=thinking_budget,
        )
    else:  # a replay (label_of refused any other name)
        from agentui.core.providers.record.replay import ReplayProvider

        provider = ReplayProvider(Path(name[len(REPLAY_PREFIX) :]).expanduser(), model=model)
    if record is not None:
        from agentui.core.providers.record.recorder import RecordingProvider

        provider = RecordingProvider(
            provider, Path(record).expanduser(), redact=key_values(environ)
        )
    return provider


def openai_base_url(base_url: str | None, environ: Mapping[str, str] = os.environ) -> str:
    """Where the openai provider sends its requests: the given URL, else OPENAI_BASE_URL,
    else OpenAI's API."""
    chosen = base_url or environ.get(openai_defaults.BASE_URL_VARIABLE, "").strip()
    return (chosen or openai_defaults.OPENAI_BASE_URL).rstrip("/")
