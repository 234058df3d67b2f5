"""Whose a thinking block's signature is.

Claude and Gemini both sign their reasoning, and each API refuses a signature the other made.
A signature is kept in our conversation as text: Claude's as its API gives it, Gemini's marked
with GEMINI_PREFIX (google/thought_signature.py writes and reads those). Each provider leaves
out what another made; this is the convention they share, apart from either backend.
"""

from __future__ import annotations

GEMINI_PREFIX = "gemini:"


def is_geminis(signature: str) -> bool:
    """Whether a thinking block's signature is one Gemini made."""
    return signature.startswith(GEMINI_PREFIX)
