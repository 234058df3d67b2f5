"""Ids for Gemini's function calls.

Gemini gives a call an id when it has one; the response that answers the call carries the same
id. A call without one gets an id of ours, so the loop can match its result, and goes back
without it, as it came.
"""

from __future__ import annotations

import uuid

_OURS = "gemini-call-"


def new_call_id() -> str:
    return _OURS + uuid.uuid4().hex[:16]


def wire_id(call_id: str) -> str | None:
    """The id to send Gemini for a call: its own, or none for one we named."""
    return None if call_id.startswith(_OURS) else call_id
