"""Our request as Messages API parameters: system text, messages, tools, thinking and the
response's JSON Schema (structured output).

The conversation model is looser than the API, so the mapping repairs what the API would reject:
- messages with role "system" join the instructions in `system`;
- consecutive messages of one role are merged (the API wants user and assistant to alternate;
  a `pause_turn` continuation, for one, leaves two assistant messages in a row);
- in a user message tool results come first, as the API requires;
- empty text blocks and empty messages are dropped, and thinking without a signature or with
  Gemini's (from another provider) is dropped: the API only accepts thinking it signed;
  redacted thinking goes back verbatim;
- an interrupted assistant message is sent as its plain text (its tool calls never ran);
- a window that starts with the assistant gets a short user message in front.
"""

from __future__ import annotations

import re
from typing import Any, Literal

from anthropic import transform_schema

from agentui.core.protocol.conversation import (
    Message,
    RedactedThinkingBlock,
    TextBlock,
    ThinkingBlock,
    ToolResultBlock,
    ToolUseBlock,
)
from agentui.core.providers.anthropic.defaults import MIN_THINKING_BUDGET
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.schema_defs import defs_for_definitions
from agentui.core.providers.signatures import is_geminis
from agentui.core.support.errors import ProviderError

WINDOW_START = "(Earlier messages of this conversation were left out to save space.)"

# Claude 4.6 and later think adaptively (the fixed-budget form is deprecated there and refused
# by the newest models); earlier ones only know a fixed budget. Ids carry the version:
# claude-sonnet-4-6, claude-3-7-sonnet-20250219; a dated id like claude-opus-4-20250514 has
# no minor version.
ADAPTIVE_SINCE = (4, 6)
# Structured output (`output_config.format`) holds the reply to a JSON Schema by constrained
# decoding; the API has it for Claude 4.5 and later and refuses it before. Earlier models get
# the schema only in the instructions (see workflow/structured.py).
STRUCTURED_OUTPUT_SINCE = (4, 5)
_VERSION = re.compile(r"claude-(?:[a-z]+-)?(\d+)-(\d{1,2})(?!\d)")

ApiBlock = dict[str, Any]
ApiMessage = dict[str, Any]


def _block(block: Any, *, interrupted: bool) -> ApiBlock | None:
    if isinstance(block, TextBlock):
        return {"type": "text", "text": block.text} if block.text.strip() else None
    if interrupted:
        return None  # an interrupted response is kept as the text the person saw
    if isinstance(block, ThinkingBlock):
        if not block.signature or is_geminis(block.signature):
            return None  # Claude takes back only thinking it signed itself
        return {"type": "thinking", "thinking": block.thinking, "signature": block.signature}
    if isinstance(block, RedactedThinkingBlock):
        return {"type": "redacted_thinking", "data": block.data}
    if isinstance(block, ToolUseBlock):
        return {"type": "tool_use", "id": block.id, "name": block.name, "input": block.input}
    if isinstance(block, ToolResultBlock):
        result: ApiBlock = {"type": "tool_result", "tool_use_id": block.tool_use_id}
        if block.content:
            result["content"] = block.content
        if block.is_error:
            result["is_error"] = True
        return result
    raise TypeError(f"no Messages API mapping for {type(block).__name__}")


def api_messages(messages: list[Message]) -> list[ApiMessage]:
    """The conversation (without its system messages) as alternating API messages."""
    out: list[ApiMessage] = []
    for message in messages:
        if message.role == "system":
            continue
        blocks = [
            mapped
            for block in message.content
            if (mapped := _block(block, interrupted=message.interrupted)) is not None
        ]
        if not blocks:
            continue
        if out and out[-1]["role"] == message.role:
            out[-1]["content"].extend(blocks)
        else:
            out.append({"role": message.role, "content": blocks})
    for api_message in out:
        if api_message["role"] == "user":  # stable: tool results first, the rest in order
            api_message["content"].sort(key=lambda b: b["type"] != "tool_result")
    if out and out[-1]["role"] == "assistant":
        _trim_trailing_whitespace(out[-1])
    if not out or out[0]["role"] != "user":
        out.insert(0, {"role": "user", "content": [{"type": "text", "text": WINDOW_START}]})
    return out


