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


# In the order a key picks its provider when several are set. A provider's variables are in
# the order its SDK reads them: the first one set is the key sent (google-genai takes
# GOOGLE_API_KEY over GEMINI_API_KEY), and the one named as having picked it.
KEYED_PROVIDERS = (
    KeyedProvider("anthropic", ("ANTHROPIC_API_KEY",)),
    KeyedProvider("openai", ("OPENAI_API_KEY",)),
    KeyedProvider("google", ("GOOGLE_API_KEY", "GEMINI_API_KEY")),
)


@dataclass(frozen=True, slots=True)
class KeyChoice:
    """The provider a key picked, and the variable that held it (to say why)."""

    provider: str
    variable: str


def key_variables(provider: str) -> tuple[str, ...]:
    """The variables that may hold `provider`'s key, the one read first first."""
    return next((k.variables for k in KEYED_PROVIDERS if k.name == provider), ())


def key_names(provider: str) -> str:
    """The variables of `provider`'s key for a message: `GOOGLE_API_KEY or GEMINI_API_KEY`."""
    return " or ".join(key_variables(provider))


def key_variable(provider: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """The variable that holds `provider`'s key, or None when none of its variables is set."""
    return next((v for v in key_variables(provider) if environ.get(v, "").strip()), None)


def key_value(provider: str, environ: Mapping[str, str] = os.environ) -> str | None:
    """`provider`'s key: the value of the variable `key_variable` names, or None."""
    variable = key_variable(provider, environ)
    return environ[variable].strip() if variable is not None else None


# What each keyed provider runs, for the message when its key is not set.
_RUNS_ON = {"anthropic": "Claude", "openai": "OpenAI", "google": "Gemini"}


def no_key_message(provider: str) -> str:
    """One message for a keyed provider asked for with its key not set."""
    local = (
        ", give --base-url for a local OpenAI-compatible server," if provider == "openai" else ""
    )
    return (
        f"{key_names(provider)} is not set: export it to run on {_RUNS_ON[provider]}{local} "
        "or use --provider scripted for the offline model"
    )


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
