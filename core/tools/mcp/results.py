"""An MCP tool result as the text the model reads.

The text blocks are the result, as the server wrote them for a reader; structured content (as
JSON) is, when there is no text (servers also give it as text, the protocol asks them to).
Images and audio become a placeholder such as `[image: image/png, 12 KB]`; an embedded text
resource keeps its text under its address, other resources are named by their address.

A result longer than its server's `max_result_bytes` (in UTF-8) is cut as python's output is:
its head and tail are kept, and a line in the middle says how many bytes were left out. A 10 MB
result would otherwise go whole into the conversation (every later request) and the session.
"""

from __future__ import annotations

import json

from mcp_types import (
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    ContentBlock,
    EmbeddedResource,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)

from agentui.core.tools.output_cap import OutputCap

NO_MESSAGE = "the tool reported an error without saying why"


def result_text(result: CallToolResult) -> str:
    """What a successful call returns to the model."""
    parts = [b.text if isinstance(b, TextContent) else _other(b) for b in result.content]
    structured = result.structured_content
    if structured is not None and not any(isinstance(b, TextContent) for b in result.content):
        parts.insert(0, json.dumps(structured, ensure_ascii=False))
    return "\n".join(parts)


def error_text(result: CallToolResult) -> str:
    """Why a call the server marked `isError` failed: its own text."""
    text = "\n".join(b.text for b in result.content if isinstance(b, TextContent)).strip()
    return text or NO_MESSAGE


def capped(text: str, max_bytes: int) -> str:
    """`text`, or its head and tail with the size of what was cut when its UTF-8 is longer
    than `max_bytes`."""
    if len(text) * 4 <= max_bytes:  # a character is at most 4 bytes: no need to encode
        return text
    cap = OutputCap(max_bytes)
    cap.feed(text.encode("utf-8", errors="surrogatepass"))
    return cap.text() if cap.dropped else text


def _other(block: ContentBlock) -> str:
    if isinstance(block, ImageContent | AudioContent):
        return f"[{block.type}: {block.mime_type}, {_size(_decoded_bytes(block.data))}]"
    if isinstance(block, ResourceLink):
        mime = f", {block.mime_type}" if block.mime_type else ""
        return f"[resource link: {block.uri}{mime}]"
    if isinstance(block, EmbeddedResource):
        resource = block.resource
        mime = f", {resource.mime_type}" if resource.mime_type else ""
        if isinstance(resource, TextResourceContents):
            return f"[resource: {resource.uri}{mime}]\n{resource.text}"
        if isinstance(resource, BlobResourceContents):
            size = _size(_decoded_bytes(resource.blob))
            return f"[resource: {resource.uri}{mime}, {size}]"
    return f"[{getattr(block, 'type', 'content')}]"  # a kind of content this version lacks


def _decoded_bytes(base64_text: str) -> int:
    """The size of what base64 text encodes, without decoding it."""
    text = base64_text.strip()
    return len(text) * 3 // 4 - text[-2:].count("=") if text else 0


def _size(count: int) -> str:
    if count < 1024:
        return f"{count} B"
    if count < 1024 * 1024:
        return f"{round(count / 1024)} KB"
    return f"{count / (1024 * 1024):.1f} MB"
