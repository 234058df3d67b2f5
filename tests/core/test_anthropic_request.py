"""Our requests as Messages API parameters: what the API would reject is repaired, the rest kept."""

from __future__ import annotations

import copy

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
from agentui.core.support.errors import ProviderError
from agentui.core.workflow.decisions import QuestionsDecision

# request.py imports the SDK: each test imports it, so collecting this module imports no SDK.


def assistant(*blocks: object, interrupted: bool = False) -> Message:
    return Message(role="assistant", content=list(blocks), interrupted=interrupted)  # type: ignore[arg-type]


def user(*blocks: object) -> Message:
    return Message(role="user", content=list(blocks))  # type: ignore[arg-type]


def request(*messages: Message, **fields: object) -> ProviderRequest:
    fields.setdefault("model", "claude-sonnet-4-6")
    return ProviderRequest(instructions="Be brief.", messages=list(messages), **fields)  # type: ignore[arg-type]


def test_a_tool_round_trip_maps_both_ways_with_signed_thinking() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("What is the port?"),
        assistant(
            ThinkingBlock(thinking="Look it up.", signature="sig"),
            TextBlock(text="Checking."),
            ToolUseBlock(id="toolu_1", name="lookup", input={"query": "port"}),
        ),
        user(ToolResultBlock(tool_use_id="toolu_1", content="8080")),
        user(ToolResultBlock(tool_use_id="toolu_2", content="boom", is_error=True)),
    ]

    assert api_messages(messages) == [
        {"role": "user", "content": [{"type": "text", "text": "What is the port?"}]},
        {
            "role": "assistant",
            "content": [
                {"type": "thinking", "thinking": "Look it up.", "signature": "sig"},
                {"type": "text", "text": "Checking."},
                {"type": "tool_use", "id": "toolu_1", "name": "lookup", "input": {"query": "port"}},
            ],
        },
        {
            "role": "user",
            "content": [
                {"type": "tool_result", "tool_use_id": "toolu_1", "content": "8080"},
                {
                    "type": "tool_result",
                    "tool_use_id": "toolu_2",
                    "content": "boom",
                    "is_error": True,
                },
            ],
        },
    ]


def test_system_messages_join_the_instructions() -> None:
    from agentui.core.providers.anthropic.request import request_params

    params = request_params(
        request(
            Message(role="system", content=[TextBlock(text="Earlier summary.")]),
            user_text("Go on."),
        ),
        thinking_budget=None,
    )

    assert params["system"] == "Be brief.\n\nEarlier summary."
    assert params["messages"] == [{"role": "user", "content": [{"type": "text", "text": "Go on."}]}]


def test_same_role_messages_merge_with_tool_results_first() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Task."),
        assistant(ToolUseBlock(id="t1", name="lookup", input={})),
        user(TextBlock(text="A note from the person.")),
        user(ToolResultBlock(tool_use_id="t1", content="ok")),
    ]

    (_, _, merged) = api_messages(messages)

    assert merged["role"] == "user"
    assert [b["type"] for b in merged["content"]] == ["tool_result", "text"]


def test_a_paused_turn_and_its_continuation_merge_into_one_assistant_message() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Task."),
        assistant(TextBlock(text="Part one. ")),
        assistant(TextBlock(text="Part two.")),
    ]

    assert api_messages(messages)[1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Part one. "}, {"type": "text", "text": "Part two."}],
    }


def test_a_trailing_assistant_message_loses_its_trailing_whitespace() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [user_text("Task."), assistant(TextBlock(text="Searching \n"))]

    assert api_messages(messages)[-1]["content"] == [{"type": "text", "text": "Searching"}]


def test_an_interrupted_message_is_sent_as_its_plain_text() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Task."),
        assistant(
            ThinkingBlock(thinking="hm", signature="sig"),
            TextBlock(text="Half an answer"),
            ToolUseBlock(id="t9", name="lookup", input={}),
            interrupted=True,
        ),
        user_text("Please go on."),
    ]

    assert api_messages(messages)[1] == {
        "role": "assistant",
        "content": [{"type": "text", "text": "Half an answer"}],
    }


