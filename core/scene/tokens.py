"""TokenCounter: the one way an envelope counts tokens.

Offline the count is an estimate (four characters a token, rounded up: close for English on
Claude's and GPT's tokenizers, and never zero for non-empty text). A provider that can count
exactly supplies its own counter through EnvelopeServices.
"""

from __future__ import annotations

import math
from typing import Protocol

CHARS_PER_TOKEN = 4


class TokenCounter(Protocol):
    def count(self, text: str) -> int:
        """Tokens `text` takes; more text never counts fewer."""
        ...


class EstimatedTokenCounter:
    """len(text) / 4, rounded up."""

    def count(self, text: str) -> int:
        return math.ceil(len(text) / CHARS_PER_TOKEN)


class CharacterCounter:
    """Counts characters: cuts text to a length in characters with the same cutting rules."""

    def count(self, text: str) -> int:
        return len(text)
