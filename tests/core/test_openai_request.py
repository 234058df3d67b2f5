"""Our requests as Chat Completions parameters: OpenAI's roles and shapes, in each dialect."""

from __future__ import annotations

import pytest

from agentui.core.protocol.conversation import (
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
    user_text,
)
from agentui.core.providers.base import ProviderRequest, ToolSpec
from agentui.core.providers.openai.request import (
    ERROR_PREFIX,
    WINDOW_START,
    Dialect,
    chat_messages,
    request_params,
    response_format,
)
from agentui.core.workflow.decisions import ClarifyDecision, QuestionsDecision

OPENAI = Dialect.for_server("https://api.openai.com/v1")
LOCAL = Dialect.for_server("http://localhost:11434/v1")


def assistant(*blocks: object, interrupted: bool = False) -> Message:
    return Message(role="assistant", content=list(blocks), interrupted=interrupted)  # type: ignore[arg-type]


def user(*blocks: object) -> Message:
    return Message(role="user", content=list(blocks))  # type: ignore[arg-type]


def request(*messages: Message, **fields: object) -> ProviderRequest:
    fields.setdefault("model", "gpt-5.4")
    return ProviderRequest(instructions="Be brief.", messages=list(messages), **fields)  # type: ignore[arg-type]


def test_a_parallel_tool_round_trip_maps_to_tool_calls_and_tool_messages() -> None:
    messages = chat_messages(
        request(
            user_text("Ports?"),
            assistant(
                ThinkingBlock(thinking="Two lookups.", signature=None),
                TextBlock(text="Checking both."),
                ToolUseBlock(id="call_1", name="lookup", input={"query": "web"}),
                ToolUseBlock(id="call_2", name="lookup", input={"query": "db"}),
            ),
            user(
                ToolResultBlock(tool_use_id="call_1", content="web = 80"),
                ToolResultBlock(tool_use_id="call_2", content="no such key", is_error=True),
                TextBlock(text="Also, be quick."),
            ),
        ),
        "developer",
    )

    assert messages == [
        {"role": "developer", "content": "Be brief."},
        {"role": "user", "content": "Ports?"},
        {
            "role": "assistant",
            "content": "Checking both.",
            "tool_calls": [
                {
                    "id": "call_1",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"query": "web"}'},
                },
                {
                    "id": "call_2",
                    "type": "function",
                    "function": {"name": "lookup", "arguments": '{"query": "db"}'},
                },
            ],
        },
        {"role": "tool", "tool_call_id": "call_1", "content": "web = 80"},
        {"role": "tool", "tool_call_id": "call_2", "content": ERROR_PREFIX + "no such key"},
        {"role": "user", "content": "Also, be quick."},
    ], "thinking is never sent back; tool messages follow their call, the person's words after"


def test_an_assistant_message_of_only_tool_calls_has_no_content() -> None:
    (_, _, call) = chat_messages(
        request(user_text("Go"), assistant(ToolUseBlock(id="c", name="t", input={}))), "system"
    )
    assert call == {
        "role": "assistant",
        "content": None,
        "tool_calls": [
            {"id": "c", "type": "function", "function": {"name": "t", "arguments": "{}"}}
        ],
    }


def test_system_messages_join_the_instructions_in_the_dialects_role() -> None:
    asked = request(
        Message(role="system", content=[TextBlock(text="Use metric.")]), user_text("Hi")
    )
    assert chat_messages(asked, "system")[0] == {
        "role": "system",
        "content": "Be brief.\n\nUse metric.",
    }
    assert chat_messages(asked, "developer")[0]["role"] == "developer"


def test_same_role_messages_merge_and_empty_ones_are_dropped() -> None:
    messages = chat_messages(
        request(
            user_text("One"),
            user(TextBlock(text="  ")),
            user_text("Two"),
            assistant(TextBlock(text="A")),
            assistant(RedactedThinkingBlock(data="opaque")),
            assistant(TextBlock(text="B")),
        ),
        "system",
    )
    assert messages[1:] == [
        {"role": "user", "content": "One\n\nTwo"},
        {"role": "assistant", "content": "A\n\nB"},
    ]


def test_an_interrupted_message_is_sent_as_its_plain_text() -> None:
    messages = chat_messages(
        request(
            user_text("Go"),
            assistant(
                TextBlock(text="Half an"),
                ToolUseBlock(id="never", name="lookup", input={}),
                interrupted=True,
            ),
            user_text("Go on"),
        ),
        "system",
    )
    assert messages[2] == {"role": "assistant", "content": "Half an"}


