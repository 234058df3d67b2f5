"""OpenAI's defaults: model ids, where the API is, the variables read, and timeouts.

Kept apart from the provider so the command line can show them without importing the SDK.
Ids are plain strings passed through as given: a server's own names (`qwen3:8b` on Ollama,
a path on vLLM) work as they are.
"""

from __future__ import annotations

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
