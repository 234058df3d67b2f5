"""An MCP tool result as the model reads it: text, structured content, an error's text, and a
placeholder for images, audio and binary resources."""

from __future__ import annotations

import base64

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).


def _b64(size: int) -> str:
    return base64.b64encode(b"x" * size).decode()


def test_text_blocks_are_the_result() -> None:
    from mcp_types import CallToolResult, TextContent

    from agentui.core.tools.mcp.results import result_text

    result = CallToolResult(
        content=[TextContent(type="text", text="one"), TextContent(type="text", text="two")],
        structured_content={"result": "one"},
    )
    assert result_text(result) == "one\ntwo"


def test_structured_content_without_text_is_its_json() -> None:
    from mcp_types import CallToolResult

    from agentui.core.tools.mcp.results import result_text

    result = CallToolResult(content=[], structured_content={"total": 3, "unit": "€"})
    assert result_text(result) == '{"total": 3, "unit": "€"}'


def test_images_audio_and_resources_are_placeholders() -> None:
    from mcp_types import (
        AudioContent,
        BlobResourceContents,
        CallToolResult,
        EmbeddedResource,
        ImageContent,
        ResourceLink,
        TextResourceContents,
    )

    from agentui.core.tools.mcp.results import result_text

    result = CallToolResult(
        content=[
            ImageContent(type="image", data=_b64(12 * 1024), mime_type="image/png"),
            AudioContent(type="audio", data=_b64(300), mime_type="audio/wav"),
            ResourceLink(type="resource_link", name="log", uri="file:///var/log/x.log"),
            EmbeddedResource(
                type="resource",
                resource=TextResourceContents(uri="memo://a", mime_type="text/plain", text="hi"),
            ),
            EmbeddedResource(
                type="resource",
                resource=BlobResourceContents(uri="memo://b", blob=_b64(3 * 1024 * 1024)),
            ),
        ]
    )
    assert result_text(result).splitlines() == [
        "[image: image/png, 12 KB]",
        "[audio: audio/wav, 300 B]",
        "[resource link: file:///var/log/x.log]",
        "[resource: memo://a, text/plain]",
        "hi",
        "[resource: memo://b, 3.0 MB]",
    ]


def test_an_error_result_says_the_servers_text() -> None:
    from mcp_types import CallToolResult, TextContent

    from agentui.core.tools.mcp.results import NO_MESSAGE, error_text

    failed = CallToolResult(content=[TextContent(type="text", text="disk full")], is_error=True)
    assert error_text(failed) == "disk full"
    assert error_text(CallToolResult(content=[], is_error=True)) == NO_MESSAGE


def test_a_result_within_the_cap_is_whole() -> None:
    from agentui.core.tools.mcp.results import capped

    assert capped("é" * 50, 100) == "é" * 50, "100 bytes of UTF-8, not more"
    assert capped("x" * 100, 100) == "x" * 100


def test_a_longer_result_keeps_its_head_and_tail_and_says_how_much_was_cut() -> None:
    from agentui.core.tools.mcp.results import capped

    text = "".join(f"{n:09d}\n" for n in range(1_000_000))  # 10 MB, as the probe's
    shown = capped(text, 3000)
    head, cut, tail = shown.split("\n[", 1)[0], shown.count("[output cut:"), shown[-1000:]
    assert cut == 1 and "[output cut: 9997000 bytes in the middle were not shown]" in shown
    assert text.startswith(head) and text.endswith(tail)
    assert len(shown.encode()) < 3100


def test_a_cut_through_a_character_shows_a_replacement_not_an_error() -> None:
    from agentui.core.tools.mcp.results import capped

    shown = capped("é" * 1000, 101)  # 67 head bytes end inside an é
    assert shown.startswith("é" * 33 + "\ufffd\n[output cut: 1899 bytes")
