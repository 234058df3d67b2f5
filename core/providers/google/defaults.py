"""Gemini's defaults: model ids, the aliases people type, where the endpoint is, and timeouts.

Kept apart from the provider so the command line can show them without importing the SDK.
Ids are plain strings passed through as given, so a model released after this was written
works without a code change.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

# The key's variables are in keys.py (GOOGLE_API_KEY, then GEMINI_API_KEY, as the SDK reads them).
BASE_URL_VARIABLE = "GOOGLE_GEMINI_BASE_URL"  # the SDK reads it too when no base_url is given
GEMINI_BASE_URL = "https://generativelanguage.googleapis.com"
# The API version is the SDK's (v1, where function calling, structured output, thinking and
# system instructions all are); the SDK reads GOOGLE_GENAI_API_VERSION (e.g. `v1beta`) for an
# endpoint that wants another.

DEFAULT_MODEL = "gemini-3.8-flash"
DEFAULT_NARRATOR_MODEL = "gemini-3.1-flash-lite"  # short summaries: the cheapest current model

# The names people type for a model family; any other string is taken as an id.
MODEL_ALIASES: Mapping[str, str] = {
    "flash": "gemini-3.8-flash",
    "flash-lite": "gemini-3.1-flash-lite",
    "pro": "gemini-3.1-pro-preview",
}

DEFAULT_TIMEOUT_S = 600.0  # the longest wait for the API's next bytes
CONNECT_TIMEOUT_S = 5.0  # a connection not made by then will not be made


def base_url(environ: Mapping[str, str] = os.environ) -> str | None:
    """Another endpoint for the Gemini API (a proxy, a gateway), or None for Google's."""
    return environ.get(BASE_URL_VARIABLE, "").strip() or None


def resolve_model(model: str, aliases: Mapping[str, str] = MODEL_ALIASES) -> str:
    """The model id for an alias (`flash`, `flash-lite`, `pro`, in any case); any other string
    unchanged but for surrounding spaces and a leading `models/`."""
    name = model.strip().removeprefix("models/")
    folded = name.lower()
    for alias, model_id in aliases.items():
        if alias.lower() == folded:
            return model_id
    return name