def test_redacted_thinking_goes_back_verbatim_but_not_from_an_interrupted_message() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Task."),
        assistant(
            RedactedThinkingBlock(data="opaque=="),
            ToolUseBlock(id="t1", name="lookup", input={"q": "port"}),
        ),
        user(ToolResultBlock(tool_use_id="t1", content="8080")),
        assistant(RedactedThinkingBlock(data="cut"), TextBlock(text="Half"), interrupted=True),
    ]

    mapped = api_messages(messages)
    assert mapped[1]["content"] == [
        {"type": "redacted_thinking", "data": "opaque=="},
        {"type": "tool_use", "id": "t1", "name": "lookup", "input": {"q": "port"}},
    ]
    assert mapped[3]["content"] == [{"type": "text", "text": "Half"}]


def test_unsigned_thinking_empty_text_and_empty_messages_are_dropped() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Task."),
        assistant(ThinkingBlock(thinking="from the scripted model"), TextBlock(text="  ")),
        user_text("Still there?"),
        assistant(ThinkingBlock(thinking="unsigned"), TextBlock(text="Yes.")),
    ]

    assert api_messages(messages) == [
        {
            "role": "user",
            "content": [
                {"type": "text", "text": "Task."},
                {"type": "text", "text": "Still there?"},
            ],
        },
        {"role": "assistant", "content": [{"type": "text", "text": "Yes."}]},
    ]


def test_a_window_that_starts_with_the_assistant_gets_a_user_message_in_front() -> None:
    from agentui.core.providers.anthropic.request import WINDOW_START, api_messages

    messages = [assistant(TextBlock(text="Earlier answer.")), user_text("And now?")]

    mapped = api_messages(messages)

    assert mapped[0] == {"role": "user", "content": [{"type": "text", "text": WINDOW_START}]}
    assert [m["role"] for m in mapped] == ["user", "assistant", "user"]


def test_tools_map_to_json_schema() -> None:
    from agentui.core.providers.anthropic.request import request_params

    schema = {"type": "object", "properties": {"query": {"type": "string"}}}
    params = request_params(
        request(user_text("Task."), tools=[ToolSpec("lookup", "Look up.", schema)]),
        thinking_budget=None,
    )

    assert params["tools"] == [
        {"name": "lookup", "description": "Look up.", "input_schema": schema}
    ]
    assert "thinking" not in params
    assert params["max_tokens"] == 4096


def test_thinking_budget_of_the_request_wins_and_adds_to_max_tokens() -> None:
    from agentui.core.providers.anthropic.request import request_params

    older = "claude-haiku-4-5"
    by_provider = request_params(request(user_text("Task."), model=older), thinking_budget=2048)
    by_request = request_params(
        request(user_text("Task."), model=older, thinking_budget=4000), thinking_budget=2048
    )
    turned_off = request_params(
        request(user_text("Task."), thinking_budget=0), thinking_budget=2048
    )

    assert by_provider["thinking"] == {"type": "enabled", "budget_tokens": 2048}
    assert by_provider["max_tokens"] == 4096 + 2048
    assert by_request["thinking"] == {"type": "enabled", "budget_tokens": 4000}
    assert "thinking" not in turned_off


def test_models_from_4_6_on_think_adaptively_with_the_budget_as_headroom() -> None:
    from agentui.core.providers.anthropic.request import request_params

    params = request_params(request(user_text("Task.")), thinking_budget=2048)

    assert params["model"] == "claude-sonnet-4-6"
    assert params["thinking"] == {"type": "adaptive"}
    assert params["max_tokens"] == 4096 + 2048


@pytest.mark.parametrize(
    ("model", "form"),
    [
        ("claude-haiku-4-5", "budget"),
        ("claude-sonnet-4-5-20250929", "budget"),
        ("claude-opus-4-20250514", "budget"),
        ("claude-3-7-sonnet-20250219", "budget"),
        ("my-proxy-model", "budget"),
        ("claude-sonnet-4-6", "adaptive"),
        ("claude-opus-4-8", "adaptive"),
        ("claude-haiku-5-5", "adaptive"),
        ("claude-opus-5-5-20261001", "adaptive"),
    ],
)
def test_the_thinking_form_follows_the_model_version(model: str, form: str) -> None:
    from agentui.core.providers.anthropic.request import thinking_form

    assert thinking_form(model) == form


