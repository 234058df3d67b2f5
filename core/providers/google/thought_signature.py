"""Gemini's thought signatures as they live in our conversation.

Gemini signs the part that follows its reasoning (a function call, a text, a thought) with an
opaque `thoughtSignature`; the part must go back with it or a later request is refused (for
function calls, Gemini 3 checks). Our conversation has no field for a signature on a tool call
or a text, so a signature travels as an empty signed ThinkingBlock right after the block whose
part carried it: the stream translator writes it there and the request mapping puts it back on
that part.

Signatures are kept as text marked as Gemini's (see ../signatures.py), so a signature of
another provider (Claude signs its thinking too) is never sent to Gemini, and Gemini's never
to Claude: each API refuses the other's.
"""

from __future__ import annotations

import base64
import binascii

from agentui.core.providers.signatures import GEMINI_PREFIX, is_geminis


def to_text(signature: bytes) -> str:
    return GEMINI_PREFIX + base64.urlsafe_b64encode(signature).decode("ascii")


def from_text(text: str | None) -> bytes | None:
    """The signature's bytes, or None when `text` is not a signature Gemini made."""
    if not text or not is_geminis(text):
        return None
    try:
        return base64.urlsafe_b64decode(text[len(GEMINI_PREFIX) :])
    except (binascii.Error, ValueError):
        return None
