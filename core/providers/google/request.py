"""Our request as the SDK's `contents` and `GenerateContentConfig`: system instruction,
turns, function declarations, thinking and the response's JSON Schema (structured output).

The conversation model is looser than the API, so the mapping repairs what it would refuse:
- messages with role "system" join the instructions in `system_instruction`;
- the assistant is the role "model"; consecutive messages of one role merge into one turn;
- tool results become `functionResponse` parts of a user turn, first in it, each named after
  its call (the result under "output", a failure under "error");
- thinking goes back only as Gemini's own signed thought parts; thinking it did not sign
  (another provider's, or an unsigned summary) is dropped, and a signature alone goes back on
  the part it came with (see thought_signature.py);
- empty text and empty turns are dropped; an interrupted message is sent as its plain text
  (its calls never ran);
- a window that starts with the model gets a short user turn in front.
"""

from __future__ import annotations

import re
from typing import Any

from google.genai import types

from agentui.core.protocol.conversation import (
    Message,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from agentui.core.providers.base import ProviderRequest, ToolSpec
from agentui.core.providers.google import thought_signature
from agentui.core.providers.google.call_ids import wire_id
from agentui.core.providers.schema_defs import defs_for_definitions

WINDOW_START = "(Earlier messages of this conversation were left out to save space.)"

# Thinking counts toward `max_output_tokens`, and current models think unless told how much:
# without a budget this much room is added, so thinking does not eat the answer's room.
UNBUDGETED_THINKING_ROOM = 8192
# The least thinking each family takes when a request asks for none (a workflow decision):
# Gemini 3 models think at least at a level (LOW is the lowest every one of them takes), 2.5
# Pro at least 128 tokens; 2.5 Flash and Flash-Lite can stop.
LEAST_THINKING_SINCE_3 = types.ThinkingConfig(thinking_level=types.ThinkingLevel.LOW)
LEAST_THINKING_PRO_2_5 = types.ThinkingConfig(thinking_budget=128)
NO_THINKING = types.ThinkingConfig(thinking_budget=0)

# Gemini 3 holds an answer to a JSON Schema while it may call functions; earlier models refuse
# JSON mode beside function declarations. Ids carry the version: gemini-3.8-flash, gemini-2.5-pro.
JSON_WITH_TOOLS_SINCE = (3, 0)
_VERSION = re.compile(r"gemini-(\d+)(?:\.(\d+))?")


class _Turn:
    """The parts of one message, with a lone signature put on the part it belongs to."""

    def __init__(self) -> None:
        self.parts: list[types.Part] = []
        self._pending_signature: bytes | None = None

    def add(self, part: types.Part) -> None:
        if self._pending_signature is not None:
            part.thought_signature = self._pending_signature
            self._pending_signature = None
        self.parts.append(part)

    def sign_last(self, signature: bytes) -> None:
        """A signature alone came right after the part it signs (or, at the start, before
        the next one)."""
        if self.parts and self.parts[-1].thought_signature is None:
            self.parts[-1].thought_signature = signature
        else:
            self._pending_signature = signature


def _model_parts(message: Message, call_names: dict[str, str]) -> list[types.Part]:
    if message.interrupted:  # kept as the text the person saw
        return [types.Part(text=message.text)] if message.text.strip() else []
    turn = _Turn()
    for block in message.content:
        match block:
            case TextBlock(text=text) if text.strip():
                turn.add(types.Part(text=text))
            case ThinkingBlock(thinking=thinking, signature=signature):
                signed = thought_signature.from_text(signature)
                if signed is None:
                    continue  # not Gemini's: it would refuse it
                if thinking:
                    turn.add(types.Part(text=thinking, thought=True, thought_signature=signed))
                else:
                    turn.sign_last(signed)
            case ToolUseBlock(id=call_id, name=name, input=arguments):
                call_names[call_id] = name
                call = types.FunctionCall(id=wire_id(call_id), name=name, args=arguments)
                turn.add(types.Part(function_call=call))
    return turn.parts


def _user_parts(message: Message, call_names: dict[str, str]) -> list[types.Part]:
    parts: list[types.Part] = []
    for block in message.content:
        match block:
            case TextBlock(text=text) if text.strip():
                parts.append(types.Part(text=text))
            case ToolResultBlock(tool_use_id=call_id, content=content, is_error=failed):
                name = call_names.get(call_id)
                if name is None:  # its call was left out of the window: keep what it said
                    parts.append(types.Part(text=f"(a tool result) {content}"))
                    continue
                response = types.FunctionResponse(
                    id=wire_id(call_id),
                    name=name,
                    response={"error" if failed else "output": content},
                )
                parts.append(types.Part(function_response=response))
    return parts


def api_contents(messages: list[Message]) -> list[types.Content]:
    """The conversation (without its system messages) as alternating API turns."""
    call_names: dict[str, str] = {}  # call id -> function name, for the responses
    out: list[types.Content] = []
    for message in messages:
        if message.role == "system":
            continue
        if message.role == "assistant":
            role, parts = "model", _model_parts(message, call_names)
        else:
            role, parts = "user", _user_parts(message, call_names)
        if not parts:
            continue
        if out and out[-1].role == role:
            (out[-1].parts or []).extend(parts)
        else:
            out.append(types.Content(role=role, parts=parts))
    for content in out:
        if content.role == "user" and content.parts:  # stable: responses first, the rest in order
            content.parts.sort(key=lambda part: part.function_response is None)
    if not out or out[0].role != "user":
        out.insert(0, types.Content(role="user", parts=[types.Part(text=WINDOW_START)]))
    return out


def system_text(request: ProviderRequest) -> str:
    parts = [request.instructions, *(m.text for m in request.messages if m.role == "system")]
    return "\n\n".join(part for part in parts if part.strip())


def function_declarations(tools: list[ToolSpec]) -> list[types.Tool]:
    """Our tools as one Tool of declarations; their JSON Schemas go as they are
    (`parametersJsonSchema`), not through the SDK's OpenAPI subset."""
    if not tools:
        return []
    declarations = [
        types.FunctionDeclaration(
            name=spec.name,
            description=spec.description,
            parameters_json_schema=defs_for_definitions(spec.input_schema),
        )
        for spec in tools
    ]
    return [types.Tool(function_declarations=declarations)]


def _version(model: str) -> tuple[int, int] | None:
    match = _VERSION.search(model)
    if match is None:
        return None
    return int(match.group(1)), int(match.group(2) or 0)


def holds_json_with_tools(model: str) -> bool:
    """Whether the model takes JSON mode beside function declarations; an id without a
    version is not sent both (the API would refuse the whole request)."""
    version = _version(model)
    return version is not None and version >= JSON_WITH_TOOLS_SINCE


def least_thinking(model: str) -> types.ThinkingConfig | None:
    """The config for as little thinking as the model allows; None (its default) for a model
    whose family is unknown."""
    version = _version(model)
    if version is None or version < (2, 5):
        return None
    if version >= (3, 0):
        return LEAST_THINKING_SINCE_3
    return LEAST_THINKING_PRO_2_5 if "-pro" in model else NO_THINKING


def generation_config(
    request: ProviderRequest, *, thinking_budget: int | None
) -> types.GenerateContentConfig:
    """The config for `generate_content_stream`.

    A request that declares a `response_schema` (a workflow decision, a JSON agent profile's
    contract) asks for JSON held to the schema (`responseJsonSchema`). A model before Gemini 3
    cannot do that while it may call functions: a request with tools then goes without it,
    the schema still in the instructions and the answer still validated by the caller.

    `request.thinking_budget`, when set, wins over the provider's `thinking_budget`. A budget
    shows the model's thoughts (`includeThoughts`) and is added to `max_output_tokens`, which
    thinking counts toward; without one the model thinks as it does by default, its thoughts
    unshown, with UNBUDGETED_THINKING_ROOM added instead. A request's budget of 0 asks for as
    little thinking as the model allows (`least_thinking`).
    """
    budget = request.thinking_budget if request.thinking_budget is not None else thinking_budget
    config: dict[str, Any] = {
        "max_output_tokens": request.max_tokens + (budget or UNBUDGETED_THINKING_ROOM),
        # We run the calls ourselves; the SDK's automatic calling stays out of the way.
        "automatic_function_calling": types.AutomaticFunctionCallingConfig(disable=True),
    }
    system = system_text(request)
    if system:
        config["system_instruction"] = system
    tools = function_declarations(request.tools)
    if tools:
        config["tools"] = tools
    if request.response_schema is not None and (not tools or holds_json_with_tools(request.model)):
        config["response_mime_type"] = "application/json"
        config["response_json_schema"] = defs_for_definitions(request.response_schema)
    # On the wire the SDK (google-genai 3.x) writes thinkingConfig's own keys in snake_case
    # (include_thoughts, thinking_budget) beside the camelCase of the rest: it copies the
    # config object in and dumps it without aliases. The API reads both spellings (proto JSON
    # takes a field's original name as well as its camelCase one); ours stays the SDK's.
    if budget:
        config["thinking_config"] = types.ThinkingConfig(
            include_thoughts=True, thinking_budget=budget
        )
    elif budget == 0:
        config["thinking_config"] = least_thinking(request.model)
    return types.GenerateContentConfig(**config)
