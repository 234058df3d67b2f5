"""Which provider the settings come to, and why it runs: the first frame's status bar says it
before the settings are validated (first_frame.py), and the assembly settles on it after
(assemble.py), which the first frame does not load."""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING, NamedTuple

from agentui.core.providers.keys import provider_by_key
from agentui.tui.app.status_notices import OFFLINE_NO_KEY

if TYPE_CHECKING:
    from agentui.tui.cli.assemble import Assembly

NO_KEY_NOTICE = (
    "no API key is set (ANTHROPIC_API_KEY, OPENAI_API_KEY, GEMINI_API_KEY or GOOGLE_API_KEY): "
    "running on the offline scripted model"
)


class ProviderChoice(NamedTuple):  # made before the first frame: see first_frame.py
    """The provider the settings come to, and why it runs when no setting named it."""

    provider: str  # a name for make_provider
    notice: str | None = None  # the offline model runs for want of a key
    chosen_by: str | None = None  # the key variable that picked the provider


def choose_provider(
    setting: str | None,
    *,
    given_as_flag: bool,
    script: str | None,
    environ: Mapping[str, str] = os.environ,
) -> ProviderChoice:
    """A script file means the scripted model unless `--provider` says otherwise; with no
    provider set anywhere, the first API key set picks its provider (Anthropic, OpenAI,
    Google), else the offline model runs."""
    if script and not given_as_flag:
        return ProviderChoice("scripted")
    if setting is not None:
        return ProviderChoice(setting)
    choice = provider_by_key(environ)
    if choice is None:
        return ProviderChoice("scripted", notice=NO_KEY_NOTICE)
    return ProviderChoice(choice.provider, chosen_by=choice.variable)


def status_notice(why: Assembly | ProviderChoice) -> str:
    """What the status bar says of the provider beside its name and model: why it runs."""
    if why.notice:
        return OFFLINE_NO_KEY
    if why.chosen_by:
        return f"picked by {why.chosen_by}"
    return ""
