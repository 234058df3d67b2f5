"""Chat Completions chunks as neutral events: the cases a stub stream rarely produces."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import pytest

from agentui.core.agent.turn import TurnBuilder
from agentui.core.protocol.conversation import TextBlock, ThinkingBlock, ToolUseBlock
from agentui.core.protocol.usage import Usage
from agentui.core.providers.base import (
    StreamEnd,
    TextChunk,
    ThinkingChunk,
    ToolArgsDelta,
    ToolUseStart,
    ToolUseStop,
    UsageReport,
)
from agentui.core.providers.openai.stream import CONTENT_FILTERED, CUT_OFF, ChunkTranslator
from agentui.core.support.errors import ProviderError

if TYPE_CHECKING:
    from openai.types.chat import ChatCompletionChunk

# The SDKs (and the agentui modules that import them) are imported where used: collecting
# this module imports no SDK (tests/core/test_collection_imports.py).


def chunk(
    delta: dict[str, Any] | None = None,
    *,
    finish: str | None = None,
    usage: dict[str, Any] | None = None,
    index: int = 0,
) -> ChatCompletionChunk:
    """As the SDK makes them: built without validation, so a server's extra fields stay."""
    from openai.types.chat import ChatCompletionChunk

    choices = [] if delta is None else [{"index": index, "delta": delta, "finish_reason": finish}]
    return ChatCompletionChunk.construct(
        id="c", object="chat.completion.chunk", created=1, model="m", choices=choices, usage=usage
    )


def translate(*chunks: ChatCompletionChunk) -> list[Any]:
    translator = ChunkTranslator()
    events = [event for c in chunks for event in translator.feed(c)]
    return events + translator.end()


def turn_of(events: list[Any]) -> Any:
    builder = TurnBuilder()
    for event in events:
        builder.feed(event)
    return builder.finish()


def test_arguments_in_many_pieces_and_two_calls_at_once_reassemble() -> None:
    events = translate(
        chunk({"content": "Both."}),
        chunk(
            {"tool_calls": [{"index": 0, "id": "a", "function": {"name": "f", "arguments": ""}}]}
        ),
        chunk(
            {"tool_calls": [{"index": 1, "id": "b", "function": {"name": "g", "arguments": "{"}}]}
        ),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": '{"x"'}}]}),
        chunk({"tool_calls": [{"index": 1, "function": {"arguments": "}"}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"arguments": ": 1}"}}]}),
        chunk({}, finish="tool_calls"),
    )
    turn = turn_of(events)

    assert [(c.id, c.name, c.arguments) for c in turn.tool_calls] == [
        ("a", "f", {"x": 1}),
        ("b", "g", {}),
    ], "interleaved pieces go to their own call"
    assert turn.stop_reason == "tool_use"
    assert [type(b) for b in turn.content] == [TextBlock, ToolUseBlock, ToolUseBlock]


def test_a_call_without_index_or_id_still_gets_its_arguments_and_an_id() -> None:
    events = translate(
        chunk({"tool_calls": [{"function": {"name": "f", "arguments": '{"a":'}}]}),
        chunk({"tool_calls": [{"function": {"arguments": " 2}"}}]}),
        chunk({}, finish="tool_calls"),
    )
    (call,) = turn_of(events).tool_calls

    assert call.name == "f" and call.arguments == {"a": 2}
    assert call.id.startswith("call_") and len(call.id) > len("call_")


def test_arguments_before_the_name_wait_for_it() -> None:
    events = translate(
        chunk({"tool_calls": [{"index": 0, "id": "a", "function": {"arguments": '{"k": '}}]}),
        chunk({"tool_calls": [{"index": 0, "function": {"name": "f", "arguments": "3}"}}]}),
        chunk({}, finish="tool_calls"),
    )
    assert events[:3] == [
        ToolUseStart("a", "f"),
        ToolArgsDelta("a", '{"k": '),
        ToolArgsDelta("a", "3}"),
    ]


@pytest.mark.parametrize("field", ["reasoning_content", "reasoning"])
def test_reasoning_from_either_field_is_thinking_without_a_signature(field: str) -> None:
    events = translate(
        chunk({field: "Let me "}),
        chunk({field: "think."}),
        chunk({"content": "Done."}, finish="stop"),
    )
    assert events[:3] == [ThinkingChunk("Let me "), ThinkingChunk("think."), TextChunk("Done.")]
    assert turn_of(events).content == [
        ThinkingBlock(thinking="Let me think.", signature=None),
        TextBlock(text="Done."),
    ]


def test_a_server_sending_both_reasoning_fields_is_not_counted_twice() -> None:
    events = translate(chunk({"reasoning_content": "Hm.", "reasoning": "Hm."}, finish="stop"))
    assert events[0] == ThinkingChunk("Hm.")
    assert events.count(ThinkingChunk("Hm.")) == 1


def test_usage_after_the_finish_counts_cached_prompt_tokens_as_cache_reads() -> None:
    usage = {
        "prompt_tokens": 1000,
        "completion_tokens": 300,
        "total_tokens": 1300,
        "prompt_tokens_details": {"cached_tokens": 800},
        "completion_tokens_details": {"reasoning_tokens": 200},
    }
    events = translate(chunk({"content": "x"}, finish="stop"), chunk(usage=usage))
    assert events[-2:] == [
        UsageReport(Usage(input_tokens=200, output_tokens=300, cache_read_input_tokens=800)),
        StreamEnd("end_turn"),
    ], "reasoning tokens are output tokens; the end waits for the usage"


@pytest.mark.parametrize(
    ("finish", "stop_reason"),
    [("stop", "end_turn"), ("tool_calls", "tool_use"), ("length", "max_tokens")],
)
def test_finish_reasons_map_to_ours(finish: str, stop_reason: str) -> None:
    assert translate(chunk({"content": "x"}, finish=finish))[-1] == StreamEnd(stop_reason)


def test_length_cutting_a_tool_call_fails_that_call_with_its_json_error() -> None:
    events = translate(
        chunk(
            {
                "tool_calls": [
                    {"index": 0, "id": "a", "function": {"name": "f", "arguments": '{"q": "lo'}}
                ]
            }
        ),
        chunk({}, finish="length"),
    )
    (call,) = turn_of(events).tool_calls
    assert call.argument_error is not None and "not valid JSON" in call.argument_error
    assert events[-2:] == [ToolUseStop("a"), StreamEnd("max_tokens")]


def test_the_content_filter_is_a_clear_error_not_retried() -> None:
    with pytest.raises(ProviderError) as caught:
        translate(chunk({"content": "Once upon"}), chunk({}, finish="content_filter"))
    assert str(caught.value) == CONTENT_FILTERED
    assert caught.value.retryable is False


def test_a_refusal_is_an_error_quoting_it() -> None:
    with pytest.raises(ProviderError) as caught:
        translate(
            chunk({"refusal": "I can't "}), chunk({"refusal": "help with that."}, finish="stop")
        )
    assert str(caught.value) == "the model refused: I can't help with that."
    assert caught.value.retryable is False


def test_a_stream_without_a_finish_reason_was_cut_off_and_is_retried() -> None:
    translator = ChunkTranslator()
    translator.feed(chunk({"content": "Half"}))
    with pytest.raises(ProviderError) as caught:
        translator.end()
    assert str(caught.value) == CUT_OFF and caught.value.retryable is True


def test_other_choices_than_the_first_are_ignored() -> None:
    events = translate(
        chunk({"content": "extra"}, index=1), chunk({"content": "mine"}, finish="stop")
    )
    assert events == [TextChunk("mine"), StreamEnd("end_turn")]
