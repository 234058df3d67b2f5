"""A model name as the provider it runs on reads it: each backend's own aliases.

`haiku`, `sonnet` and `opus` are Claude's; `flash`, `flash-lite` and `pro` are Gemini's. A
profile's `model`, `--narrator-model` and `[monologue] model` go through the aliases of the
provider that runs them, so `model = "flash"` means a Gemini model on Gemini and stays the
name `flash` anywhere else (a local server may call a model so). OpenAI, compatible servers
and the offline model take names as given.

A provider may read names its own way with a `resolve_model(model) -> str` method (a replay
reads them as its recording did); the others are looked up here by their name.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from agentui.core.providers.anthropic import defaults as claude
from agentui.core.providers.google import defaults as gemini

RESOLVERS: Mapping[str, Callable[[str], str]] = {
    "anthropic": claude.resolve_model,
    "google": gemini.resolve_model,
}


def resolve_model(provider_name: str, model: str) -> str:
    """The model id `model` names on the provider called `provider_name`: an alias of its
    own resolved, any other name as given (without surrounding spaces)."""
    resolve = RESOLVERS.get(provider_name)
    return resolve(model) if resolve is not None else model.strip()


def model_on(provider: object, model: str) -> str:
    """The model id `model` names on `provider` (see the module's docstring)."""
    own = getattr(provider, "resolve_model", None)
    if callable(own):
        resolved: str = own(model)
        return resolved
    return resolve_model(str(getattr(provider, "name", "")), model)
