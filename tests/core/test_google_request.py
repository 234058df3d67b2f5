"""Our requests as Gemini contents and config: what the API would refuse is repaired, the rest
kept. Compared as the JSON the SDK sends (camelCase keys, bytes as base64)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

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
from agentui.core.providers.factory import make_provider
from agentui.core.providers.google import thought_signature
from agentui.core.providers.google.call_ids import new_call_id, wire_id
from agentui.core.providers.google.defaults import base_url, resolve_model
from agentui.core.providers.keys import key_value, provider_by_key
from agentui.core.workflow.decisions import QuestionsDecision

if TYPE_CHECKING:
    from google.genai import types

# request.py imports the SDK: each test imports it, so collecting this module imports no SDK.

SIG = thought_signature.to_text(b"gemini-signed")
SIG_WIRE = "Z2VtaW5pLXNpZ25lZA=="  # the same bytes as the API sends them


def assistant(*blocks: object, interrupted: bool = False) -> Message:
    return Message(role="assistant", content=list(blocks), interrupted=interrupted)  # type: ignore[arg-type]


def user(*blocks: object) -> Message:
    return Message(role="user", content=list(blocks))  # type: ignore[arg-type]


def request(*messages: Message, **fields: object) -> ProviderRequest:
    fields.setdefault("model", "gemini-3.8-flash")
    return ProviderRequest(instructions="Be brief.", messages=list(messages), **fields)  # type: ignore[arg-type]


def wire(contents: list[types.Content]) -> list[dict[str, Any]]:
    return [c.model_dump(mode="json", by_alias=True, exclude_none=True) for c in contents]


def config_wire(config: types.GenerateContentConfig) -> dict[str, Any]:
    return config.model_dump(
        mode="json", by_alias=True, exclude_none=True, exclude={"automatic_function_calling"}
    )


def test_a_function_round_trip_maps_both_ways_with_signatures_on_their_parts() -> None:
    from agentui.core.providers.google.request import api_contents

    messages = [
        user_text("What are the port and host?"),
        assistant(
            ThinkingBlock(thinking="Look both up.", signature=SIG),
            TextBlock(text="Checking."),
            ToolUseBlock(id="c-1", name="lookup", input={"query": "port"}),
            ThinkingBlock(thinking="", signature=SIG),  # the signature of the call before it
            ToolUseBlock(id="c-2", name="lookup", input={"query": "host"}),
        ),
        user(ToolResultBlock(tool_use_id="c-1", content="8080")),
        user(ToolResultBlock(tool_use_id="c-2", content="boom", is_error=True)),
    ]

    assert wire(api_contents(messages)) == [
        {"role": "user", "parts": [{"text": "What are the port and host?"}]},
        {
            "role": "model",
            "parts": [
                {"text": "Look both up.", "thought": True, "thoughtSignature": SIG_WIRE},
                {"text": "Checking."},
                {
                    "functionCall": {"id": "c-1", "name": "lookup", "args": {"query": "port"}},
                    "thoughtSignature": SIG_WIRE,
                },
                {"functionCall": {"id": "c-2", "name": "lookup", "args": {"query": "host"}}},
            ],
        },
        {
            "role": "user",
            "parts": [
                {
                    "functionResponse": {
                        "id": "c-1",
                        "name": "lookup",
                        "response": {"output": "8080"},
                    }
                },
                {
                    "functionResponse": {
                        "id": "c-2",
                        "name": "lookup",
                        "response": {"error": "boom"},
                    }
                },
            ],
        },
    ]


def test_a_lone_signature_at_the_start_goes_on_the_next_part() -> None:
    from agentui.core.providers.google.request import api_contents

    contents = api_contents(
        [
            user_text("Hi"),
            assistant(ThinkingBlock(thinking="", signature=SIG), TextBlock(text="Hello.")),
        ]
    )

    assert wire(contents)[1]["parts"] == [{"text": "Hello.", "thoughtSignature": SIG_WIRE}]


def test_thinking_gemini_did_not_sign_and_claude_s_redacted_thinking_are_dropped() -> None:
    from agentui.core.providers.google.request import api_contents

    contents = api_contents(
        [
            user_text("Hi"),
            assistant(
                ThinkingBlock(thinking="Claude's own.", signature="EqQBCkgIARABGAIi"),
                ThinkingBlock(thinking="An unsigned summary."),
                RedactedThinkingBlock(data="opaque=="),
                TextBlock(text="Hello."),
            ),
        ]
    )

    assert wire(contents)[1]["parts"] == [{"text": "Hello."}]


def test_a_call_we_named_goes_back_without_an_id() -> None:
    from agentui.core.providers.google.request import api_contents

    ours = new_call_id()
    contents = api_contents(
        [
            user_text("Port?"),
            assistant(ToolUseBlock(id=ours, name="lookup", input={})),
            user(ToolResultBlock(tool_use_id=ours, content="8080")),
        ]
    )

    assert wire_id(ours) is None and wire_id("c-1") == "c-1"
    assert wire(contents)[1:] == [
        {"role": "model", "parts": [{"functionCall": {"name": "lookup", "args": {}}}]},
        {
            "role": "user",
            "parts": [{"functionResponse": {"name": "lookup", "response": {"output": "8080"}}}],
        },
    ]


def test_same_role_messages_merge_with_function_responses_first() -> None:
    from agentui.core.providers.google.request import api_contents

    contents = api_contents(
        [
            user_text("Port?"),
            assistant(ToolUseBlock(id="c-1", name="lookup", input={})),
            user(TextBlock(text="(a note from the person)")),
            user(ToolResultBlock(tool_use_id="c-1", content="8080")),
        ]
    )

    assert wire(contents)[2] == {
        "role": "user",
        "parts": [
            {"functionResponse": {"id": "c-1", "name": "lookup", "response": {"output": "8080"}}},
            {"text": "(a note from the person)"},
        ],
    }


def test_a_result_whose_call_is_not_in_the_window_is_kept_as_text() -> None:
    from agentui.core.providers.google.request import api_contents

    contents = api_contents([user(ToolResultBlock(tool_use_id="gone", content="8080"))])

    assert wire(contents) == [{"role": "user", "parts": [{"text": "(a tool result) 8080"}]}]


def test_an_interrupted_message_is_sent_as_its_plain_text() -> None:
    from agentui.core.providers.google.request import api_contents

    contents = api_contents(
        [
            user_text("Go."),
            assistant(
                ThinkingBlock(thinking="Hm.", signature=SIG),
                TextBlock(text="Half an "),
                TextBlock(text="answer"),
                interrupted=True,
            ),
            user_text("Go on."),
        ]
    )

    assert wire(contents)[1] == {"role": "model", "parts": [{"text": "Half an answer"}]}


def test_empty_text_and_empty_messages_are_dropped_and_a_model_first_window_gets_a_start() -> None:
    from agentui.core.providers.google.request import WINDOW_START, api_contents

    contents = api_contents(
        [
            Message(role="system", content=[TextBlock(text="Joins the instructions.")]),
            assistant(TextBlock(text="Earlier answer.")),
            user(TextBlock(text="  ")),
            user_text("Next?"),
        ]
    )

    assert wire(contents) == [
        {"role": "user", "parts": [{"text": WINDOW_START}]},
        {"role": "model", "parts": [{"text": "Earlier answer."}]},
        {"role": "user", "parts": [{"text": "Next?"}]},
    ]


def test_system_messages_join_the_system_instruction() -> None:
    from agentui.core.providers.google.request import generation_config

    config = generation_config(
        request(Message(role="system", content=[TextBlock(text="Also this.")]), user_text("Hi")),
        thinking_budget=None,
    )

    assert config.system_instruction == "Be brief.\n\nAlso this."


def test_tools_go_as_their_json_schemas_with_draft_07_definitions_as_defs() -> None:
    from agentui.core.providers.google.request import generation_config

    schema = {
        "type": "object",
        "properties": {"where": {"$ref": "#/definitions/Place"}},
        "definitions": {"Place": {"type": "string"}},
    }
    config = generation_config(
        request(user_text("Hi"), tools=[ToolSpec("go", "Go somewhere.", schema)]),
        thinking_budget=None,
    )

    (declaration,) = config_wire(config)["tools"][0]["functionDeclarations"]
    assert declaration == {
        "name": "go",
        "description": "Go somewhere.",
        "parametersJsonSchema": {
            "type": "object",
            "properties": {"where": {"$ref": "#/$defs/Place"}},
            "$defs": {"Place": {"type": "string"}},
        },
    }
    assert config.automatic_function_calling is not None
    assert config.automatic_function_calling.disable is True, "we run the calls ourselves"


def test_a_thinking_budget_shows_thoughts_and_adds_to_the_output_room() -> None:
    from agentui.core.providers.google.request import UNBUDGETED_THINKING_ROOM, generation_config

    budgeted = generation_config(request(user_text("Hi")), thinking_budget=2048)
    override = generation_config(
        request(user_text("Hi"), thinking_budget=1024), thinking_budget=2048
    )
    least = generation_config(request(user_text("Hi"), thinking_budget=0), thinking_budget=2048)
    unbudgeted = generation_config(request(user_text("Hi")), thinking_budget=None)

    assert config_wire(budgeted)["thinkingConfig"] == {
        "includeThoughts": True,
        "thinkingBudget": 2048,
    }
    assert budgeted.max_output_tokens == 4096 + 2048
    assert override.thinking_config is not None and override.thinking_config.thinking_budget == 1024
    assert override.max_output_tokens == 4096 + 1024
    assert config_wire(least)["thinkingConfig"] == {"thinkingLevel": "LOW"}, "the request's 0 wins"
    assert least.max_output_tokens == 4096 + UNBUDGETED_THINKING_ROOM
    assert unbudgeted.thinking_config is None, "no budget at all: the model's own default"
    assert unbudgeted.max_output_tokens == 4096 + UNBUDGETED_THINKING_ROOM


@pytest.mark.parametrize(
    ("model", "least"),
    [
        ("gemini-3.8-flash", {"thinkingLevel": "LOW"}),
        ("gemini-3.1-pro-preview", {"thinkingLevel": "LOW"}),
        ("gemini-2.5-pro", {"thinkingBudget": 128}),
        ("gemini-2.5-flash", {"thinkingBudget": 0}),
        ("gemini-2.5-flash-lite", {"thinkingBudget": 0}),
        ("gemini-2.0-flash", None),
        ("my-gateway-model", None),
    ],
)
def test_asking_for_no_thinking_asks_for_the_least_the_model_takes(
    model: str, least: dict[str, Any] | None
) -> None:
    from agentui.core.providers.google.request import generation_config

    config = generation_config(
        request(user_text("Hi"), model=model, thinking_budget=0), thinking_budget=None
    )

    got = config.thinking_config
    assert (
        None if got is None else got.model_dump(mode="json", by_alias=True, exclude_none=True)
    ) == least


def test_a_declared_response_schema_asks_for_json_held_to_it() -> None:
    from agentui.core.providers.google.request import generation_config

    schema = QuestionsDecision.model_json_schema()
    config = generation_config(
        request(user_text("Any questions?"), response_schema=schema), thinking_budget=None
    )

    assert config.response_mime_type == "application/json"
    assert config.response_json_schema == schema
    free = generation_config(request(user_text("Hi")), thinking_budget=None)
    assert free.response_mime_type is None and free.response_json_schema is None


@pytest.mark.parametrize(
    ("model", "both"),
    [
        ("gemini-3.8-flash", True),
        ("gemini-3-flash-preview", True),
        ("gemini-3.1-pro-preview", True),
        ("models/gemini-3.5-flash", True),
        ("gemini-2.5-pro", False),
        ("gemini-2.5-flash-lite", False),
        ("my-gateway-model", False),
    ],
)
def test_json_beside_function_declarations_only_from_gemini_3(model: str, both: bool) -> None:
    from agentui.core.providers.google.request import generation_config, holds_json_with_tools

    schema = {"type": "object", "properties": {"port": {"type": "integer"}}}
    config = generation_config(
        request(
            user_text("Port?"),
            model=model,
            tools=[ToolSpec("lookup", "Look up.", {"type": "object"})],
            response_schema=schema,
        ),
        thinking_budget=None,
    )

    assert holds_json_with_tools(model) is both
    assert config.tools, "the tools always go"
    assert (config.response_json_schema == schema) is both
    assert (config.response_mime_type == "application/json") is both


def test_signatures_are_read_back_only_when_gemini_made_them() -> None:
    assert thought_signature.from_text(thought_signature.to_text(b"\x00\xff")) == b"\x00\xff"
    assert thought_signature.from_text("EqQBCkgIARABGAIi") is None  # Claude's
    assert thought_signature.from_text("gemini:not base64!") is None
    assert thought_signature.from_text(None) is None


@pytest.mark.anyio
async def test_the_key_comes_from_the_environment_google_s_first_as_the_status_says() -> None:
    assert key_value("google", {"GEMINI_API_KEY": "g"}) == "g"
    assert key_value("google", {"GEMINI_API_KEY": "  "}) is None
    both = {"GOOGLE_API_KEY": "o", "GEMINI_API_KEY": "g"}
    picked = provider_by_key(both)
    assert picked is not None and (picked.provider, picked.variable) == ("google", "GOOGLE_API_KEY")
    provider = make_provider("google", environ=both)
    try:
        # The key sent is the one the status names as having picked the provider.
        assert provider._client._api_client.api_key == both[picked.variable]  # type: ignore[attr-defined]
    finally:
        await provider.aclose()
    assert base_url({"GOOGLE_GEMINI_BASE_URL": "http://proxy:8080"}) == "http://proxy:8080"
    assert base_url({}) is None


@pytest.mark.parametrize(
    ("typed", "model"),
    [
        ("flash", "gemini-3.8-flash"),
        ("Flash-Lite", "gemini-3.1-flash-lite"),
        ("pro", "gemini-3.1-pro-preview"),
        (" models/gemini-2.5-pro ", "gemini-2.5-pro"),
        ("gemini-4-argon", "gemini-4-argon"),
    ],
)
def test_aliases_and_ids(typed: str, model: str) -> None:
    assert resolve_model(typed) == model


def test_a_conversation_from_gemini_goes_on_claude_without_gemini_s_signatures() -> None:
    from agentui.core.providers.anthropic.request import api_messages

    messages = [
        user_text("Port?"),
        assistant(
            ThinkingBlock(thinking="Look it up.", signature=SIG),
            ToolUseBlock(id="c-1", name="lookup", input={}),
            ThinkingBlock(thinking="", signature=SIG),
        ),
        user(ToolResultBlock(tool_use_id="c-1", content="8080")),
    ]

    assert api_messages(messages)[1] == {
        "role": "assistant",
        "content": [{"type": "tool_use", "id": "c-1", "name": "lookup", "input": {}}],
    }, "Claude would refuse a signature it did not make"
