"""Claude's defaults: model ids, the aliases people type, thinking and timeouts.

Kept apart from the provider so the command line can show them without importing the SDK.
Ids are plain strings passed through as given, so a model released after this was written
works without a code change.
"""

from __future__ import annotations

from collections.abc import Mapping

DEFAULT_MODEL = "claude-sonnet-4-6"
DEFAULT_NARRATOR_MODEL = "claude-haiku-4-5"  # the narrator writes short summaries: cheap and fast

# The one table of the names people type for a model family, for the agents (`--model`,
# `model`) and the narrator (`narrator_model`, `[monologue] model`) alike.
MODEL_ALIASES: Mapping[str, str] = {
    "haiku": "claude-haiku-4-5",
    "sonnet": "claude-sonnet-4-6",
    "opus": "claude-opus-4-8",
}

MIN_THINKING_BUDGET = 1024  # the API's minimum for `budget_tokens`
DEFAULT_THINKING_BUDGET = 2048  # what the command line asks for unless told otherwise

DEFAULT_TIMEOUT_S = 600.0  # the longest wait for the API's next bytes; the SDK's own default
CONNECT_TIMEOUT_S = 5.0


def resolve_model(model: str, aliases: Mapping[str, str] = MODEL_ALIASES) -> str:
    """The model id for an alias (`haiku`, `sonnet`, `opus`, in any case); any other string
    unchanged but for surrounding spaces. `aliases` replaces the table (a config may)."""
    name = model.strip()
    folded = name.lower()
    for alias, model_id in aliases.items():
        if alias.lower() == folded:
            return model_id
    return name
