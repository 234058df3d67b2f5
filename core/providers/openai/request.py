"""Our request as Chat Completions parameters: instructions, messages, tools, the token limit
and the response's JSON Schema (structured output), in the dialect the server speaks.

The conversation model is Anthropic-shaped; the mapping turns it into OpenAI's:
- the instructions (and any "system" messages) lead as one `developer` message on OpenAI's
  API, a `system` message elsewhere (see Dialect);
- a user message's tool results become `role: "tool"` messages, placed first: they must follow
  the assistant message that called the tools; the rest of its text is a user message;
- an assistant message's tool calls are `tool_calls` with their arguments as JSON text;
- thinking is never sent back: Chat Completions has no place for it, and servers that stream
  `reasoning_content` (DeepSeek) refuse it in a request;
- consecutive messages of one role are merged (many local chat templates want user and
  assistant to alternate), empty ones dropped, and an interrupted assistant message is sent as
  its plain text (its tool calls never ran);
- a window that starts with the assistant gets a short user message in front.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, replace
from typing import Any, Literal

from agentui.core.protocol.conversation import Message, TextBlock, ToolResultBlock, ToolUseBlock
from agentui.core.providers.base import ProviderRequest
from agentui.core.providers.openai.defaults import is_openai, is_openai_model
from agentui.core.providers.openai.strict_schema import strict_schema

WINDOW_START = "(Earlier messages of this conversation were left out to save space.)"
ERROR_PREFIX = "Error: "  # a tool message has no error flag: the text says it

Structured = Literal["strict", "loose", "off"]


TokenLimit = Literal["max_completion_tokens", "max_tokens"]
# How a server says it does not take a parameter at all (not that its value is wrong).
_NOT_TAKEN = re.compile(
    r"unsupported|not supported|unrecogni[sz]ed|unknown|extra|not permitted|not allowed|unexpected"
)


@dataclass(frozen=True, slots=True)
class Dialect:
    """What the server takes. OpenAI's API wants instructions as a `developer` message and the
    limit as `max_completion_tokens` (reasoning models refuse `max_tokens`); compatible servers
    all know `system` and `max_tokens`, and a chat template that does not know `developer` may
    drop the instructions silently, so they get those. OpenAI's own models behind a compatible
    address (a pass-through proxy) get `max_completion_tokens` too, and room to reason.

    A server that refuses a feature with a 400 naming it (`relaxed_for`) is asked again without
    it, for the provider's life: `stream_options` (the usage chunk), a strict JSON Schema (then
    a loose one, then none: the schema is still in the instructions and the answer still
    validated by the caller), the `developer` role, or the token limit's name (switched once,
    either way).
    """

    instructions_role: Literal["developer", "system"] = "system"
    # None: by the model (see `limit_for`); set once a server refused the other name.
    token_limit: TokenLimit | None = None
    limit_switched: bool = False  # a refusal switched it: it is not switched back
    # OpenAI's reasoning models spend completion tokens on reasoning first: the thinking
    # budget is added to the limit there. Not elsewhere: vLLM refuses a request whose prompt
    # and limit together pass the model's context, which a small local one soon would.
    reasoning_room: bool = False
    stream_usage: bool = True
    structured: Structured = "strict"

    @classmethod
    def for_server(cls, base_url: str) -> Dialect:
        if is_openai(base_url):
            return cls(
                instructions_role="developer",
                token_limit="max_completion_tokens",
                reasoning_room=True,
            )
        return cls()

    def limit_for(self, model: str) -> TokenLimit:
        """The token limit's name for `model`."""
        if self.token_limit is not None:
            return self.token_limit
        return "max_completion_tokens" if is_openai_model(model) else "max_tokens"

    def room_for(self, model: str) -> bool:
        """Whether the thinking budget is added to `model`'s limit."""
        return self.reasoning_room or (self.token_limit is None and is_openai_model(model))

    def relaxed_for(self, message: str, model: str = "") -> Dialect | None:
        """This dialect without the feature a refusal's `message` names (for a request for
        `model`); None if it names none that is still on."""
        said = message.lower()
        if self.stream_usage and "stream_options" in said:
            return replace(self, stream_usage=False)
        if self.structured != "off" and ("response_format" in said or "json_schema" in said):
            return replace(self, structured="loose" if self.structured == "strict" else "off")
        if self.instructions_role == "developer" and "developer" in said:
            return replace(self, instructions_role="system")
        switched = self._other_limit(said, model)
        if switched is not None:
            # The room to reason goes with max_completion_tokens: a server that wants
            # max_tokens instead is a compatible one, whose context the room could overflow.
            return replace(
                self,
                token_limit=switched,
                limit_switched=True,
                reasoning_room=switched == "max_completion_tokens",
            )
        return None

    def _other_limit(self, said: str, model: str) -> TokenLimit | None:
        """The other token limit's name when `said` refuses this one (once: a dialect whose
        limit was set by a refusal keeps it)."""
        if self.limit_switched:
            return None
        limit = self.limit_for(model)
        if limit == "max_tokens" and "max_completion_tokens" in said:
            return "max_completion_tokens"  # "'max_tokens' is not supported ... use max_c..."
        if limit == "max_completion_tokens" and limit in said and _NOT_TAKEN.search(said):
            return "max_tokens"
        return None


