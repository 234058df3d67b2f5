"""Adjacent message or thought chunks of one batch of events, sent as one.

A model streams its text in many small deltas; what the runtime delivered together needs no
notification per piece. Only neighbours merge, so the order of everything is kept.
"""

from __future__ import annotations

from collections.abc import Iterable

from acp.schema import AgentMessageChunk, AgentThoughtChunk, TextContentBlock

from agentui.core.acp.updates import SessionUpdate

_Chunk = AgentMessageChunk | AgentThoughtChunk


def merged_chunks(updates: Iterable[SessionUpdate]) -> list[SessionUpdate]:
    out: list[SessionUpdate] = []
    for update in updates:
        last = out[-1] if out else None
        if _text_chunk(update) and _text_chunk(last) and type(update) is type(last):
            assert isinstance(update, _Chunk) and isinstance(last, _Chunk)
            text = last.content.text + update.content.text
            out[-1] = last.model_copy(update={"content": TextContentBlock(type="text", text=text)})
        else:
            out.append(update)
    return out


def _text_chunk(update: SessionUpdate | None) -> bool:
    return isinstance(update, _Chunk) and isinstance(update.content, TextContentBlock)
