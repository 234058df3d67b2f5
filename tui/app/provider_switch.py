"""Switching the provider and model for the next task, from the command palette.

"Switch provider/model…" opens a palette of the providers that can run now (those with a key
in the environment, a local OpenAI-compatible server the settings point at, and the offline
model), then one of that provider's models: a listed one, or any id typed into the search
box. The app gets the chosen provider from `ProviderSwitch.build` and hands it to
`Runtime.set_provider`: root agents started from then on run on it; agents that exist keep
theirs. A provider is built once per (name, model): the runtime keeps every provider it was
given (and its HTTP client) until it shuts down, so switching back reuses the one built.

The settings' `base_url` belongs to the provider they settled on: another provider switched to
uses its own variable or its public API. A `--record` directory records only the provider the
run started with (a recording directory takes one run).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

from rich.text import Text
from textual.command import CommandPalette, DiscoveryHit, Hit, Hits, Provider, SimpleCommand
from textual.markup import escape
from textual.screen import Screen

from agentui.core.providers.anthropic import defaults as claude
from agentui.core.providers.factory import make_provider, openai_base_url
from agentui.core.providers.keys import KEYED_PROVIDERS, key_variable
from agentui.core.providers.model_aliases import resolve_model
from agentui.core.providers.openai import defaults as openai_defaults
from agentui.core.providers.scripted import defaults as scripted
from agentui.core.support.terminal_text import visible_controls
from agentui.tui.app.palette_match import marked
from agentui.tui.cli.assemble import Assembly

if TYPE_CHECKING:
    from agentui.core.providers import base

TITLE = "Switch provider/model…"


@dataclass(frozen=True, slots=True)
class ProviderOption:
    name: str
    why: str  # why it can run: the key that is set, the server, offline
    models: tuple[str, ...]  # offered first to last; any other id may be typed


def _unique(*models: str | None) -> tuple[str, ...]:
    return tuple(dict.fromkeys(m for m in models if m))


class ProviderSwitch:
    """What the palette offers, and the provider a choice makes, from the run's settings."""

    def __init__(
        self,
        assembly: Assembly,
        environ: Mapping[str, str] = os.environ,
        *,
        started_with: base.Provider | None = None,
    ) -> None:
        """`started_with`: the provider the run started on, given back when chosen again."""
        self._assembly = assembly
        self._environ = environ
        self._built: dict[tuple[str, str], base.Provider] = {}
        if started_with is not None:
            self.remember(started_with)

    def remember(self, provider: base.Provider) -> None:
        """A provider built elsewhere (the run's first), given back when chosen again."""
        self._built[_key(provider.name, provider.model)] = provider

    def _current_model(self, name: str) -> str | None:
        return self._assembly.model if name == self._assembly.provider else None

    def _base_url(self, name: str) -> str | None:
        return self._assembly.loaded.config.base_url if name == self._assembly.provider else None

    def options(self) -> list[ProviderOption]:
        """The providers that can run now, the offline model last."""
        out: list[ProviderOption] = []
        for keyed in KEYED_PROVIDERS:
            option = self._option(keyed.name, key_variable(keyed.name, self._environ))
            if option is not None:
                out.append(option)
        out.append(ProviderOption("scripted", "the offline model", (scripted.DEFAULT_MODEL,)))
        return out

    def _option(self, name: str, variable: str | None) -> ProviderOption | None:
        current = self._current_model(name)
        why = f"{variable} is set" if variable else ""
        if name == "anthropic" and variable:
            return ProviderOption(
                name, why, _unique(current, claude.DEFAULT_MODEL, *claude.MODEL_ALIASES.values())
            )
        if name == "openai":
            url = openai_base_url(self._base_url(name), self._environ)
            if not openai_defaults.is_openai(url):  # a local server wants no key
                return ProviderOption(name, f"the server at {url}", _unique(current))
            if variable:
                return ProviderOption(name, why, _unique(current, *openai_defaults.KNOWN_MODELS))
        if name == "google" and variable:
            from agentui.core.providers.google import defaults as gemini

            return ProviderOption(
                name, why, _unique(current, gemini.DEFAULT_MODEL, *gemini.MODEL_ALIASES.values())
            )
        return None

    def build(self, name: str, model: str) -> base.Provider:
        """The provider `name` running `model`, built the first time it is chosen and the same
        one after; raises AgentUIError (no key, a bad option)."""
        key = _key(name, model)
        built = self._built.get(key)
        if built is None:
            options = self._assembly.options
            built = self._built[key] = make_provider(
                name,
                model=model,
                base_url=self._base_url(name),
                script=options.script if name == "scripted" else None,
                pace_s=options.pace_s,
                thinking_budget=options.thinking_budget,
                timeout_s=options.timeout_s,
                environ=self._environ,
            )
        return built


def _key(name: str, model: str) -> tuple[str, str]:
    """A provider's name and its model as it names it (`haiku` is `claude-haiku-4-5`)."""
    return name, resolve_model(name, model)


Chosen = Callable[[str, str], None]  # (provider name, model id)


def provider_palette(
    switch: ProviderSwitch, open_overlay: Callable[[Screen[None]], object], chosen: Chosen
) -> CommandPalette:
    """The first palette: which provider. Picking one opens the second (`open_overlay`):
    which model; picking that calls `chosen(name, model)`."""
    commands = [
        SimpleCommand(
            option.name,
            partial(open_overlay, _model_palette(option, chosen)),
            # Textual reads a hit's help as markup; the why may hold a URL from the
            # environment or the config, whose `[b]` must print as it is.
            escape(visible_controls(option.why)),
        )
        for option in switch.options()
    ]
    return CommandPalette(
        providers=[_commands_of(commands)], placeholder="Switch the next task to which provider…"
    )


def _model_palette(option: ProviderOption, chosen: Chosen) -> CommandPalette:
    return CommandPalette(
        providers=[_models_of(option, chosen)],
        placeholder=f"Which {option.name} model? (or type any model id)",
    )


def _commands_of(commands: list[SimpleCommand]) -> type[Provider]:
    """A palette provider of fixed commands, made per palette (Textual's SimpleProvider
    wants the screen before the palette has it)."""

    class Commands(Provider):
        async def discover(self) -> Hits:
            for name, callback, help_text in commands:
                yield DiscoveryHit(name, callback, help=help_text)

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for name, callback, help_text in commands:
                score = matcher.match(name)
                if score > 0:
                    yield Hit(score, marked(matcher, name), callback, help=help_text)

    return Commands


def _models_of(option: ProviderOption, chosen: Chosen) -> type[Provider]:
    """A palette provider of the option's models, and of whatever id the person types."""

    class Models(Provider):
        async def discover(self) -> Hits:
            for model in option.models:
                yield DiscoveryHit(
                    Text(visible_controls(model)), partial(chosen, option.name, model)
                )

        async def search(self, query: str) -> Hits:
            matcher = self.matcher(query)
            for model in option.models:
                score = matcher.match(model)
                if score > 0:
                    shown = marked(matcher, visible_controls(model))  # a name from settings
                    yield Hit(score, shown, partial(chosen, option.name, model), text=model)
            typed = query.strip()
            if typed and typed not in option.models:
                # Lowest of all: a listed model that matches comes first.
                yield Hit(
                    0.001,
                    Text(f"use {visible_controls(typed)!r}"),
                    partial(chosen, option.name, typed),
                    text=typed,
                    help="a model id of your own",
                )

    return Models