def test_a_thinking_budget_below_the_minimum_is_refused() -> None:
    from agentui.core.providers.anthropic.request import request_params

    with pytest.raises(ProviderError, match="at least 1024"):
        request_params(request(user_text("Task.")), thinking_budget=100)


# -- structured output ---------------------------------------------------------------------


def test_a_declared_response_schema_asks_for_structured_output() -> None:
    from agentui.core.providers.anthropic.request import request_params

    schema = QuestionsDecision.model_json_schema()
    sent = copy.deepcopy(schema)
    params = request_params(
        request(user_text("Task."), purpose="decision", response_schema=sent, thinking_budget=0),
        thinking_budget=2048,
    )

    assert params["output_config"] == {
        "format": {
            "type": "json_schema",
            # In the subset the API takes: closed, with what it does not check described.
            "schema": {
                "type": "object",
                "description": schema["description"],
                "title": "QuestionsDecision",
                "properties": {
                    "questions": {
                        "type": "array",
                        "title": "Questions",
                        "items": {"type": "string", "description": "{minLength: 1}"},
                        "description": "{default: [], maxItems: 3}",
                    }
                },
                "additionalProperties": False,
            },
        }
    }
    assert sent == schema, "the request's own schema is left as it was"
    assert "tools" not in params and "thinking" not in params


def test_free_text_requests_ask_for_no_format() -> None:
    from agentui.core.providers.anthropic.request import request_params

    assert "output_config" not in request_params(request(user_text("Task.")), thinking_budget=None)


@pytest.mark.parametrize(
    ("model", "structured"),
    [
        ("claude-haiku-4-5", True),
        ("claude-sonnet-4-5-20250929", True),
        ("claude-sonnet-4-6", True),
        ("claude-opus-4-8", True),
        ("claude-opus-5-5-20261001", True),
        ("claude-opus-4-1", False),
        ("claude-opus-4-20250514", False),
        ("claude-3-7-sonnet-20250219", False),
        ("my-proxy-model", False),
    ],
)
def test_structured_output_is_asked_of_models_that_have_it(model: str, structured: bool) -> None:
    from agentui.core.providers.anthropic.request import has_structured_output, request_params

    assert has_structured_output(model) is structured
    schema = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
    params = request_params(
        request(user_text("Task."), model=model, response_schema=schema), thinking_budget=None
    )
    assert ("output_config" in params) is structured


def test_a_draft_07_schema_keeps_its_definitions_as_defs() -> None:
    """An agent profile's schema is Draft-07, whose `definitions` the SDK would drop."""
    from agentui.core.providers.anthropic.request import request_params

    schema = {
        "type": "object",
        "properties": {"mood": {"$ref": "#/definitions/mood"}},
        "required": ["mood"],
        "definitions": {"mood": {"type": "string", "enum": ["calm", "wary"]}},
    }
    params = request_params(
        request(user_text("Task."), response_schema=copy.deepcopy(schema)), thinking_budget=None
    )
    assert params["output_config"]["format"]["schema"] == {
        "$defs": {"mood": {"enum": ["calm", "wary"]}},  # the SDK's form of an enum
        "type": "object",
        "properties": {"mood": {"$ref": "#/$defs/mood"}},
        "required": ["mood"],
        "additionalProperties": False,
    }


def test_a_schema_the_api_cannot_take_goes_without_structured_output() -> None:
    from agentui.core.providers.anthropic.request import request_params

    schema = {"type": "object", "properties": {"note": {"type": ["string", "null"]}}}
    params = request_params(
        request(user_text("Task."), response_schema=schema), thinking_budget=None
    )
    assert "output_config" not in params  # the instructions carry it; the answer is validated