def test_a_window_that_starts_with_the_assistant_gets_a_user_message_in_front() -> None:
    messages = chat_messages(request(assistant(TextBlock(text="Earlier."))), "system")
    assert messages[1:] == [
        {"role": "user", "content": WINDOW_START},
        {"role": "assistant", "content": "Earlier."},
    ]


def test_tools_map_to_functions_with_their_json_schema() -> None:
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"]}
    params = request_params(
        request(user_text("Hi"), tools=[ToolSpec("lookup", "Look it up.", schema)]),
        LOCAL,
        reasoning_room=None,
    )
    assert params["tools"] == [
        {
            "type": "function",
            "function": {"name": "lookup", "description": "Look it up.", "parameters": schema},
        }
    ]
    assert "parallel_tool_calls" not in params, "left to the server's default (on)"


def test_openai_gets_developer_and_max_completion_tokens_with_room_to_reason() -> None:
    params = request_params(request(user_text("Hi")), OPENAI, reasoning_room=2048)
    assert params["messages"][0]["role"] == "developer"
    assert params["max_completion_tokens"] == 4096 + 2048
    assert "max_tokens" not in params
    assert params["stream"] is True
    assert params["stream_options"] == {"include_usage": True}
    asked = request(user_text("Hi"), thinking_budget=0)
    assert request_params(asked, OPENAI, reasoning_room=2048)["max_completion_tokens"] == 4096


def test_a_compatible_server_gets_system_and_max_tokens_without_room() -> None:
    params = request_params(request(user_text("Hi"), model="qwen3:8b"), LOCAL, reasoning_room=2048)
    assert params["messages"][0]["role"] == "system"
    assert params["max_tokens"] == 4096, "vLLM refuses a limit past the model's context"
    assert "max_completion_tokens" not in params


@pytest.mark.parametrize(
    ("message", "changed"),
    [
        ("Unrecognized request argument supplied: stream_options", {"stream_usage": False}),
        ("Invalid schema for response_format 'clarify': ...", {"structured": "loose"}),
        ("Invalid value: 'developer'. Supported values are: 'system', ...", None),
        ("The model does not exist", None),
    ],
)
def test_a_refusal_naming_a_feature_turns_it_off(
    message: str, changed: dict[str, object] | None
) -> None:
    relaxed = LOCAL.relaxed_for(message)
    if changed is None:
        assert relaxed is None, "a compatible server is not sent developer in the first place"
    else:
        assert relaxed is not None
        assert {k: getattr(relaxed, k) for k in changed} == changed


def test_each_feature_is_relaxed_once_then_the_refusal_stands() -> None:
    dialect = OPENAI.relaxed_for("Invalid value: 'developer'")
    assert dialect is not None and dialect.instructions_role == "system"
    assert dialect.relaxed_for("Invalid value: 'developer'") is None
    loose = OPENAI.relaxed_for("response_format json_schema is not supported")
    assert loose is not None and loose.structured == "loose"
    off = loose.relaxed_for("response_format is not supported")
    assert off is not None and off.structured == "off"
    assert off.relaxed_for("response_format is not supported") is None
    assert "response_format" not in request_params(
        request(user_text("Hi"), response_schema={"type": "object"}), off, reasoning_room=None
    )


def test_a_declared_response_schema_asks_for_strict_json_schema() -> None:
    schema = ClarifyDecision.model_json_schema()
    params = request_params(
        request(user_text("Hi"), response_schema=schema, decision="clarify", purpose="decision"),
        OPENAI,
        reasoning_room=None,
    )
    declared = params["response_format"]
    assert declared["type"] == "json_schema"
    assert declared["json_schema"]["name"] == "clarify"
    assert declared["json_schema"]["strict"] is True
    strict = declared["json_schema"]["schema"]
    assert strict["additionalProperties"] is False
    assert strict["required"] == ["ambiguous", "question"], "strict: every property required"
    assert "default" not in strict["properties"]["question"], "a None default goes"
    assert "required" not in schema and "additionalProperties" not in schema, "not changed"


def test_free_text_requests_ask_for_no_format() -> None:
    assert "response_format" not in request_params(
        request(user_text("Hi")), OPENAI, reasoning_room=None
    )


def test_a_loose_dialect_sends_the_schema_as_it_is() -> None:
    schema = QuestionsDecision.model_json_schema()
    declared = response_format(schema, "questions", "loose")
    assert declared is not None and declared["json_schema"]["schema"] == schema
    assert declared["json_schema"]["strict"] is False
