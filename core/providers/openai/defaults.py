"""OpenAI's defaults: model ids, where the API is, the variables read, and timeouts.

Kept apart from the provider so the command line can show them without importing the SDK.
Ids are plain strings passed through as given: a server's own names (`qwen3:8b` on Ollama,
a path on vLLM) work as they are.
"""

from __future__ import annotations

import re

KEY_VARIABLE = "OPENAI_API_KEY"
BASE_URL_VARIABLE = "OPENAI_BASE_URL"
OPENAI_BASE_URL = "https://api.openai.com/v1"

DEFAULT_MODEL = "gpt-5.4"
DEFAULT_NARRATOR_MODEL = "gpt-5.4-nano"  # the narrator writes short summaries: cheap and fast
# What the palette offers on OpenAI's API (any other id can be typed there, or given as --model).
KNOWN_MODELS = ("gpt-5.4", "gpt-5.5", "gpt-5.4-mini", "gpt-5.4-nano")

DEFAULT_TIMEOUT_S = 600.0  # the longest wait for the server's next bytes; the SDK's own default
CONNECT_TIMEOUT_S = 5.0

# A local server usually wants no key; the SDK refuses to start without one. This stand-in is
# sent instead (servers started without a key ignore it, as Ollama's own docs do).
NO_KEY = "no-key"


def is_openai(base_url: str) -> bool:
    """Whether `base_url` is OpenAI's own API (else: a compatible server)."""
    return base_url.rstrip("/").startswith("https://api.openai.com")


# OpenAI's own model ids (gpt-5.4, o3-mini, chatgpt-4o-latest, codex-mini), also behind a
# pass-through proxy that may prefix them (openai/gpt-5.4). Not the open-weight gpt-oss, GPT-J
# or GPT-Neo(X): served by compatible servers like any other local model.
_OPENAI_MODEL = re.compile(r"(gpt-|chatgpt-|codex-|o\d)", re.IGNORECASE)
_OPEN_WEIGHTS = ("gpt-oss", "gpt-j", "gpt-neo")


def is_openai_model(model: str) -> bool:
    """Whether `model` names one of OpenAI's own models (wherever it is served)."""
    name = model.rsplit("/", 1)[-1].lower()
    return bool(_OPENAI_MODEL.match(name)) and not name.startswith(_OPEN_WEIGHTS)
