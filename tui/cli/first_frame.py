"""What the app's first frame takes from the settings, read before they are validated.

Validating the settings loads pydantic and the settings' models: about a quarter of the time
to the first frame. That frame needs four things from them: the theme, whether the monologue
pane shows, and the provider and model the status bar names (with why that provider runs).
They are read here from the values as given when each is plainly what validation would keep
(a name that is not blank, a real true/false, a provider this version has); when one is not,
the settings are validated at once, before the screen opens, and a bad one is said there. The
others (limits, tables, prices, MCP servers) are validated after the first frame, in the
thread that loads the runtime's modules; a bad one closes the screen with the same message.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, NamedTuple

from agentui.core.config.sources import PROVIDERS, GatheredSettings
from agentui.core.providers.factory import label_of
from agentui.tui.cli.provider_choice import choose_provider, status_notice

if TYPE_CHECKING:
    from agentui.core.config.settings import LoadedConfig


# NamedTuples, not frozen dataclasses: a class made before the first frame costs ~0.15 ms
# instead of ~0.6 (a dataclass compiles its methods as it is made).
class FrameSettings(NamedTuple):
    """The settings the first frame is drawn from, as validation keeps them."""

    provider: str | None
    provider_given_as_flag: bool
    model: str | None
    base_url: str | None
    theme: str | None
    theme_origin: str  # where the theme was named, for a message about it
    monologue_enabled: bool


class FirstFrame(NamedTuple):
    """What the first frame shows of the settings."""

    theme: str | None  # None: the theme last picked, else the default
    monologue_shown: bool
    provider_label: tuple[str, str]  # the provider's name and model
    provider_notice: str  # why this provider runs


def plain_frame_settings(gathered: GatheredSettings) -> FrameSettings | None:
    """The frame's settings read from the values as given; None when one needs validating.

    The file's own values are looked at too: validation checks the file alone first, so a bad
    one under a variable or an option is still a bad setting, said before the screen opens."""
    if not (_plainly_valid(gathered.file_data) and _plainly_valid(gathered.data)):
        return None
    monologue = gathered.data.get("monologue", {})
    return FrameSettings(
        provider=gathered.value("provider"),
        provider_given_as_flag=gathered.source("provider") == "flag --provider",
        model=gathered.value("model"),
        base_url=None,
        theme=gathered.value("theme"),
        theme_origin=gathered.origin("theme"),
        monologue_enabled=monologue.get("enabled", True),
    )


def _plainly_valid(values: Mapping[str, Any]) -> bool:
    """The frame's keys in `values` are absent or what validation keeps as they are."""
    provider = values.get("provider")
    monologue = values.get("monologue", {})
    enabled = monologue.get("enabled", True) if isinstance(monologue, dict) else None
    return (
        (provider is None or provider in PROVIDERS)
        and _blank_or_name(values.get("model"))
        and _blank_or_name(values.get("theme"))
        and values.get("base_url") is None  # an address is checked (and trimmed) first
        and isinstance(enabled, bool)  # a variable's "off" is read by validation
    )


def _blank_or_name(value: Any) -> bool:
    """Absent, or text validation keeps as it is (it refuses blank text)."""
    return value is None or (isinstance(value, str) and bool(value.strip()))


def validated_frame_settings(loaded: LoadedConfig) -> FrameSettings:
    config = loaded.config
    return FrameSettings(
        provider=config.provider,
        provider_given_as_flag=loaded.source("provider") == "flag --provider",
        model=config.model,
        base_url=config.base_url,
        theme=config.theme,
        theme_origin=loaded.origin("theme"),
        monologue_enabled=config.monologue.enabled,
    )


def first_frame(
    settings: FrameSettings,
    *,
    script: str | None,
    environ: Mapping[str, str] = os.environ,
) -> FirstFrame:
    """Raises AgentUIError for want of a key or a model, or for an unknown provider, as
    building the provider would: said before the screen opens."""
    choice = choose_provider(
        settings.provider,
        given_as_flag=settings.provider_given_as_flag,
        script=script,
        environ=environ,
    )
    label = label_of(
        choice.provider, model=settings.model, base_url=settings.base_url, environ=environ
    )
    return FirstFrame(
        theme=settings.theme,
        monologue_shown=settings.monologue_enabled,
        provider_label=label,
        provider_notice=status_notice(choice),
    )