ChatMessage = dict[str, Any]


def _instructions(request: ProviderRequest) -> str:
    parts = [request.instructions, *(m.text for m in request.messages if m.role == "system")]
    return "\n\n".join(part for part in parts if part.strip())


def _tool_message(result: ToolResultBlock) -> ChatMessage:
    content = ERROR_PREFIX + result.content if result.is_error else result.content
    return {"role": "tool", "tool_call_id": result.tool_use_id, "content": content}


def _tool_call(block: ToolUseBlock) -> dict[str, Any]:
    arguments = json.dumps(block.input, ensure_ascii=False)
    return {
        "id": block.id,
        "type": "function",
        "function": {"name": block.name, "arguments": arguments},
    }


def _texts(message: Message) -> list[str]:
    return [b.text for b in message.content if isinstance(b, TextBlock) and b.text.strip()]


def _append(out: list[ChatMessage], message: ChatMessage) -> None:
    """Add a user or assistant message, merged into the one before it when of the same role."""
    previous = out[-1] if out else None
    if previous is None or previous["role"] != message["role"] or message["role"] == "tool":
        out.append(message)
        return
    texts = [t for t in (previous.get("content"), message.get("content")) if t]
    previous["content"] = "\n\n".join(texts) if texts else None
    if message.get("tool_calls"):
        previous["tool_calls"] = [*previous.get("tool_calls", []), *message["tool_calls"]]


def chat_messages(request: ProviderRequest, instructions_role: str) -> list[ChatMessage]:
    """The request's conversation as Chat Completions messages, instructions first."""
    out: list[ChatMessage] = []
    for message in request.messages:
        if message.role == "system":
            continue
        text = "\n\n".join(_texts(message))
        if message.role == "user":
            for result in message.tool_results:
                out.append(_tool_message(result))
            if text:
                _append(out, {"role": "user", "content": text})
            continue
        calls = [] if message.interrupted else [_tool_call(b) for b in message.tool_uses]
        if not text and not calls:
            continue
        assistant: ChatMessage = {"role": "assistant", "content": text or None}
        if calls:
            assistant["tool_calls"] = calls
        _append(out, assistant)
    if not out or out[0]["role"] != "user":
        out.insert(0, {"role": "user", "content": WINDOW_START})
    instructions = _instructions(request)
    if instructions:
        out.insert(0, {"role": instructions_role, "content": instructions})
    return out


_NAME = re.compile(r"[^A-Za-z0-9_-]")


def response_format(
    schema: dict[str, Any], name: str, structured: Structured
) -> dict[str, Any] | None:
    """`response_format` for a JSON Schema: strict (the model is held to it by constrained
    decoding) when the schema can be made strict without changing what it means (see
    strict_schema.py), else loose (the schema as it is, a hint the server may follow); None
    when `structured` is "off".
    """
    if structured == "off":
        return None
    strict = strict_schema(schema) if structured == "strict" else None
    safe_name = _NAME.sub("_", name)[:64] or "answer"
    return {
        "type": "json_schema",
        "json_schema": {
            "name": safe_name,
            "schema": strict if strict is not None else schema,
            "strict": strict is not None,
        },
    }


def request_params(
    request: ProviderRequest, dialect: Dialect, *, reasoning_room: int | None
) -> dict[str, Any]:
    """Keyword arguments for `client.chat.completions.create(...)`, streaming.

    `reasoning_room` (the thinking budget; `request.thinking_budget` wins when set, 0 is none)
    is added to the request's `max_tokens` where the dialect says so: reasoning models spend
    completion tokens on reasoning before the answer, so the answer keeps the room it was
    given.
    """
    room = request.thinking_budget if request.thinking_budget is not None else reasoning_room
    if not dialect.room_for(request.model):
        room = 0
    params: dict[str, Any] = {
        "model": request.model,
        "messages": chat_messages(request, dialect.instructions_role),
        dialect.limit_for(request.model): request.max_tokens + (room or 0),
        "stream": True,
    }
    if dialect.stream_usage:
        params["stream_options"] = {"include_usage": True}
    if request.tools:
        params["tools"] = [
            {
                "type": "function",
                "function": {
                    "name": t.name,
                    "description": t.description,
                    "parameters": t.input_schema,
                },
            }
            for t in request.tools
        ]
    if request.response_schema is not None:
        name = request.decision or "answer"
        structured = response_format(request.response_schema, name, dialect.structured)
        if structured is not None:
            params["response_format"] = structured
    return params
