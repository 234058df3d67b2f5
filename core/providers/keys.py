"""API keys in the environment: the one table of which variable holds which provider's key,
the provider a key picks when none is named, and what may be said of a key (set or not set,
never its value).

Keys are read from the environment only, never from a file or an option, and never written
anywhere: the values found here are what recordings redact.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class KeyedProvider:
    name: str
    variables: tuple[str, ...]  # any one of them holds the key


# In the order a key picks its provider when several are set.
KEYED_PROVIDERS = (
    KeyedProvider("anthropic", ("ANTHROPIC_API_KEY",)),
    KeyedProvider("openai", ("OPENAI_API_KEY",)),
    KeyedProvider("google", ("GEMINI_API_KEY", "GOOGLE_API_KEY")),
)


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """The provider a key picked, and the variable that held it (to say why)."""

    provider: str
    variable: str


def key_variable(provider: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """The variable that holds `provider`'s key, or None when none of its variables is set."""
    for keyed in KEYED_PROVIDERS:
        if keyed.name == provider:
            return next((v for v in keyed.variables if environ.get(v, "").strip()), None)
    return None


def provider_by_key(environ: Mapping[str, str] = os.environ) -> KeyChoice | None:
    """The first provider (Anthropic, OpenAI, Google) whose key is set, or None."""
    for keyed in KEYED_PROVIDERS:
        variable = key_variable(keyed.name, environ)
        if variable is not None:
            return KeyChoice(keyed.name, variable)
    return None


def key_report(environ: Mapping[str, str] = os.environ) -> list[tuple[str, str, bool]]:
    """(provider, variable, set) for every key variable: what `config show` lists."""
    return [
        (keyed.name, variable, bool(environ.get(variable, "").strip()))
        for keyed in KEYED_PROVIDERS
        for variable in keyed.variables
    ]


def key_values(environ: Mapping[str, str] = os.environ) -> list[str]:
    """Every key set in the environment: the secrets a recording must never hold."""
    return [
        value.strip()
        for keyed in KEYED_PROVIDERS
        for variable in keyed.variables
        if (value := environ.get(variable, "")).strip()
    ]
