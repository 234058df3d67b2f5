"""A prompt's content blocks as the task text an agent is given.

Text as it is; a resource the client embedded (`embeddedContext`: an open file, a selection) as
its text in a fenced block under its URI; a link to one as its name and URI (the agent's tools
may read it). agentui's models take text only: an image, audio or binary resource is named and
left out, and the agent is told so.
"""

from __future__ import annotations

from collections.abc import Sequence

from acp.schema import (
    AudioContentBlock,
    BlobResourceContents,
    EmbeddedResourceContentBlock,
    ImageContentBlock,
    ResourceContentBlock,
    TextContentBlock,
    TextResourceContents,
)

from agentui.core.support.markdown_fence import fenced

PromptBlock = (
    TextContentBlock
    | ImageContentBlock
    | AudioContentBlock
    | ResourceContentBlock
    | EmbeddedResourceContentBlock
)


def task_text(blocks: Sequence[PromptBlock]) -> str:
    """The task; "" when the prompt holds nothing to work on (nothing but images, say)."""
    if not any(_block_text(block).strip() for block in blocks if not _left_out(block)):
        return ""
    parts = [_block_text(block) for block in blocks]
    return "\n\n".join(part for part in parts if part.strip())


def _left_out(block: PromptBlock) -> bool:
    """A block the agent is only told of."""
    if isinstance(block, EmbeddedResourceContentBlock):
        return isinstance(block.resource, BlobResourceContents)
    return isinstance(block, ImageContentBlock | AudioContentBlock)


def _block_text(block: PromptBlock) -> str:
    match block:
        case TextContentBlock(text=text):
            return text
        case ResourceContentBlock(name=name, uri=uri):
            return f"[{name}]({uri})"
        case EmbeddedResourceContentBlock(resource=TextResourceContents(uri=uri, text=text)):
            return f"{uri}:\n{fenced(text)}"
        case EmbeddedResourceContentBlock(resource=BlobResourceContents(uri=uri)):
            return f"[{uri}: binary content, left out: this agent reads text only]"
        case ImageContentBlock():
            return "[an image, left out: this agent reads text only]"
        case AudioContentBlock():
            return "[audio, left out: this agent reads text only]"
    return ""
