"""Memories: what a character said in rounds no longer in view, retrieved for the moment.

Retrieval is eager and per character (the seed): each character's memories come from its own
past messages only. A retriever ranks; the limits (top_k, max_chars per character) are applied
here to whatever any retriever returns, so every retriever obeys the same config.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from pydantic import BaseModel, ConfigDict, Field

from agentui.core.scene.tokens import CharacterCounter
from agentui.core.scene.truncation import cut_text


class Memory(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    character: str = Field(min_length=1)
    round_number: int = Field(ge=1)
    text: str
    score: float = 0.0  # the retriever's relevance; higher is closer


class MemoryRetriever(Protocol):
    async def retrieve(self, query: str, candidates: Sequence[Memory], top_k: int) -> list[Memory]:
        """At most `top_k` of `candidates` (one character's past messages, oldest first),
        most relevant to `query` first, with their scores; none when nothing relates."""
        ...


def limit_memories(memories: Sequence[Memory], top_k: int, max_chars: int) -> list[Memory]:
    """The first `top_k` distinct memories, together at most `max_chars` characters: the one
    that crosses the limit is cut at a sentence or word (marked), the rest left out."""
    kept: list[Memory] = []
    seen: set[str] = set()
    room = max_chars
    for memory in memories:
        if len(kept) == top_k or room <= 0:
            break
        if memory.text in seen:
            continue
        seen.add(memory.text)
        text = cut_text(memory.text, room, CharacterCounter())
        if text is None:
            break
        kept.append(memory if text == memory.text else memory.model_copy(update={"text": text}))
        room -= len(text)
    return kept
