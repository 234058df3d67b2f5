"""Choosing a provider by name, for the command line and the app."""

from __future__ import annotations

from pathlib import Path

from ..errors import AgentUIError
from .base import Provider
from .script import Script
from .scripted import ScriptedProvider

PROVIDER_NAMES = ("scripted",)


def make_provider(
    name: str = "scripted",
    *,
    model: str | None = None,
    script: str | Path | None = None,
    pace_s: float = 0.0,
) -> Provider:
    if name == "scripted":
        return ScriptedProvider(
            Script.load(script) if script is not None else None,
            model=model or "scripted-1",
            pace_s=pace_s,
        )
    known = ", ".join(PROVIDER_NAMES)
    raise AgentUIError(f"unknown provider {name!r}; this version has: {known}")
