"""The SDK's stream events as neutral events: the cases a stub stream rarely produces."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from agentui.core.agent.turn import TurnBuilder
from agentui.core.protocol.conversation import RedactedThinkingBlock, TextBlock, ThinkingBlock
from agentui.core.protocol.usage import Usage
from agentui.core.providers.anthropic.stream import StreamTranslator
from agentui.core.providers.base import (
    RedactedThinking,
    StreamEnd,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)

if TYPE_CHECKING:
    from anthropic.types import (
        RawContentBlockDeltaEvent,
        RawContentBlockStartEvent,
        RawContentBlockStopEvent,
        RawMessageDeltaEvent,
        RawMessageStartEvent,
        RawMessageStopEvent,
    )

# The SDK's types are imported where an event is made: collecting this module imports no SDK.


def start(**usage: int) -> RawMessageStartEvent:
    from anthropic.types import RawMessageStartEvent

    return RawMessageStartEvent.model_validate(
        {
            "type": "message_start",
            "message": {
                "id": "msg",
                "type": "message",
                "role": "assistant",
                "model": "claude-sonnet-4-6",
                "content": [],
                "usage": {"input_tokens": 10, "output_tokens": 1, **usage},
            },
        }
    )


def block_start(index: int, block: dict[str, Any]) -> RawContentBlockStartEvent:
    from anthropic.types import RawContentBlockStartEvent

    return RawContentBlockStartEvent.model_validate(
        {"type": "content_block_start", "index": index, "content_block": block}
    )


def delta(index: int, body: dict[str, Any]) -> RawContentBlockDeltaEvent:
    from anthropic.types import RawContentBlockDeltaEvent

    return RawContentBlockDeltaEvent.model_validate(
        {"type": "content_block_delta", "index": index, "delta": body}
    )


def stop(index: int) -> RawContentBlockStopEvent:
    from anthropic.types import RawContentBlockStopEvent

    return RawContentBlockStopEvent(type="content_block_stop", index=index)


def message_delta(stop_reason: str, **usage: int) -> RawMessageDeltaEvent:
    from anthropic.types import RawMessageDeltaEvent

    return RawMessageDeltaEvent.model_validate(
        {"type": "message_delta", "delta": {"stop_reason": stop_reason}, "usage": usage}
    )


def message_stop() -> RawMessageStopEvent:
    from anthropic.types import RawMessageStopEvent

    return RawMessageStopEvent(type="message_stop")


def translate(*events: Any) -> tuple[list[Any], StreamTranslator]:
    translator = StreamTranslator()
    out = [neutral for event in events for neutral in translator.feed(event)]
    return out, translator


def test_redacted_thinking_comes_through_whole_and_server_tool_blocks_are_skipped() -> None:
    out, translator = translate(
        start(),
        block_start(0, {"type": "redacted_thinking", "data": "opaque=="}),
        stop(0),
        block_start(
            1, {"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_search", "input": {}}
        ),
        stop(1),
        block_start(2, {"type": "text", "text": ""}),
        delta(2, {"type": "text_delta", "text": "Hi"}),
        stop(2),
        message_delta("end_turn", output_tokens=3),
        message_stop(),
    )

    usage = [e for e in out if isinstance(e, UsageReport)]
    assert [e for e in out if not isinstance(e, UsageReport)] == [
        RedactedThinking("opaque=="),
        TextChunk("Hi"),
        StreamEnd("end_turn"),
    ]
    assert usage[-1].usage.output_tokens == 3
    assert translator.finished


def test_a_redacted_block_is_kept_in_the_turn_between_its_neighbours() -> None:
    builder = TurnBuilder()
    for event in (
        ThinkingChunk("Plan."),
        ThinkingChunk("", signature="sig"),
        RedactedThinking("opaque=="),
        TextChunk("Done."),
        StreamEnd("end_turn"),
    ):
        builder.feed(event)

    assert builder.finish().content == [
        ThinkingBlock(thinking="Plan.", signature="sig"),
        RedactedThinkingBlock(data="opaque=="),
        TextBlock(text="Done."),
    ]


def test_a_tool_use_with_its_input_whole_still_sends_the_arguments() -> None:
    out, _ = translate(
        start(),
        block_start(0, {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"q": "x"}}),
        stop(0),
    )

    assert out[1:] == [  # after message_start's usage
        ToolUseStart("t1", "lookup"),
        ToolArgsDelta("t1", '{"q": "x"}'),
        ToolUseStop("t1"),
    ]


def test_a_signature_closes_its_thinking_block() -> None:
    out, _ = translate(
        start(),
        block_start(0, {"type": "thinking", "thinking": "", "signature": ""}),
        delta(0, {"type": "thinking_delta", "thinking": "Plan."}),
        delta(0, {"type": "signature_delta", "signature": "sig"}),
        stop(0),
    )

    assert out[1:] == [ThinkingChunk("Plan."), ThinkingChunk("", signature="sig")]


def test_usage_is_reported_as_it_grows_and_message_delta_overrides_what_it_names() -> None:
    out, _ = translate(
        start(cache_creation_input_tokens=5, cache_read_input_tokens=6),
        message_delta("max_tokens", output_tokens=40, cache_read_input_tokens=9),
        message_delta("max_tokens", output_tokens=50),
        message_stop(),
    )

    def usage(output: int, cache_read: int) -> UsageReport:
        return UsageReport(
            Usage(
                input_tokens=10,
                output_tokens=output,
                cache_creation_input_tokens=5,
                cache_read_input_tokens=cache_read,
            )
        )

    # From message_start on, so an attempt cut short still knows what it cost.
    assert out == [usage(1, 6), usage(40, 9), usage(50, 9), StreamEnd("max_tokens")]


def test_a_stream_without_message_stop_is_not_finished() -> None:
    _, translator = translate(start(), block_start(0, {"type": "text", "text": "Hal"}))

    assert not translator.finished
