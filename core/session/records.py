"""The lines of a session file that are not events: its header and (up to format 2) records.

A session file is JSON Lines. Line 1 is the header. Every other line is either an event as
`Event.model_dump_json()` writes it (it has a `type`; an agent's consecutive deltas merged, a
response's text left out when its deltas hold it: see elision.py), or a record the writer adds
(it has a `record`). Up to format 2, conversation records kept each agent's conversation
(see `ConversationRecord`); from format 3 `conversation:changed` events do.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from agentui.core.protocol.conversation import Message

# 3: conversations are `conversation:changed` events (no records). 2: consecutive deltas
# merged, repeated text left out (elision.py). 1 and 2 are read as well.
FORMAT_VERSION = 3


class SessionHeader(BaseModel):
    # Its schema is built at its first validation, not at import (defer_build): a resumed
    # session's first frame unpickles these models and validates none (issue 36).
    model_config = ConfigDict(frozen=True, defer_build=True)

    record: Literal["header"] = "header"
    format: int = FORMAT_VERSION
    agentui: str  # the version that created the file
    id: str
    started: float  # epoch seconds
    task: str  # the first root agent's task
    provider: str
    model: str


class ConversationRecord(BaseModel):
    """A change to one agent's conversation: keep its first `keep` messages, then add `append`.

    Written after the events that caused it, in the same flush, whenever the conversation an
    agent will send next differs from what the file already holds. Replaying every record in
    order rebuilds the conversation as of the last flush; `seq` is the newest event written
    before the record. The writer reads the conversation when it encodes a batch, so a record
    may run a step ahead of the events beside it (an agent that moved on meanwhile), never
    behind them.
    """

    model_config = ConfigDict(frozen=True, defer_build=True)

    record: Literal["conversation"] = "conversation"
    agent_id: str
    seq: int
    instructions: str | None = None  # None: unchanged since the previous record
    keep: int = Field(ge=0)
    append: list[Message] = Field(default_factory=list)