def _trim_trailing_whitespace(message: ApiMessage) -> None:
    """The API rejects a final assistant message that ends in whitespace."""
    last = message["content"][-1]
    if last["type"] == "text":
        last["text"] = last["text"].rstrip()


def system_text(request: ProviderRequest) -> str:
    parts = [request.instructions, *(m.text for m in request.messages if m.role == "system")]
    return "\n\n".join(part for part in parts if part.strip())


def _version(model: str) -> tuple[int, int] | None:
    match = _VERSION.search(model)
    return None if match is None else (int(match.group(1)), int(match.group(2)))


def thinking_form(model: str) -> Literal["adaptive", "budget"]:
    """How the model takes thinking; an id without a version keeps the fixed-budget form."""
    version = _version(model)
    return "adaptive" if version is not None and version >= ADAPTIVE_SINCE else "budget"


def has_structured_output(model: str) -> bool:
    """Whether the model takes `output_config.format`; an id without a version is not sent it
    (the API would refuse the whole request, where instructions alone still may work)."""
    version = _version(model)
    return version is not None and version >= STRUCTURED_OUTPUT_SINCE


def output_format(schema: dict[str, Any]) -> dict[str, Any] | None:
    """`output_config.format` for a JSON Schema, in the subset the API takes; None when the
    SDK cannot map it (a Draft-07 feature the API lacks, such as a list of types): the
    request then goes without it, the schema still in the instructions and the answer still
    validated by the caller.

    The SDK's `transform_schema` closes objects (`additionalProperties: false`) and moves what
    the API does not check (`maxItems`, `minLength`, defaults) into descriptions, so the model
    still reads them and our validation still enforces them.
    """
    try:
        strict = transform_schema(defs_for_definitions(schema))
    except (AssertionError, ValueError, TypeError, KeyError):  # assert_never: an unknown type
        return None
    return {"type": "json_schema", "schema": strict}


def request_params(request: ProviderRequest, *, thinking_budget: int | None) -> dict[str, Any]:
    """Keyword arguments for `client.messages.create(..., stream=True)`.

    A request that declares a `response_schema` (a workflow decision, a JSON agent profile's
    contract) asks for structured output, so the reply is JSON valid for the schema, on models
    that have it (and for schemas the API can take).

    `request.thinking_budget`, when set, wins over the provider's `thinking_budget`; 0 turns
    thinking off. A model before 4.6 gets it as its fixed budget; a later one thinks as much as
    it judges useful. Either way thinking counts toward `max_tokens`, so the budget is added on
    top of the request's `max_tokens` to keep the same room for the answer.
    """
    params: dict[str, Any] = {
        "model": request.model,
        "max_tokens": request.max_tokens,
        "messages": api_messages(request.messages),
    }
    system = system_text(request)
    if system:
        params["system"] = system
    if request.tools:
        params["tools"] = [
            {"name": t.name, "description": t.description, "input_schema": t.input_schema}
            for t in request.tools
        ]
    if request.response_schema is not None and has_structured_output(request.model):
        structured = output_format(request.response_schema)
        if structured is not None:
            params["output_config"] = {"format": structured}
    budget = request.thinking_budget if request.thinking_budget is not None else thinking_budget
    if budget:
        if budget < MIN_THINKING_BUDGET:
            raise ProviderError(
                f"the thinking budget must be at least {MIN_THINKING_BUDGET} tokens "
                f"(or 0 for no thinking), not {budget}"
            )
        if thinking_form(request.model) == "adaptive":
            params["thinking"] = {"type": "adaptive"}
        else:
            params["thinking"] = {"type": "enabled", "budget_tokens": budget}
        params["max_tokens"] = request.max_tokens + budget
    return params
